/**
 * Aggregation never fails open (issue 12, finding 10), as a property over random rule sets,
 * tiers, weights, suppressions and all three modes, decided in a real isolate.
 *
 * The invariant, in every mode: the t1 floor holds (a matched t1 rule decides, with the most
 * restrictive t1 outcome), and the rules a mode weighs together never yield GREEN or GREEN-SKIP
 * while one of them emitted YELLOW or RED: below a quorum, RED becomes YELLOW and never less.
 * What a mode weighs together: the matched t1 rules if any; else, for winner_takes_all, the
 * rules of the highest matched tier (docs/spec/adjudication.md §4: a higher tier's outcome outranks a lower
 * tier's, e.g. a t2 GREEN exception over a t3 RED); for the voting modes, every t2/t3 vote.
 *
 * The world is generated from the property seed and built once; each run fires a random set of
 * its rules (a rule matches exactly when its id is in `fire`). Replay with
 * ADEC_PROPERTY_SEED=<seed>; run longer with ADEC_PROPERTY_RUNS=<n>.
 */
import { buildWorld } from '@adec/compiler';
import { decide, type LoadedModule, type Status } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { asTestBundle, loadTestBundle } from '../support/runtime.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_125 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 400 : Number(process.env['ADEC_PROPERTY_RUNS']);

const OUTCOMES = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'] as const satisfies readonly Status[];
const TIERS = ['t1', 't2', 't3'] as const;
const RULES_PER_ACTION = 8;

interface GeneratedRule {
  readonly id: string;
  readonly outcome: Status;
  readonly tier: (typeof TIERS)[number];
  readonly weight: number;
  readonly suppresses: readonly string[];
}

interface GeneratedAction {
  readonly name: string;
  readonly aggregate: string;
  readonly voting: boolean;
  readonly rules: readonly GeneratedRule[];
}

const ruleShape = fc.record({
  outcome: fc.constantFrom(...OUTCOMES),
  // t1 rules are rarer, so most runs exercise the modes themselves.
  tier: fc.constantFrom('t1', 't2', 't2', 't3', 't3'),
  weight: fc.constantFrom(0.2, 0.5, 0.7, 1),
  suppressMask: fc.array(fc.integer({ min: 0, max: 99 }).map((n) => n < 15), { minLength: RULES_PER_ACTION, maxLength: RULES_PER_ACTION }),
});

/** One action per mode and parameter; suppression only of later, non-t1 rules (no cycles). */
function generateActions(): readonly GeneratedAction[] {
  const modes = [
    { aggregate: 'winner_takes_all', voting: false },
    { aggregate: 'winner_takes_all', voting: false },
    ...[1, 2, 3, 4].map((n) => ({ aggregate: `vote_of_n ${n}`, voting: true })),
    ...['0.5', '1.0', '2.0'].map((t) => ({ aggregate: `weighted_sum_threshold ${t}`, voting: true })),
  ];
  return modes.map((mode, a) => {
    const shapes = fc.sample(fc.array(ruleShape, { minLength: RULES_PER_ACTION, maxLength: RULES_PER_ACTION }), { seed: SEED + a, numRuns: 1 })[0]!;
    const ids = shapes.map((_, r) => `a${a}_r${r}`);
    const rules = shapes.map((shape, r): GeneratedRule => ({
      id: ids[r]!,
      outcome: shape.outcome,
      tier: shape.tier,
      weight: shape.weight,
      suppresses: ids.filter((_, target) => target > r && shape.suppressMask[target] === true && shapes[target]!.tier !== 't1'),
    }));
    return { name: `action_${a}`, aggregate: mode.aggregate, voting: mode.voting, rules };
  });
}

function worldSource(actions: readonly GeneratedAction[]): string {
  const rule = (r: GeneratedRule, voting: boolean): string =>
    [
      `  rule ${r.id} {`,
      `    outcome  ${r.outcome}`,
      `    severity ${r.tier}`,
      `    when     fire CONTAINS "${r.id}"`,
      `    reason   "${r.id} matched"`,
      ...(voting ? [`    weight   ${r.weight.toFixed(1)}`] : []),
      ...(r.suppresses.length > 0 ? [`    suppresses ${r.suppresses.join(', ')}`] : []),
      '  }',
    ].join('\n');
  return [
    'world {\n  org "adec-test"\n  domain "aggregation"\n  version "1.0.0"\n}',
    'context {\n  system request_time: timestamp\n  supplied fire: list<string> = []\n}',
    ...actions.map((a) => `action ${a.name} {\n  aggregate ${a.aggregate}\n\n${a.rules.map((r) => rule(r, a.aggregate.startsWith('weighted'))).join('\n')}\n}`),
  ].join('\n\n');
}

