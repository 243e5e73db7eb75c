/**
 * The body of `POST /v1/decide` (seed 002 phase 1): validated field by field, every problem
 * reported at once with its JSON path. The org is never read from here as an authority: it comes
 * from the caller's token, and a body that names an org may only name the caller's own.
 */
import { apiError, type ApiError, type ErrorDetail } from './api-error.js';
import { idProblem, kindOf, optionalString, pathKey, segment, segmentProblem } from './request-fields.js';

export interface DecideRequest {
  readonly domain: string;
  readonly action: string;
  readonly worldModelVersion: string;
  readonly context: Readonly<Record<string, unknown>>;
  /** The caller's id for this decision: retrying with it is idempotent. */
  readonly requestId: string | null;
  /** The org the caller believes it calls as (checked against the token's). */
  readonly orgId: string | null;
}

const FIELDS = new Set(['domain', 'action', 'world_model_version', 'context', 'request_id', 'org_id']);

export function readDecideRequest(body: unknown): { readonly ok: true; readonly request: DecideRequest } | { readonly ok: false; readonly error: ApiError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', 'the request body must be a JSON object', [{ path: '$', message: `expected an object, found ${kindOf(body)}` }]) };
  }
  const fields = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const domain = segment(fields, 'domain', details);
  const action = segment(fields, 'action', details);
  const worldModelVersion = segment(fields, 'world_model_version', details);
  const context = fields['context'];
  if (context === null || typeof context !== 'object' || Array.isArray(context)) details.push({ path: '$.context', message: `expected an object, found ${kindOf(context)}` });
  const requestId = optionalString(fields, 'request_id', details, idProblem);
  const orgId = optionalString(fields, 'org_id', details, segmentProblem);
  for (const name of Object.keys(fields)) {
    if (!FIELDS.has(name)) details.push({ path: `$${pathKey(name)}`, message: 'is not a field of a decide request (domain, action, world_model_version, context, request_id, org_id)' });
  }
  if (details.length > 0) return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the decide request is invalid: ${details.length === 1 ? `${details[0]!.path} ${details[0]!.message}` : `${details.length} problems`}`, details) };
  return { ok: true, request: { domain, action, worldModelVersion, context: context as Record<string, unknown>, requestId, orgId } };
}
