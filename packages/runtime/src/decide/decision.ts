/**
 * The adjudication response (docs/spec/adjudication.md §5, §5.2): `{ status, work_frame,
 * decision_metadata }`, in the snake_case wire form it is serialized and audited in.
 */
import type { DecisionBasis as RecordedBasis } from '@adec/abi';
import type { BindingProblem } from '../context/context-binder.js';
import type { IsolationMode, IsolationReason } from '../load/isolation-choice.js';
import type { FailureKind } from '../sandbox/evaluate-action.js';
import type { AggregationOutcome } from './aggregate.js';
import type { Status, Tier } from './status.js';
import type { SuppressionLink } from './suppress.js';
import type { WorkFrame } from './work-frame.js';

export interface Decision {
  readonly status: Status;
  readonly work_frame: WorkFrame;
  readonly decision_metadata: DecisionMetadata;
}

export interface MatchedRuleOutcome {
  readonly rule_id: string;
  readonly outcome: Status;
  readonly severity: Tier;
  readonly reason: string | null;
  /** The matched rule that removed this one from the matched set, if any. */
  readonly suppressed_by: string | null;
}

export type PredicateResult = 'matched' | 'unmatched' | 'not_applicable' | 'errored';

export interface PredicateTrace {
  readonly rule_id: string;
  readonly result: PredicateResult;
  /**
   * The context attributes the rule reads, as its predicate saw them: timestamps in ms since the
   * epoch, durations as ISO 8601 durations (`P30D`; in ms for bundles built before the compiler listed their durations).
   */
  readonly inputs: Readonly<Record<string, unknown>>;
}

export interface ErroredPredicate {
  readonly rule_id: string;
  /**
   * exception: the predicate threw; timeout: it exceeded its limit; memory: it exhausted the
   * isolate's heap; crash: its sandbox process died under it; not_run: the host did not evaluate
   * the action at all (the basis says why).
   */
  readonly kind: FailureKind | 'not_run';
  /** Which part of the rule failed; null when the rule as a whole exceeded a limit. */
  readonly phase: 'applies_when' | 'when' | null;
  readonly message: string;
}

export interface ErroredDerivation {
  readonly attribute: string;
  readonly kind: FailureKind;
  readonly message: string;
}

/**
 * How the status was reached: one of @adec/abi's `DECISION_BASES`, which worlds' tests name.
 * `REQUEST_LIMIT` is no longer decided (a request over a limit is a `REQUEST_TOO_LARGE`
 * refusal, decide.ts): it remains for decisions recorded before, which replay as recorded
 * (recorded-faults.ts). A basis the runtime would decide that is not in the list does not compile.
 */
export type DecisionBasis = RecordedBasis;

export interface DecisionMetadata {
  /** Every rule whose predicate matched, suppressed or not, in evaluation order. */
  readonly matched_rules: readonly string[];
  readonly matched_rule_outcomes: readonly MatchedRuleOutcome[];
  readonly suppression_chain: readonly SuppressionLink[];
  readonly aggregation_outcome: Omit<AggregationOutcome, 'basis'> & {
    readonly basis: DecisionBasis;
    /** True when an errored predicate or derivation raised the status to YELLOW. */
    readonly error_floor_applied: boolean;
  };
  readonly predicate_traces: readonly PredicateTrace[];
  readonly errored_predicates: readonly ErroredPredicate[];
  readonly errored_derivations: readonly ErroredDerivation[];
  /** Why the supplied context was refused (then no predicate ran). */
  readonly context_errors: readonly BindingProblem[];
  readonly request_id: string;
  readonly request_time: string;
  readonly module: ModuleReference;
}

export interface ModuleReference {
  readonly org: string;
  readonly domain: string;
  readonly world: string;
  readonly version: string;
  readonly action: string;
  readonly abi_version: 1 | 2;
  readonly module_hash: string;
  /**
   * Where the module's predicates ran and why (load/isolation-choice.ts). A fact of the host, not
   * of the decision: a replay elsewhere may run it elsewhere, and compares without it.
   */
  readonly isolation: { readonly mode: IsolationMode; readonly reason: IsolationReason };
}
