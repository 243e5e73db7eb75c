/**
 * The one pipeline every operation runs through (operation.ts), whatever its transport:
 *
 *   admission (rate limit per tenant, in-flight bound) → body (schema, JSON paths) →
 *   tenant (a body's org_id must be the token's) → idempotent retry? → the operation's handler
 *   → audit record committed → the operation's outcome
 *
 * An outcome is answered only once its record is committed: when the store cannot take it,
 * the caller gets a 503 and no outcome, never one nobody can prove later. A retry with an id
 * already used is answered from the stored record when it is the same request, else refused.
 */
import type { AuditRecord, AuditStore } from '@adec/audit';
import type { Admission } from '../admission.js';
import type { ApiError } from '../api-error.js';
import type { Caller } from '../auth/index.js';
import { storedRecordError } from '../stored-record-error.js';
import type { Operation, OperationHandler, ServiceResult } from './operation.js';
import { idUsedElsewhere, notRecorded, storeUnreadable, wrongTenant } from './refusals.js';
import { readBody } from './request-schema.js';

export interface PipelineOptions {
  readonly store: AuditStore;
  /** Shared by every operation of the service, so a tenant's budget is one budget. */
  readonly admission: Admission;
  /** Milliseconds since the epoch (tests pin it). */
  readonly now: () => number;
  /** Hears the code of each refusal (for the metrics). */
  readonly refused?: (code: string) => void;
}

export async function runOperation<Request, Work, Outcome, Query>(
  operation: Operation<Request, Outcome, Query>,
  handler: OperationHandler<Request, Work, Outcome>,
  options: PipelineOptions,
  caller: Caller,
  body: unknown,
): Promise<ServiceResult<Outcome>> {
  const started = performance.now();
  const receivedAt = options.now();
  const refuse = (error: ApiError): ServiceResult<Outcome> => {
    options.refused?.(error.code);
    return { ok: false, error };
  };
  const settled = (result: ServiceResult<Outcome>): ServiceResult<Outcome> => (result.ok ? result : refuse(result.error));
  const admitted = await options.admission.admit(caller.tenant, receivedAt);
  if (!admitted.ok) return refuse(admitted.error);
  try {
    const read = readBody(operation.schema, body);
    if (!read.ok) return refuse(read.error);
    const request = operation.request(read.fields);
    const named = operation.orgOf(request);
    if (named !== null && named !== caller.tenant) return refuse(wrongTenant(caller.tenant, named));
    const key = operation.idOf(request);
    const retried = async (record: AuditRecord): Promise<ServiceResult<Outcome>> => {
      if (record.kind !== operation.recordKind || record.requestHash !== operation.hashOf(caller.tenant, request)) return refuse(idUsedElsewhere(operation.idempotency, key ?? record.decisionId, record.recordedAt));
      return settled(await handler.replayed(caller, request, record));
    };
    const id = key === null ? null : (operation.recordIdOf?.(key, caller.tenant) ?? key);
    if (id !== null) {
      const earlier = await options.store.get(caller.tenant, id);
      if (!earlier.ok) return refuse(storedRecordError(earlier, id, storeUnreadable));
      if (earlier.value !== null) return await retried(earlier.value);
    }
    const made = await handler.make(caller, request, receivedAt);
    if (!made.ok) return refuse(made.error);
    const appended = await options.store.append(made.value.entry);
    if (!appended.ok) return appended.code === 'DUPLICATE' ? await retried(appended.existing) : refuse(notRecorded(operation.what, appended.message));
    const outcome = await handler.committed(caller, request, made.value.work, appended.record);
    if (outcome.ok) handler.answered?.(outcome.value, (performance.now() - started) / 1000);
    return settled(outcome);
  } finally {
    admitted.release();
  }
}
