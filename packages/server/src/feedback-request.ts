/**
 * The body of `POST /v1/feedback`: an execution outcome, shaped after seed 003's Execution
 * Outcome Package (the fields the service keeps), reporting what became of a selected action.
 * `observed_effects` are the signal values the execution changed: they become the user's
 * short-term memory for the decision's scenario.
 */
import { apiError, type ApiError, type ErrorDetail } from './api-error.js';
import { idProblem, kindOf, optionalString, pathKey } from './request-fields.js';

export type OutcomeStatus = 'success' | 'failure' | 'partial' | 'aborted';

export interface FeedbackRequest {
  readonly outcomeId: string;
  readonly decisionId: string;
  readonly status: OutcomeStatus;
  /** The action executed; when given it must be the decision's selected action. */
  readonly actionName: string | null;
  readonly observedEffects: readonly { readonly signal: string; readonly value: unknown }[];
  /** The package as received, for the audit record. */
  readonly body: Readonly<Record<string, unknown>>;
}

const STATUSES: readonly OutcomeStatus[] = ['success', 'failure', 'partial', 'aborted'];
const FIELDS = new Set(['outcome_id', 'decision_id', 'status', 'action_name', 'start_time', 'end_time', 'observed_effects', 'deviations', 'error_diagnostics', 'telemetry']);
const MAX_EFFECTS = 100;

export function readFeedbackRequest(body: unknown): { readonly ok: true; readonly request: FeedbackRequest } | { readonly ok: false; readonly error: ApiError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', 'the request body must be a JSON object', [{ path: '$', message: `expected an object, found ${kindOf(body)}` }]) };
  }
  const fields = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const required = (name: string) => {
    if (fields[name] === undefined || fields[name] === null) details.push({ path: `$.${name}`, message: 'is required' });
  };
  required('outcome_id');
  required('decision_id');
  const outcomeId = optionalString(fields, 'outcome_id', details, idProblem) ?? '';
  const decisionId = optionalString(fields, 'decision_id', details, idProblem) ?? '';
  const status = fields['status'];
  if (!STATUSES.includes(status as OutcomeStatus)) details.push({ path: '$.status', message: `expected one of ${STATUSES.join(', ')}, found ${typeof status === 'string' ? JSON.stringify(status.slice(0, 50)) : kindOf(status)}` });
  const actionName = optionalString(fields, 'action_name', details, () => undefined);
  const effects = readEffects(fields['observed_effects'], details);
  for (const name of Object.keys(fields)) {
    if (!FIELDS.has(name)) details.push({ path: `$${pathKey(name)}`, message: `is not a field of an execution outcome (${[...FIELDS].join(', ')})` });
  }
  if (details.length > 0) return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the execution outcome is invalid: ${details.length === 1 ? `${details[0]!.path} ${details[0]!.message}` : `${details.length} problems`}`, details) };
  return { ok: true, request: { outcomeId, decisionId, status: status as OutcomeStatus, actionName, observedEffects: effects, body: fields } };
}

function readEffects(value: unknown, details: ErrorDetail[]): { signal: string; value: unknown }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    details.push({ path: '$.observed_effects', message: `expected a list of { signal, value }, found ${kindOf(value)}` });
    return [];
  }
  if (value.length > MAX_EFFECTS) {
    details.push({ path: '$.observed_effects', message: `holds ${value.length} effects; at most ${MAX_EFFECTS}` });
    return [];
  }
  const effects: { signal: string; value: unknown }[] = [];
  value.forEach((effect: unknown, i) => {
    const path = `$.observed_effects[${i}]`;
    if (effect === null || typeof effect !== 'object' || Array.isArray(effect)) {
      details.push({ path, message: `expected { "signal": "…", "value": … }, found ${kindOf(effect)}` });
      return;
    }
    const { signal, value: observed } = effect as Record<string, unknown>;
    if (typeof signal !== 'string' || signal === '') details.push({ path: `${path}.signal`, message: `expected a signal name, found ${kindOf(signal)}` });
    else if (observed === undefined) details.push({ path: `${path}.value`, message: 'is required' });
    else effects.push({ signal, value: observed });
  });
  return effects;
}
