/**
 * The aggregation conformance table (docs/spec/adjudication.md §4, ARCHITECTURE.md "Composition root"): each
 * case fires a chosen set of rules of packages/runtime/test/worlds/conformance in a real isolate and
 * asserts the status and the winning rule, plus the suppression chain and error floor where the
 * case is about them. Rules named `*_throws` (and one applies_when filter) are replaced through
 * the test-only injection path by functions that throw when fired, because the language cannot.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decide, type Decision, type LoadedModule, type Status } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, loadTestBundle } from '../../../test/support/runtime.js';

const THROWING = `
const throwsWhenFired = (id) => (ctx) => {
  if (ctx.fire.includes(id)) throw new Error(id + " failed");
  return { matched: false };
};
for (const id of ["t2_throws", "t3_throws", "v_t2_throws"]) m._RULE_FUNCTIONS[id] = throwsWhenFired(id);
m._RULE_APPLIES_WHEN.t3_green = (ctx) => {
  if (ctx.fire.includes("t3_green_filter_throws")) throw new TypeError("filter failed");
  return !ctx.skip.includes("t3_green");
};
// A module built elsewhere that tries to suppress a t1 rule: the runtime must refuse to.
m._RULE_SUPPRESSES.t2_waiver = ["t2_red", "t3_yellow", "t1_red"];
`;

interface Case {
  readonly name: string;
  readonly action?: 'winner_takes_all' | 'vote_of_two' | 'weighted';
  readonly fire: readonly string[];
  readonly skip?: readonly string[];
  readonly status: Status;
  readonly winner: string | null;
  readonly basis?: string;
  readonly suppressed?: readonly (readonly [string, readonly string[]])[];
  readonly errored?: readonly string[];
  readonly floor?: boolean;
}

const CASES: readonly Case[] = [
  // winner_takes_all: nothing matched, single matches, every outcome can win.
  { name: 'nothing matched is an affirmative GREEN', fire: [], status: 'GREEN', winner: null, basis: 'NO_RULE_MATCH' },
  { name: 'a matched GREEN rule is an affirmative GREEN', fire: ['t2_green'], status: 'GREEN', winner: 't2_green', basis: 'RULE_MATCH' },
  { name: 'a lone GREEN-SKIP rule', fire: ['t3_skip'], status: 'GREEN-SKIP', winner: 't3_skip' },
  { name: 'a lone YELLOW rule', fire: ['t2_yellow'], status: 'YELLOW', winner: 't2_yellow' },
  { name: 'a lone t3 RED rule', fire: ['t3_red'], status: 'RED', winner: 't3_red' },
  // The t1 hard floor.
  { name: 't1 GREEN beats a lower-tier RED', fire: ['t1_green', 't2_red'], status: 'GREEN', winner: 't1_green' },
  { name: 't1 GREEN-SKIP beats a t3 RED', fire: ['t1_skip', 't3_red'], status: 'GREEN-SKIP', winner: 't1_skip' },
  { name: 't1 YELLOW beats RED in both lower tiers', fire: ['t1_yellow', 't2_red', 't3_red'], status: 'YELLOW', winner: 't1_yellow' },
  // Intra-tier: most restrictive wins.
  { name: 't1: RED over GREEN', fire: ['t1_red', 't1_green'], status: 'RED', winner: 't1_red' },
  { name: 't1: GREEN-SKIP over GREEN', fire: ['t1_green', 't1_skip'], status: 'GREEN-SKIP', winner: 't1_skip' },
  { name: 't1: YELLOW over GREEN-SKIP and GREEN', fire: ['t1_yellow', 't1_skip', 't1_green'], status: 'YELLOW', winner: 't1_yellow' },
  { name: 't2: RED over every other outcome', fire: ['t2_red', 't2_yellow', 't2_skip', 't2_green'], status: 'RED', winner: 't2_red' },
  { name: 't2: YELLOW over GREEN-SKIP', fire: ['t2_yellow', 't2_skip'], status: 'YELLOW', winner: 't2_yellow' },
  { name: 't2: GREEN-SKIP over GREEN', fire: ['t2_skip', 't2_green'], status: 'GREEN-SKIP', winner: 't2_skip' },
  { name: 't3: YELLOW over GREEN-SKIP and GREEN', fire: ['t3_yellow', 't3_skip', 't3_green'], status: 'YELLOW', winner: 't3_yellow' },
  { name: 't3: GREEN-SKIP over GREEN', fire: ['t3_skip', 't3_green'], status: 'GREEN-SKIP', winner: 't3_skip' },
  { name: 't3: RED over GREEN', fire: ['t3_red', 't3_green'], status: 'RED', winner: 't3_red' },
  // The highest tier wins, even when a lower tier is more restrictive.
  { name: 't2 GREEN beats t3 RED', fire: ['t2_green', 't3_red'], status: 'GREEN', winner: 't2_green' },
  { name: 't2 GREEN-SKIP beats t3 YELLOW', fire: ['t2_skip', 't3_yellow'], status: 'GREEN-SKIP', winner: 't2_skip' },
  // Suppression.
  { name: 'a waiver suppresses a RED of its tier', fire: ['t2_waiver', 't2_red'], status: 'GREEN', winner: 't2_waiver', suppressed: [['t2_waiver', ['t2_red']]] },
  { name: 'a suppressed RED leaves the other matches to decide', fire: ['t2_waiver', 't2_red', 't2_yellow'], status: 'YELLOW', winner: 't2_yellow', suppressed: [['t2_waiver', ['t2_red']]] },
  { name: 'suppression of a lower-tier rule is recorded', fire: ['t2_waiver', 't3_yellow'], status: 'GREEN', winner: 't2_waiver', suppressed: [['t2_waiver', ['t3_yellow']]] },
  { name: 'suppressing rules that did not match records nothing', fire: ['t2_waiver'], status: 'GREEN', winner: 't2_waiver', suppressed: [] },
  { name: 'a t3 rule may suppress a t2 rule; the t3 tier then decides', fire: ['t3_waiver', 't2_yellow', 't3_red'], status: 'RED', winner: 't3_red', suppressed: [['t3_waiver', ['t2_yellow']]] },
  { name: 'a t3 waiver wins once the t2 rule is suppressed', fire: ['t3_waiver', 't2_yellow'], status: 'GREEN-SKIP', winner: 't3_waiver', suppressed: [['t3_waiver', ['t2_yellow']]] },
  { name: 'a t1 rule is never suppressed, even when a module asks', fire: ['t2_waiver', 't1_red'], status: 'RED', winner: 't1_red', suppressed: [] },
  { name: 'suppression below a t1 winner is still recorded', fire: ['t2_waiver', 't2_red', 't1_green'], status: 'GREEN', winner: 't1_green', suppressed: [['t2_waiver', ['t2_red']]] },
  // applies_when.
  { name: 'a rule that does not apply never matches', fire: ['t2_red'], skip: ['t2_red'], status: 'GREEN', winner: null, basis: 'NO_RULE_MATCH' },
  { name: 'a t1 rule that does not apply leaves the decision to t2', fire: ['t1_red', 't2_green'], skip: ['t1_red'], status: 'GREEN', winner: 't2_green' },
  { name: 'a rule that does not apply suppresses nothing', fire: ['t2_waiver', 't2_red'], skip: ['t2_waiver'], status: 'RED', winner: 't2_red', suppressed: [] },
  // The error floor.
  { name: 'an errored predicate raises nothing-matched to YELLOW', fire: ['t2_throws'], status: 'YELLOW', winner: null, errored: ['t2_throws'], floor: true },
  { name: 'an errored t3 predicate raises a t2 GREEN to YELLOW', fire: ['t2_green', 't3_throws'], status: 'YELLOW', winner: 't2_green', errored: ['t3_throws'], floor: true },
  { name: 'the error floor never lowers a RED', fire: ['t2_red', 't2_throws'], status: 'RED', winner: 't2_red', errored: ['t2_throws'], floor: false },
  { name: 'the error floor applies over a t1 GREEN', fire: ['t1_green', 't3_throws'], status: 'YELLOW', winner: 't1_green', errored: ['t3_throws'], floor: true },
  { name: 'two errors are two entries; a YELLOW stays YELLOW', fire: ['t2_throws', 't3_throws', 't3_yellow'], status: 'YELLOW', winner: 't3_yellow', errored: ['t2_throws', 't3_throws'], floor: false },
  { name: 'a throwing applies_when is an errored predicate', fire: ['t3_skip', 't3_green_filter_throws'], status: 'YELLOW', winner: 't3_skip', errored: ['t3_green'], floor: true },
  { name: 'the error floor raises a t1 GREEN-SKIP', fire: ['t1_skip', 't2_throws'], status: 'YELLOW', winner: 't1_skip', errored: ['t2_throws'], floor: true },
  // vote_of_n 2.
  { name: 'vote: nothing matched', action: 'vote_of_two', fire: [], status: 'GREEN', winner: null, basis: 'NO_RULE_MATCH' },
  { name: 'vote: one RED vote below the quorum holds YELLOW, never GREEN', action: 'vote_of_two', fire: ['v_t2_red'], status: 'YELLOW', winner: 'v_t2_red', basis: 'NO_QUORUM' },
  { name: 'vote: one GREEN vote below the quorum is GREEN', action: 'vote_of_two', fire: ['v_t2_green'], status: 'GREEN', winner: null, basis: 'NO_QUORUM' },
  { name: 'vote: two RED votes across tiers bind RED', action: 'vote_of_two', fire: ['v_t2_red', 'v_t3_red'], status: 'RED', winner: 'v_t2_red', basis: 'RULE_MATCH' },
  { name: 'vote: a RED vote counts toward YELLOW', action: 'vote_of_two', fire: ['v_t2_red', 'v_t3_yellow'], status: 'YELLOW', winner: 'v_t3_yellow' },
  { name: 'vote: a YELLOW vote holds YELLOW although YELLOW and GREEN reach GREEN', action: 'vote_of_two', fire: ['v_t2_yellow', 'v_t2_green'], status: 'YELLOW', winner: 'v_t2_yellow', basis: 'NO_QUORUM' },
  { name: 'vote: a RED vote holds YELLOW although RED and GREEN-SKIP reach GREEN-SKIP', action: 'vote_of_two', fire: ['v_t2_skip', 'v_t3_red'], status: 'YELLOW', winner: 'v_t3_red', basis: 'NO_QUORUM' },
  { name: 'vote: the t1 hard floor holds against a RED quorum', action: 'vote_of_two', fire: ['v_t1_green', 'v_t2_red', 'v_t3_red'], status: 'GREEN', winner: 'v_t1_green', basis: 'T1_HARD_FLOOR' },
  { name: 'vote: a lone t1 RED needs no quorum', action: 'vote_of_two', fire: ['v_t1_red'], status: 'RED', winner: 'v_t1_red', basis: 'T1_HARD_FLOOR' },
  { name: 'vote: the error floor applies after a missed quorum', action: 'vote_of_two', fire: ['v_t2_throws', 'v_t2_green'], status: 'YELLOW', winner: null, basis: 'NO_QUORUM', errored: ['v_t2_throws'], floor: true },
  { name: 'vote: an error beside a RED below the quorum stays YELLOW', action: 'vote_of_two', fire: ['v_t2_throws', 'v_t2_red'], status: 'YELLOW', winner: 'v_t2_red', basis: 'NO_QUORUM', errored: ['v_t2_throws'], floor: false },
  { name: 'vote: two GREEN votes are an affirmative GREEN', action: 'vote_of_two', fire: ['v_t2_green', 'v_t3_green'], status: 'GREEN', winner: 'v_t2_green', basis: 'RULE_MATCH' },
  // weighted_sum_threshold 1.0.
  { name: 'weighted: 0.5 of RED below the threshold holds YELLOW', action: 'weighted', fire: ['w_red_half'], status: 'YELLOW', winner: 'w_red_half', basis: 'BELOW_THRESHOLD' },
  { name: 'weighted: 0.5 + 0.6 of RED binds RED', action: 'weighted', fire: ['w_red_half', 'w_red_six_tenths'], status: 'RED', winner: 'w_red_half' },
  { name: 'weighted: RED 0.5 + YELLOW 0.2 below the threshold hold YELLOW', action: 'weighted', fire: ['w_red_half', 'w_yellow_light'], status: 'YELLOW', basis: 'BELOW_THRESHOLD', winner: 'w_red_half' },
  { name: 'weighted: 0.6 + 0.2 + 0.4 reach 1 at GREEN-SKIP, but RED and YELLOW votes hold YELLOW', action: 'weighted', fire: ['w_red_six_tenths', 'w_yellow_light', 'w_skip_light'], status: 'YELLOW', basis: 'BELOW_THRESHOLD', winner: 'w_red_six_tenths' },
  { name: 'weighted: 0.4 GREEN-SKIP alone falls short to GREEN', action: 'weighted', fire: ['w_skip_light'], status: 'GREEN', winner: null, basis: 'BELOW_THRESHOLD' },
  { name: 'weighted: a full-weight YELLOW binds alone', action: 'weighted', fire: ['w_yellow_full'], status: 'YELLOW', winner: 'w_yellow_full' },
  { name: 'weighted: a full-weight GREEN is an affirmative GREEN', action: 'weighted', fire: ['w_green_full'], status: 'GREEN', winner: 'w_green_full', basis: 'RULE_MATCH' },
  { name: 'weighted: the t1 hard floor holds against a RED majority', action: 'weighted', fire: ['w_t1_skip', 'w_yellow_full', 'w_red_half', 'w_red_six_tenths'], status: 'GREEN-SKIP', winner: 'w_t1_skip', basis: 'T1_HARD_FLOOR' },
  { name: 'weighted: stricter votes below the threshold hold YELLOW over a GREEN total', action: 'weighted', fire: ['w_red_half', 'w_yellow_light', 'w_green_full'], status: 'YELLOW', basis: 'BELOW_THRESHOLD', winner: 'w_red_half' },
];

let module: LoadedModule;

beforeAll(async () => {
  const built = asTestBundle(await buildFixture('packages/runtime/test/worlds/conformance'));
  module = await loadTestBundle(injectIntoBundle(built, THROWING));
});
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => module?.evaluator.dispose());

async function run(c: Case): Promise<Decision> {
  const result = await decide(module, { action: c.action ?? 'winner_takes_all', context: { fire: c.fire, skip: c.skip ?? [] } });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

describe('aggregation conformance', () => {
  test('the table has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const decision = await run(c);
    const { aggregation_outcome: outcome, suppression_chain, errored_predicates, matched_rules } = decision.decision_metadata;
    expect(decision.status).toBe(c.status);
    expect(outcome.winning_rule).toBe(c.winner);
    if (c.basis !== undefined) expect(outcome.basis).toBe(c.basis);
    if (c.suppressed !== undefined) expect(suppression_chain.map((link) => [link.rule_id, link.suppressed])).toEqual(c.suppressed);
    expect(errored_predicates.map((e) => e.rule_id)).toEqual(c.errored ?? []);
    if (c.floor !== undefined) expect(outcome.error_floor_applied).toBe(c.floor);
    // Every fired rule that applies and does not throw is reported as matched.
    const expectedMatches = c.fire.filter((id) => !id.includes('throws') && !(c.skip ?? []).includes(id));
    expect([...matched_rules].sort()).toEqual([...expectedMatches].sort());
    expect(decision.work_frame.forbidden_actions.includes(c.action ?? 'winner_takes_all')).toBe(c.status !== 'GREEN');
  });
});
