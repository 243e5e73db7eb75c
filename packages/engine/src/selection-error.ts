/**
 * Why a selection could not be made. These are values, never thrown: a request a client got
 * wrong, a scenario the module does not have, or a sandbox that did not answer.
 */

export type SelectionErrorCode =
  /** The module has no scenario of that name. */
  | 'UNKNOWN_SCENARIO'
  /** Signals, actions or conditions do not fit the scenario; `problems` names each. */
  | 'INVALID_REQUEST'
  /** The module was not loaded with the selection extension, or describes a scenario the engine cannot read. */
  | 'MODULE_UNSUPPORTED'
  /** The sandbox call failed as a whole: time limit, memory, a crashed worker. */
  | 'SANDBOX_FAILURE';

export interface RequestProblem {
  /** JSON path in the request, e.g. `signals.urgency`, `actions[2].type`. */
  readonly path: string;
  readonly message: string;
}

export interface SelectionError {
  readonly code: SelectionErrorCode;
  readonly message: string;
  /** Every problem of an INVALID_REQUEST, in request order; empty otherwise. */
  readonly problems: readonly RequestProblem[];
}

export function selectionError(code: SelectionErrorCode, message: string, problems: readonly RequestProblem[] = []): SelectionError {
  return { code, message, problems };
}
