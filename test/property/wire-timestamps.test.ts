/**
 * The checker accepts exactly the timestamps the runtime accepts on the wire: a test value or
 * a default that checks must never be refused when the request is bound (which would turn the
 * test into a fail-safe YELLOW). The compiler cannot import the runtime (a later phase), so the
 * two definitions are held together here, on a table of near misses and on generated text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRfc3339Timestamp } from '../../packages/compiler/src/check/literal-values.js';
import { timestampMs } from '../../packages/runtime/src/context/wire-values.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_121 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 2000 : Number(process.env['ADEC_PROPERTY_RUNS']);

const runtimeAccepts = (text: string) => timestampMs(text) !== undefined;

describe('timestamps: checker and runtime agree', () => {
  it.each([
    ['2026-03-01T09:00:00Z', true],
    ['2026-03-01t09:00:00z', true],
    ['2026-03-01T09:00:00.125+02:00', true],
    ['2026-03-01T23:30:00-05:00', true],
    ['2024-02-29T00:00:00Z', true],
    ['2026-03-01', false],
    ['2026-03-01T09:00Z', false],
    ['2026-03-01T09:00:00', false],
    ['2026-02-29T00:00:00Z', false],
    ['2026-04-31T00:00:00+14:00', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-03-01T24:00:00Z', false],
    ['2026-03-01 09:00:00Z', false],
  ])('%s: %s', (text, accepted) => {
    expect(runtimeAccepts(text)).toBe(accepted);
    expect(isRfc3339Timestamp(text)).toBe(accepted);
  });

  it('on generated near-timestamps', () => {
    const digits = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
    const text = fc
      .tuple(digits(4), digits(2), digits(2), fc.constantFrom('T', 't', ' ', ''), digits(2), digits(2), fc.option(digits(2)), fc.constantFrom('', '.5', '.123'), fc.constantFrom('Z', 'z', '+02:00', '-14:00', '+24:00', ''))
      .map(([y, mo, d, t, h, mi, s, frac, offset]) => (t === '' ? `${y}-${mo}-${d}` : `${y}-${mo}-${d}${t}${h}:${mi}${s === null ? '' : `:${s}`}${frac}${offset}`));
    fc.assert(fc.property(text, (candidate) => isRfc3339Timestamp(candidate) === runtimeAccepts(candidate)), { seed: SEED, numRuns: RUNS });
  });
});
