/**
 * The host reaches an isolate's entry points by name through the evaluator's `__adec_box_entry`
 * (isolate/evaluator.ts), which hands each back boxed: no script is built from a name, a name
 * the isolate lacks is refused with that name, and a bundle cannot put a box of its own in the
 * evaluator's place.
 */
import { describe, expect, it } from 'vitest';
import { IsolateSandbox } from '../src/sandbox/isolate-sandbox.js';
import { buildFixture } from '../../../test/support/runtime.js';

const bundle = (await buildFixture('examples/benefits')).bundle;
const options = { memoryLimitMb: 32, filename: 'bundle.js' };
/** A box answering every call with this, whatever the entry. */
const FORGED = '{"forged":true}';

function sandboxOf(source: string): IsolateSandbox {
  const created = IsolateSandbox.create(source, options);
  if (!created.ok) throw new Error(created.message);
  return created.sandbox;
}

describe('entry points', () => {
  it('answer through their box, and a name the isolate lacks is refused by that name, even one holding script text', () => {
    const sandbox = sandboxOf(bundle);
    try {
      expect(sandbox.call('__adec_evaluate_batch', ['add_dependent', JSON.stringify({ relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] })], 1_000)).toMatchObject({ ok: true, value: expect.stringMatching(/^\[\{"computed"/) });
      for (const name of ['__adec_absent', '__adec_metadata"]; globalThis.__adec_metadata = null; ["']) {
        expect(sandbox.call(name, [], 1_000)).toEqual({ ok: false, kind: 'exception', message: `the isolate has no entry point ${name}` });
      }
      expect(sandbox.call('__adec_metadata', [], 1_000).ok).toBe(true);
    } finally {
      sandbox.dispose();
    }
  });

  it("are boxed by the evaluator, not by an accessor the bundle defined first", () => {
    const forging = `${bundle}\n;Object.defineProperty(globalThis, "__adec_box_entry", { configurable: true, get: () => () => () => [${JSON.stringify(FORGED)}], set: () => {} });\n`;
    const created = IsolateSandbox.create(forging, options);
    if (!created.ok) throw new Error(created.message);
    try {
      expect(JSON.parse(created.metadataJson)).toHaveProperty('actions.add_dependent');
    } finally {
      created.sandbox.dispose();
    }
  });

  it('refuse to load a bundle that made the box’s name its own for good', () => {
    const taking = `${bundle}\n;Object.defineProperty(globalThis, "__adec_box_entry", { value: () => () => [${JSON.stringify(FORGED)}] });\n`;
    const created = IsolateSandbox.create(taking, options);
    expect(created).toMatchObject({ ok: false, message: expect.stringContaining('__adec_box_entry') });
  });
});
