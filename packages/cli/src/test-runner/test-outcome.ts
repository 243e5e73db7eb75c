/**
 * The result of one golden test (`test "…" { … }` in a world): what it expected, what the
 * module answered, and the decision or selection behind the answer, for the failure report.
 */
import type { Decision, Status } from '@adec/runtime';
import type { Selection, SelectionError, SelectionStatus } from '@adec/engine';

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
  readonly expected: { readonly status: Status; readonly rule: string | null };
  /** Null when the runtime refused the request (`error`). */
  readonly actual: { readonly status: Status; readonly rule: string | null } | null;
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
}

export interface SelectionVerdict {
  readonly status: SelectionStatus;
  readonly selected_action: string | null;
}
