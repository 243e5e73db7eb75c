/**
 * @adec/engine — the ADE selection cycle over a loaded module (seed 000 stages 2–4: derive
 * state, guardrails, score and rank with tie-breaks), run inside the module's sandbox.
 * Guarantees to its callers: the same module and request always give the same selection and
 * the same trace; a request or sandbox problem is an error value, never a throw.
 */
export { SELECTION_EXTENSION } from './selection-extension.js';
export { select, DEFAULT_SELECTION_TIME_LIMIT_MS, type SelectResult } from './select.js';
export type { SelectionRequest, CandidateAction } from './selection-request.js';
export type { SelectionError, SelectionErrorCode, RequestProblem } from './selection-error.js';
export type * from './selection-trace.js';
