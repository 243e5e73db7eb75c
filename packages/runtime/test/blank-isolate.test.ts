/**
 * A sandbox process prepares its isolate while it waits for its module (`blankIsolate`); the
 * load then uses it, unless it was made for another memory limit, in which case it is
 * released and the load makes its own.
 */
import { describe, expect, it } from 'vitest';
import { blankIsolate, IsolateSandbox } from '../src/sandbox/isolate-sandbox.js';
import { buildFixture } from '../../../test/support/runtime.js';

const bundle = (await buildFixture('examples/benefits')).bundle;
const options = { memoryLimitMb: 32, filename: 'bundle.js' };

describe('a blank isolate', () => {
  it('is what the module loads into when its memory limit is the module’s', () => {
    const blank = blankIsolate(32);
    const created = IsolateSandbox.create(bundle, options, blank);
    expect(created.ok).toBe(true);
    expect(blank.isolate.isDisposed).toBe(false);
    if (created.ok) {
      expect(JSON.parse(created.metadataJson)).toHaveProperty('actions');
      created.sandbox.dispose();
    }
    expect(blank.isolate.isDisposed).toBe(true);
  });

  it('is released, not used, when made for another memory limit', () => {
    const blank = blankIsolate(64);
    const created = IsolateSandbox.create(bundle, options, blank);
    expect(created.ok).toBe(true);
    expect(blank.isolate.isDisposed).toBe(true);
    if (created.ok) created.sandbox.dispose();
  });
});
