/**
 * The result of one golden test (`test "…" { … }` in a world): what it expected, what the
 * module answered, and the decision or selection behind the answer, for the failure report.
 */
import type { Decision } from '@adec/runtime';
import type { DecisionFacts, Expectation } from './decision-expectations.js';
import type { Selection, SelectionError, SelectionStatus } from '@adec/engine';
import type { RenderedTemplate, SkillFacts, SkillMismatch } from './skill-expectations.js';

export type TestOutcome = AdjudicationOutcome | SelectionOutcome;

interface OutcomeBase {
  readonly name: string;
  /** Where the test is declared, as diagnostics print paths. */
  readonly file: string;
  readonly line: number;
  readonly passed: boolean;
}

export interface AdjudicationOutcome extends OutcomeBase {
  readonly kind: 'adjudication';
  readonly action: string;
  /** `rule` is null when the test does not name one (`expect RED` without `by`). */
  readonly expected: DecisionFacts;
  /** The same facts of the decision; null when the runtime refused the request (`error`). */
  readonly actual: DecisionFacts | null;
  /** The expectations that did not hold (all of them when there is no decision). */
  readonly failed: readonly Expectation[];
  readonly decision: Decision | null;
  readonly error: string | null;
}

export interface SelectionOutcome extends OutcomeBase {
  readonly kind: 'selection';
  readonly scenario: string;
  readonly expected: SelectionVerdict;
  /** Null when the engine returned an error value (`error`). */
  readonly actual: SelectionVerdict | null;
  readonly selection: Selection | null;
  readonly error: SelectionError | null;
  /** The selected action's skill as the cycle ran it; null when nothing was selected or its type names no skill. */
  readonly skill: SkillFacts | null;
  /** The `expect skill …` expectations that did not hold (compared only once the expected action was selected). */
  readonly skillMismatches: readonly SkillMismatch[];
  /** The skill templates that rendered, for coverage. */
  readonly rendered: readonly RenderedTemplate[];
}

export interface SelectionVerdict {
  readonly status: SelectionStatus;
  readonly selected_action: string | null;
}