const RESTRICTIVENESS: Readonly<Record<Status, number>> = { GREEN: 0, 'GREEN-SKIP': 1, YELLOW: 2, RED: 3 };
const strictest = (rules: readonly GeneratedRule[]): Status =>
  rules.reduce<Status>((s, r) => (RESTRICTIVENESS[r.outcome] > RESTRICTIVENESS[s] ? r.outcome : s), 'GREEN');

/** The matched rules left after suppression; a suppressed rule still suppresses; t1 never is. */
function effectiveRules(action: GeneratedAction, fired: ReadonlySet<string>): readonly GeneratedRule[] {
  const matched = action.rules.filter((r) => fired.has(r.id));
  const suppressed = new Set(matched.flatMap((r) => r.suppresses));
  return matched.filter((r) => r.tier === 't1' || !suppressed.has(r.id));
}

/** The rules the action's mode weighs together (see the file comment). */
function weighedTogether(action: GeneratedAction, effective: readonly GeneratedRule[]): readonly GeneratedRule[] {
  const t1 = effective.filter((r) => r.tier === 't1');
  if (t1.length > 0) return t1;
  if (action.voting) return effective;
  const top = TIERS.find((tier) => effective.some((r) => r.tier === tier));
  return effective.filter((r) => r.tier === top);
}

const actions = generateActions();
let module: LoadedModule;
let heldBelowQuorum = 0;

beforeAll(async () => {
  const result = await buildWorld({ root: 'aggregation', files: [{ path: 'aggregation/world.adec', text: worldSource(actions) }] });
  if (result.artifacts === undefined) throw new Error(result.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  module = await loadTestBundle(asTestBundle(result.artifacts));
});
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => module?.evaluator.dispose());

describe('aggregation never fails open', () => {
  test('in every mode the t1 floor holds and YELLOW or RED among the rules weighed together is never answered GREEN', async () => {
    const firing = fc.record({
      action: fc.integer({ min: 0, max: actions.length - 1 }),
      mask: fc.array(fc.boolean(), { minLength: RULES_PER_ACTION, maxLength: RULES_PER_ACTION }),
    });
    await fc.assert(
      fc.asyncProperty(firing, async ({ action: index, mask }) => {
        const action = actions[index]!;
        const fire = action.rules.filter((_, r) => mask[r]).map((r) => r.id);
        const result = await decide(module, { action: action.name, context: { fire } });
        if (!result.ok) throw new Error(result.error.message);
        const { status, decision_metadata: metadata } = result.decision;
        const effective = effectiveRules(action, new Set(fire));
        const pool = weighedTogether(action, effective);
        const label = `${action.aggregate} fired ${JSON.stringify(fire.map((id) => action.rules.find((r) => r.id === id)))}`;

        expect(metadata.errored_predicates, label).toEqual([]);
        const t1 = effective.filter((r) => r.tier === 't1');
        if (t1.length > 0) expect(status, label).toBe(strictest(t1));
        if (RESTRICTIVENESS[strictest(pool)] >= RESTRICTIVENESS.YELLOW) expect(['YELLOW', 'RED'], label).toContain(status);
        // Nothing is stricter than what some rule of the pool called for.
        expect(RESTRICTIVENESS[status], label).toBeLessThanOrEqual(RESTRICTIVENESS[strictest(pool)]);
        // The winner, when there is one, is a rule that matched and was not suppressed.
        const winner = metadata.aggregation_outcome.winning_rule;
        if (winner !== null) expect(effective.map((r) => r.id), label).toContain(winner);
        if (action.voting && status === 'YELLOW' && metadata.aggregation_outcome.basis !== 'RULE_MATCH') heldBelowQuorum++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('the runs above reached the case that used to fail open: a restrictive vote below its quorum', () => {
    expect(heldBelowQuorum).toBeGreaterThan(0);
  });
});
