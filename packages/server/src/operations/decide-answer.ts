/**
 * How much of a decision `POST /v1/decide` answers with. By default all of it, the per-rule
 * predicate traces included (docs/spec/adjudication.md §5.2). `?traces=false` leaves the traces out of the answer:
 * most of its size for an action of many rules, for a caller that acts on the status and
 * work_frame and never reads them. The audit record keeps the whole decision either way, so
 * `GET /v1/decisions/{id}` and a replay still show every trace.
 */
import type { Decision } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';
import type { ServiceResult } from '../pipeline/operation.js';

/** Whether the answer holds the predicate traces. */
export type AnswerQuery = ServiceResult<boolean>;

/** Reads the decide route's query: `traces` is `true` or `false`, and nothing else is asked. */
export function readAnswerQuery(query: unknown): AnswerQuery {
  const parameters = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const unknown = Object.keys(parameters).filter((name) => name !== 'traces');
  if (unknown.length > 0) {
    const names = unknown.map((name) => JSON.stringify(name.slice(0, 64))).join(', ');
    return refused(`unknown query parameter${unknown.length === 1 ? '' : 's'} ${names}: the only one is traces`, unknown.map((name) => ({ path: `?${name.slice(0, 64)}`, message: 'is not a parameter of this route' })));
  }
  const traces = parameters['traces'];
  if (traces === undefined || traces === 'true') return { ok: true, value: true };
  if (traces === 'false') return { ok: true, value: false };
  const found = typeof traces === 'string' ? JSON.stringify(traces.slice(0, 64)) : 'it more than once';
  return refused(`query parameter traces must be true or false, found ${found}`, [{ path: '?traces', message: 'must be true or false' }]);
}

function refused(message: string, details: ApiError['details']): AnswerQuery {
  return { ok: false, error: apiError(400, 'INVALID_QUERY', message, details) };
}

/** The JSON text of `decision` without its predicate traces. */
export function withoutTracesJson(decision: Decision): string {
  return JSON.stringify({ ...decision, decision_metadata: { ...decision.decision_metadata, predicate_traces: undefined } });
}
