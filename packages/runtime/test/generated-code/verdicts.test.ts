/**
 * The verifier's verdict on any input: never a throw, always `ok` or a problem with a line and
 * column inside the text; syntax errors, nesting deeper than the stack and empty input are
 * refusals like any other.
 */
import { verifyGeneratedCode, type GeneratedCodeVerdict } from '@adec/runtime';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildFixture } from '../../../../test/support/runtime.js';
import { spliced } from './verified-bundles.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_127 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 300 : Number(process.env['ADEC_PROPERTY_RUNS']);

function expectWellFormed(source: string, verdict: GeneratedCodeVerdict): void {
  if (verdict.ok) return;
  const lines = source.split('\n');
  expect(verdict.problem.length).toBeGreaterThan(0);
  expect(verdict.line).toBeGreaterThanOrEqual(1);
  expect(verdict.line).toBeLessThanOrEqual(lines.length);
  expect(verdict.column).toBeGreaterThanOrEqual(1);
  expect(verdict.column).toBeLessThanOrEqual(lines[verdict.line - 1]!.length + 1);
}

let bundle: string;
beforeAll(async () => {
  bundle = (await buildFixture('examples/fitness')).bundle;
});

describe('the verdict on any input', () => {
  test.each([
    ['empty input', '', 'the bundle does not define `__adec_module`'],
    ['a syntax error', 'var __adec_module = (() => {', 'the bundle does not parse: Unexpected token'],
    // acorn finds it first (its recursion is the deeper), and says so.
    ['nesting deeper than the stack', `var __adec_module = ${'('.repeat(200_000)}1${')'.repeat(200_000)};`, 'the bundle does not parse: Not enough stack space'],
    ['a list nested deeper than the stack', `var __adec_module = ${'['.repeat(200_000)}${']'.repeat(200_000)};`, 'the bundle does not parse: Not enough stack space'],
    ['a module of the wrong shape', 'var __adec_module = 1;', 'the bundle is `var __adec_module = (() => { … })();`'],
  ])('%s is refused', (_name, source, problem) => {
    const verdict = verifyGeneratedCode(source);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.problem).toContain(problem);
    expectWellFormed(source, verdict);
  });

  test('arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expectWellFormed(text, verifyGeneratedCode(text));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('a bundle with a slice replaced by arbitrary text', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 40 }), fc.string({ unit: fc.constantFrom(...Array.from('(){}[];,.=!?:`"\'$/*+-<>x1 \n\\u')), maxLength: 12 }), (at, length, text) => {
        const start = at % bundle.length;
        const edited = spliced(bundle, start, Math.min(bundle.length, start + length), text);
        expectWellFormed(edited, verifyGeneratedCode(edited));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
