/**
 * The refusals every operation shares, written once: a body naming another org than the
 * token's, an id already used for something else, an audit store that cannot be read or
 * cannot take the record (503: nothing was answered that nobody could prove later), and a
 * module that cannot be served.
 */
import type { LoadErrorCode } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';

export function wrongTenant(tenant: string, named: string): ApiError {
  return apiError(403, 'WRONG_TENANT', `the token is for org ${tenant}, not ${named}`, [{ path: '$.org_id', message: `must be the token's org (${tenant})` }]);
}

/** How an operation's idempotency id is named in its refusal: `request_id`, used for a `request`, or `outcome_id`, for a `record`. */
export interface IdempotencyKey {
  readonly field: 'request_id' | 'outcome_id';
  /** What else the id was used for: `request`, `record`. */
  readonly usedFor: string;
  /** The detail on the id's JSON path. */
  readonly detail: string;
}

export function idUsedElsewhere(key: IdempotencyKey, id: string, recordedAt: string): ApiError {
  return apiError(409, `DUPLICATE_${key.field.toUpperCase()}`, `${key.field} ${id} was already used for a different ${key.usedFor} (recorded ${recordedAt})`, [{ path: `$.${key.field}`, message: key.detail }]);
}

export function storeUnreadable(message: string): ApiError {
  return apiError(503, 'AUDIT_UNAVAILABLE', `the audit store cannot be read: ${message}`, [], 1);
}

/** `what`: the decision, the selection, the outcome. */
export function notRecorded(what: string, message: string): ApiError {
  return apiError(503, 'AUDIT_UNAVAILABLE', `${what} was not answered because its audit record could not be committed: ${message}`, [], 1);
}

/** How a module that cannot be served is answered: missing is 404, everything else 503. */
export function loadError(code: LoadErrorCode, message: string): ApiError {
  if (code === 'MODULE_NOT_FOUND' || code === 'UNKNOWN_ACTION') return apiError(404, code, message);
  if (code === 'ROUTING_KEY_INVALID') return apiError(400, code, message);
  return apiError(503, code === 'HOST_AT_CAPACITY' ? 'OVERLOADED' : 'MODULE_UNAVAILABLE', message, [], 1);
}
