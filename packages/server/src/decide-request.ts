/**
 * The body of `POST /v1/decide` (seed 002 phase 1): validated field by field, every problem
 * reported at once with its JSON path. The org is never read from here as an authority: it comes
 * from the caller's token, and a body that names an org may only name the caller's own.
 */
import { apiError, type ApiError, type ErrorDetail } from './api-error.js';

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

/** A request id: what a client can safely put in a URL and a log line. */
export const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const ROUTING_SEGMENT_MAX = 200;
const FIELDS = new Set(['domain', 'action', 'world_model_version', 'context', 'request_id', 'org_id']);

export function readDecideRequest(body: unknown): { readonly ok: true; readonly request: DecideRequest } | { readonly ok: false; readonly error: ApiError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', 'the request body must be a JSON object', [{ path: '$', message: `expected an object, found ${kindOf(body)}` }]) };
  }
  const fields = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  const segment = (name: string): string => {
    const value = fields[name];
    const problem = segmentProblem(value);
    if (problem !== undefined) details.push({ path: `$.${name}`, message: problem });
    return typeof value === 'string' ? value : '';
  };
  const domain = segment('domain');
  const action = segment('action');
  const worldModelVersion = segment('world_model_version');
  const context = fields['context'];
  if (context === null || typeof context !== 'object' || Array.isArray(context)) details.push({ path: '$.context', message: `expected an object, found ${kindOf(context)}` });
  const requestId = optionalString(fields, 'request_id', details, (value) => (REQUEST_ID.test(value) ? undefined : 'must be 1–128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit'));
  const orgId = optionalString(fields, 'org_id', details, segmentProblem);
  for (const name of Object.keys(fields)) {
    if (!FIELDS.has(name)) details.push({ path: `$${pathKey(name)}`, message: 'is not a field of a decide request (domain, action, world_model_version, context, request_id, org_id)' });
  }
  if (details.length > 0) return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the decide request is invalid: ${details.length === 1 ? `${details[0]!.path} ${details[0]!.message}` : `${details.length} problems`}`, details) };
  return { ok: true, request: { domain, action, worldModelVersion, context: context as Record<string, unknown>, requestId, orgId } };
}

function optionalString(fields: Record<string, unknown>, name: string, details: ErrorDetail[], check: (value: string) => string | undefined): string | null {
  const value = fields[name];
  if (value === undefined || value === null) return null;
  const problem = typeof value === 'string' ? check(value) : `expected a string, found ${kindOf(value)}`;
  if (problem !== undefined) details.push({ path: `$.${name}`, message: problem });
  return typeof value === 'string' ? value : null;
}

/** What a routing key segment must be (the loader refuses anything else). */
function segmentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return value === undefined ? 'is required' : `expected a string, found ${kindOf(value)}`;
  if (value.length === 0) return 'must not be empty';
  if (value.length > ROUTING_SEGMENT_MAX) return `is longer than ${ROUTING_SEGMENT_MAX} characters`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'holds a control character';
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : `a ${typeof value}`;
}

/** `name` as a JSONPath member: `.name` when it is an identifier, `['…']` otherwise (escaped, short). */
function pathKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)}]`;
}
