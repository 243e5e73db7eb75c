/**
 * `adec check` refuses a test expecting a reason its rule can never give, reading each
 * interpolation as its type renders (compiler check/reason-template.ts). That must never refuse
 * a reason the rule does give: over generated contexts, every reason the real module renders
 * (ints, floats, booleans, durations, timestamps, enums and strings interpolated), written
 * back as a test's expected reason, checks clean; and the same reason with a duration in
 * another form ("30d" for "30 days") is refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, checkSources } from '@adec/compiler';
import { decide, type LoadedModule } from '@adec/runtime';
import { asTestBundle, loadTestBundle } from '../../../test/support/runtime.js';

// A roomy predicate limit: the property is about rendering, and a loaded machine must not turn a
// match into a timeout.
const WORLD = `world { org "test" domain "reasons" version "1.0.0" timeout 200ms }

action review {
  context {
    supplied count:    int(-1000000..1000000)
    supplied ratio:    float
    supplied flagged:  bool
    supplied cooldown: duration
    supplied since:    timestamp
    supplied tier:     "gold" | "silver" | "a.b (c)"
    supplied note:     string(..40)
  }

  rule explained {
    outcome  YELLOW
    severity t2
    when     count > -2000000
    reason   "n={count} r={ratio} f={flagged} wait {cooldown} since {since} tier {tier}: {note}."
  }
}
`;

let module: LoadedModule;
beforeAll(async () => {
  const built = await buildWorld({ root: 'reasons', files: [{ path: 'reasons/world.adec', text: WORLD }] });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
  module = await loadTestBundle(asTestBundle(built.artifacts));
});
afterAll(() => module.evaluator.dispose());

/** The error codes `adec check` reports for the world with a test expecting `reason`. */
function checkedWith(reason: string): string[] {
  const test = `test "t" {\n  action review\n  context { count: 1, ratio: 0.5, flagged: true, cooldown: "1h", since: "2026-01-01T00:00:00Z", tier: "gold", note: "x" }\n  expect YELLOW by explained\n  expect reason ${JSON.stringify(reason)}\n}\n`;
  const { diagnostics } = checkSources({ root: 'reasons', files: [{ path: 'reasons/world.adec', text: WORLD }, { path: 'reasons/t.adec', text: test }] });
  return diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
}

const context = fc.record({
  count: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  ratio: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  flagged: fc.boolean(),
  cooldown: fc.integer({ min: 0, max: 400 * 86_400_000 }),
  since: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  tier: fc.constantFrom('gold', 'silver', 'a.b (c)'),
  // Text an adec string literal holds as written: no quote, backslash or braces.
  note: fc.string({ maxLength: 40 }).filter((text) => !/["\\{}]/.test(text)),
});

describe('expected reasons against what the module renders', () => {
  it('accepts every reason the module gives, written back as a test expects it', async () => {
    await fc.assert(
      fc.asyncProperty(context, async (values) => {
        const result = await decide(module, { action: 'review', context: { ...values, cooldown: `${values.cooldown}ms` } }, { requestId: 'reasons', requestTime: Date.parse('2026-03-01T09:00:00Z') });
        if (!result.ok) throw new Error(result.error.message);
        const reason = result.decision.decision_metadata.matched_rule_outcomes[0]!.reason!;
        expect(checkedWith(reason), JSON.stringify(reason)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['30d', '30 days'],
    ['2h30m', '2 hours 30 minutes'],
    ['1.5 hours', '1 hour 30 minutes'],
  ])('refuses a duration written as %s where the rule renders %s', (written, rendered) => {
    const base = 'n=1 r=0.5 f=true wait {d} since 2026-01-01T00:00:00.000Z tier gold: x.';
    expect(checkedWith(base.replace('{d}', rendered))).toEqual([]);
    expect(checkedWith(base.replace('{d}', written))).toEqual(['ADEC4026']);
  });
});
