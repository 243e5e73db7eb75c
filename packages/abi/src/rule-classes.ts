/**
 * How a world classifies its rules (docs/spec/adjudication.md §3, §4): the status a matched
 * rule contributes, the tier that orders matched rules, and how an action aggregates them. The
 * same words in the checked model, the generated module, the manifest and a decision.
 */
import { checkInteger, checkNumber, mapOf, oneOf, optional, required, shape, type Check } from './checks.js';

/** The status a rule contributes when it matches, and a decision's status. */
export type RuleOutcome = (typeof RULE_OUTCOMES)[number];
export const RULE_OUTCOMES = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'] as const;

/** Orders matched rules; a matched t1 rule is the hard floor. */
export type SeverityTier = (typeof SEVERITY_TIERS)[number];
export const SEVERITY_TIERS = ['t1', 't2', 't3'] as const;

export type AggregationMode = (typeof AGGREGATION_MODES)[number];
export const AGGREGATION_MODES = ['winner_takes_all', 'vote_of_n', 'weighted_sum_threshold'] as const;

export const checkRuleOutcome: Check<RuleOutcome> = oneOf(RULE_OUTCOMES);
export const checkSeverityTier: Check<SeverityTier> = oneOf(SEVERITY_TIERS);
export const checkAggregationMode: Check<AggregationMode> = oneOf(AGGREGATION_MODES);

/** How an action aggregates its matched rules, as the manifest and the module's `_ACTIONS` write it. */
export interface AggregationSpec {
  readonly mode: AggregationMode;
  /** vote_of_n: how many matched rules must concur. */
  readonly n?: number;
  /** weighted_sum_threshold: the weight a status needs. */
  readonly threshold?: number;
  /** Vote weight per rule (weighted_sum_threshold, or when any rule declares a weight). */
  readonly weights?: { readonly [rule: string]: number };
}

export const checkAggregationSpec: Check<AggregationSpec> = shape((object, path, problems) => {
  required(object, 'mode', path, problems, checkAggregationMode);
  // The parameter a mode needs is required with it.
  if (object['mode'] === 'vote_of_n') required(object, 'n', path, problems, checkInteger(1));
  if (object['mode'] === 'weighted_sum_threshold') required(object, 'threshold', path, problems, checkNumber);
  optional(object, 'weights', path, problems, mapOf(checkNumber));
});
