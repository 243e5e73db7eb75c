/**
 * The body of `POST /v1/select` (seed 000 stage 1, the service's part): the routing key, the
 * scenario, the user whose short-term memory applies, and the selection request itself
 * (signals, candidate actions, conditions, mode override), which the engine checks against the
 * scenario with JSON paths of its own. As for decide, the org comes from the token.
 */
import type { CycleRequest, ExecutionMode } from '@adec/engine';
import { apiError, type ApiError, type ErrorDetail } from './api-error.js';
import { idProblem, kindOf, optionalString, pathKey, segment, segmentProblem } from './request-fields.js';

export interface SelectRequest {
  readonly domain: string;
  readonly worldModelVersion: string;
  /** What the engine runs: scenario, signals, actions, conditions, mode override, request id. */
  readonly cycle: CycleRequest;
  readonly requestId: string | null;
  /** Whose short-term memory fills unsupplied signals; null: none. */
  readonly userId: string | null;
  readonly orgId: string | null;
}

const FIELDS = new Set(['domain', 'world_model_version', 'scenario', 'signals', 'actions', 'conditions', 'execution_mode_override', 'request_id', 'user_id', 'org_id']);

export function readSelectRequest(body: unknown): { readonly ok: true; readonly request: SelectRequest } | { readonly ok: false; readonly error: ApiError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', 'the request body must be a JSON object', [{ path: '$', message: `expected an object, found ${kindOf(body)}` }]) };
  }
  const fields = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const domain = segment(fields, 'domain', details);
  const worldModelVersion = segment(fields, 'world_model_version', details);
  const scenario = segment(fields, 'scenario', details);
  const requestId = optionalString(fields, 'request_id', details, idProblem);
  const userId = optionalString(fields, 'user_id', details, idProblem);
  const orgId = optionalString(fields, 'org_id', details, segmentProblem);
  for (const name of Object.keys(fields)) {
    if (!FIELDS.has(name)) details.push({ path: `$${pathKey(name)}`, message: `is not a field of a select request (${[...FIELDS].join(', ')})` });
  }
  if (details.length > 0) return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the select request is invalid: ${details.length === 1 ? `${details[0]!.path} ${details[0]!.message}` : `${details.length} problems`}`, details) };
  const cycle: CycleRequest = {
    scenario,
    actions: fields['actions'] as CycleRequest['actions'],
    ...(fields['signals'] !== undefined && { signals: fields['signals'] as CycleRequest['signals'] }),
    ...(fields['conditions'] !== undefined && { conditions: fields['conditions'] as CycleRequest['conditions'] }),
    ...(fields['execution_mode_override'] !== undefined && { execution_mode_override: fields['execution_mode_override'] as ExecutionMode | null }),
    request_id: requestId,
  };
  return { ok: true, request: { domain, worldModelVersion, cycle, requestId, userId, orgId } };
}
