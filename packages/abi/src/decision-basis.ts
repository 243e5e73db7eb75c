/**
 * How a decision's status was reached (`decision_metadata.aggregation_outcome.basis`,
 * docs/spec/adjudication.md §4, §5.2): what the runtime records, and the reason codes a world's
 * test may expect with `expect reason CODE`.
 */
export type DecisionBasis = (typeof DECISION_BASES)[number];
export const DECISION_BASES = [
  'RULE_MATCH',
  'T1_HARD_FLOOR',
  'NO_RULE_MATCH',
  'NO_QUORUM',
  'BELOW_THRESHOLD',
  'CONTEXT_INVALID',
  // No longer decided (a request over a limit is refused); kept for decisions recorded before.
  'REQUEST_LIMIT',
  'OVERLOADED',
  'CANCELLED',
  'DEADLINE_EXCEEDED',
  'DECIDE_FAULT',
] as const;
