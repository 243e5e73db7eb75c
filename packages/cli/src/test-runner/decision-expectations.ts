/**
 * What an adjudication test expects of a decision, and what the decision gave for exactly the
 * same things: the status and winning rule always; the reason, the basis, work_frame fields and
 * the missing evidence when the test expects them. The comparison names every expectation that
 * did not hold, so a failure report can show each as expected against actual.
 */
import type { CheckedTest, DecisionBasisCode } from '@adec/compiler';
import type { Decision, Status } from '@adec/runtime';

type AdjudicationTest = Extract<CheckedTest, { kind: 'adjudication' }>;

/** A decision as a test sees it. Keys other than `status` and `rule` appear only when the test expects them. */
export interface DecisionFacts {
  readonly status: Status;
  /** The winning rule; null when the test names none (`expect RED`) or no rule won. */
  readonly rule: string | null;
  /** The winning rule's reason; null when it has none or no rule won. */
  readonly reason?: string | null;
  /** Typed with the compiler's reason codes, so a basis the runtime adds and the checker does not know fails to compile here. */
  readonly basis?: DecisionBasisCode;
  readonly work_frame?: Readonly<Record<string, unknown>>;
  readonly missing_evidence?: readonly string[];
}

export type Expectation = 'status' | 'reason' | 'basis' | 'work_frame' | 'missing_evidence';

export interface Comparison {
  readonly expected: DecisionFacts;
  readonly actual: DecisionFacts;
  /** The expectations that did not hold, in a fixed order. */
  readonly failed: readonly Expectation[];
}

export function expectedFacts(test: AdjudicationTest): DecisionFacts {
  return {
    status: test.expectStatus,
    rule: test.expectRule ?? null,
    ...(test.expectReason !== undefined && { reason: test.expectReason }),
    ...(test.expectBasis !== undefined && { basis: test.expectBasis }),
    ...(test.expectWorkFrame !== undefined && { work_frame: test.expectWorkFrame }),
    ...(test.expectMissingEvidence !== undefined && { missing_evidence: test.expectMissingEvidence }),
  };
}

export function compareDecision(expected: DecisionFacts, decision: Decision): Comparison {
  const aggregation = decision.decision_metadata.aggregation_outcome;
  const winner = aggregation.winning_rule;
  const frame = decision.work_frame as unknown as Readonly<Record<string, unknown>>;
  const actual: DecisionFacts = {
    status: decision.status,
    rule: winner,
    ...('reason' in expected && { reason: decision.decision_metadata.matched_rule_outcomes.find((m) => m.rule_id === winner)?.reason ?? null }),
    ...('basis' in expected && { basis: aggregation.basis }),
    ...(expected.work_frame !== undefined && { work_frame: Object.fromEntries(Object.keys(expected.work_frame).map((field) => [field, frame[field]])) }),
    ...(expected.missing_evidence !== undefined && { missing_evidence: decision.work_frame.missing_evidence }),
  };
  const failed: Expectation[] = [];
  if (actual.status !== expected.status || (expected.rule !== null && actual.rule !== expected.rule)) failed.push('status');
  if ('reason' in expected && actual.reason !== expected.reason) failed.push('reason');
  if ('basis' in expected && actual.basis !== expected.basis) failed.push('basis');
  if (expected.work_frame !== undefined && differingFields(expected.work_frame, actual.work_frame!).length > 0) failed.push('work_frame');
  if (expected.missing_evidence !== undefined && !sameMembers(expected.missing_evidence, actual.missing_evidence!)) failed.push('missing_evidence');
  return { expected, actual, failed };
}

/** The work_frame fields whose values differ, in the test's order. */
export function differingFields(expected: Readonly<Record<string, unknown>>, actual: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(expected).filter((field) => JSON.stringify(expected[field]) !== JSON.stringify(actual[field]));
}

/** Missing evidence is a set of attributes: the order it is listed in carries no meaning. */
function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((item) => set.has(item));
}
