/**
 * Aggregation (docs/spec/adjudication.md §4; ARCHITECTURE.md "Composition root", step 5): the matched,
 * unsuppressed rules → one status.
 *
 * Every mode starts with the t1 hard floor: if any t1 rule matched, the t1 rules decide alone
 * (most restrictive among them) and no other tier can change that.
 *
 * * `winner_takes_all` (default): the highest tier among matched rules wins; ties inside it go
 *   to the most restrictive outcome (RED > YELLOW > GREEN-SKIP > GREEN); nothing matched →
 *   GREEN (`NO_RULE_MATCH`).
 * * `vote_of_n n`: over t2 and t3, a status binds when at least `n` matched rules call for it
 *   or for something more restrictive; the most restrictive such status wins. Counting "this or
 *   more restrictive" means two RED votes and one YELLOW vote under `vote_of_n 3` give YELLOW.
 * * `weighted_sum_threshold t`: the same, with each matched rule contributing its `weight`
 *   (default 1): a status binds when the weights calling for it or for something more
 *   restrictive sum to at least `t`.
 *
 * The voting modes never fail open (the dissent floor): while any voting rule called for
 * YELLOW or RED, the decision is at least YELLOW, whatever did or did not reach the quorum. A
 * RED below its quorum becomes YELLOW, never less (basis `NO_QUORUM` / `BELOW_THRESHOLD`, won by
 * the first rule in evaluation order that called for YELLOW or stricter). Without the floor, one
 * RED vote under `vote_of_n 2` was GREEN: a block that a quorum rule let through unreviewed.
 * Only votes that are all GREEN or GREEN-SKIP can fall short to GREEN.
 *
 * So in every mode: the t1 floor holds, and the rules a mode weighs together (the t1 rules; else
 * winner_takes_all's highest matched tier, or every t2/t3 vote) never yield GREEN or GREEN-SKIP
 * while one of them emitted YELLOW or RED. A higher tier outranking a lower one is docs/spec/adjudication.md §4's
 * authoring model (a t2 GREEN exception over a t3 RED), not a vote.
 *
 * The winning rule is the first matched rule in evaluation order (tier, then declaration)
 * whose outcome is the bound status. The error floor (decide.ts) composes on top.
 */
import type { AggregationMode } from '@adec/abi';
import type { Aggregation, RuleSpec } from '../module/module-metadata.js';
import { restrictiveness, STATUSES, type Status, type Tier } from './status.js';

export type AggregationBasis = 'RULE_MATCH' | 'NO_RULE_MATCH' | 'T1_HARD_FLOOR' | 'NO_QUORUM' | 'BELOW_THRESHOLD';

export interface AggregationOutcome {
  readonly mode: AggregationMode;
  readonly status: Status;
  readonly winning_rule: string | null;
  readonly tier: Tier | null;
  readonly basis: AggregationBasis;
}

export function aggregate(aggregation: Aggregation, matched: readonly RuleSpec[]): AggregationOutcome {
  const { mode } = aggregation;
  const t1 = matched.filter((rule) => rule.severity === 't1');
  if (t1.length > 0) return bind(mode, mostRestrictiveOf(t1), t1, mode === 'winner_takes_all' ? 'RULE_MATCH' : 'T1_HARD_FLOOR');
  if (matched.length === 0) return { mode, status: 'GREEN', winning_rule: null, tier: null, basis: 'NO_RULE_MATCH' };
  switch (mode) {
    case 'winner_takes_all': {
      const tier = matched[0]!.severity;
      const inTier = matched.filter((rule) => rule.severity === tier);
      return bind(mode, mostRestrictiveOf(inTier), inTier, 'RULE_MATCH');
    }
    case 'vote_of_n':
      return byCumulativeWeight(mode, matched, () => 1, aggregation.n ?? 1, 'NO_QUORUM');
    case 'weighted_sum_threshold':
      return byCumulativeWeight(mode, matched, (rule) => rule.weight, aggregation.threshold ?? 1, 'BELOW_THRESHOLD');
  }
}

function mostRestrictiveOf(rules: readonly RuleSpec[]): Status {
  let status: Status = 'GREEN';
  for (const rule of rules) if (restrictiveness(rule.outcome) > restrictiveness(status)) status = rule.outcome;
  return status;
}

function bind(mode: AggregationMode, status: Status, candidates: readonly RuleSpec[], basis: AggregationBasis): AggregationOutcome {
  const winner = candidates.find((rule) => rule.outcome === status)!;
  return { mode, status, winning_rule: winner.id, tier: winner.severity, basis };
}

const MOST_RESTRICTIVE_FIRST = [...STATUSES].reverse();

function byCumulativeWeight(
  mode: AggregationMode,
  matched: readonly RuleSpec[],
  weightOf: (rule: RuleSpec) => number,
  needed: number,
  shortfall: AggregationBasis,
): AggregationOutcome {
  // From the most restrictive status down: the first whose cumulative weight reaches `needed`.
  let weight = 0;
  let bound: Status | undefined;
  for (const status of MOST_RESTRICTIVE_FIRST) {
    for (const rule of matched) if (rule.outcome === status) weight += weightOf(rule);
    if (weight >= needed && matched.some((rule) => rule.outcome === status)) {
      bound = status;
      break;
    }
  }
  const dissent = matched.find((rule) => restrictiveness(rule.outcome) >= restrictiveness('YELLOW'));
  if (dissent !== undefined && (bound === undefined || restrictiveness(bound) < restrictiveness('YELLOW'))) {
    return { mode, status: 'YELLOW', winning_rule: dissent.id, tier: dissent.severity, basis: shortfall };
  }
  if (bound !== undefined) return bind(mode, bound, matched, 'RULE_MATCH');
  return { mode, status: 'GREEN', winning_rule: null, tier: null, basis: shortfall };
}
