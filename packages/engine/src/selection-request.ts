/**
 * What a client asks the engine (docs/spec/selection.md §3.1, the part the deterministic cycle needs):
 * the scenario, its signals in wire form, the candidate actions and the platform conditions
 * execution risk weighs.
 */
import type { ExecutionMode } from '@adec/abi';

export interface SelectionRequest {
  readonly scenario: string;
  /** Wire form (timestamps as RFC 3339 text, durations as `"18h"` or ms); absent ones take their default. */
  readonly signals?: Readonly<Record<string, unknown>>;
  readonly actions: readonly CandidateAction[];
  /** Execution-risk conditions present now (e.g. `offline_mode`); none by default. */
  readonly conditions?: readonly string[];
  /** The `execution_mode_override` of docs/spec/selection.md §5: above the scenario's default mode. */
  readonly execution_mode_override?: ExecutionMode | null;
}

/** The module's scenarios name their default mode with the same words (@adec/abi). */
export type { ExecutionMode };

/** A candidate: its id, its action type, and that type's fields. */
export interface CandidateAction {
  readonly action_id: string;
  readonly type: string;
  readonly [field: string]: unknown;
}

/** The request the selection extension receives: validated, complete and in module form. */
export interface NormalizedRequest {
  readonly scenario: string;
  /** Every signal of the scenario, timestamps and durations in ms. */
  readonly signals: Readonly<Record<string, unknown>>;
  readonly defaults_applied: readonly string[];
  /** Signals the request did not supply, taken from the user's short-term memory. */
  readonly memory_applied: readonly string[];
  readonly actions: readonly CandidateAction[];
  /** Without duplicates, in the order given. */
  readonly conditions: readonly string[];
  /** The request's override, else the scenario's default mode. */
  readonly execution_mode: ExecutionMode;
}
