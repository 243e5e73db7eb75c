/**
 * `POST /v1/feedback` (docs/spec/contracts.md §3): an Execution Outcome Package v1, what became of
 * a selected action. The package, whole and as received, is appended to the tenant's hash chain
 * (kind `feedback`, its id the outcome's), then its observed effects are written to the user's
 * short-term memory for the decision's scenario, where the next selection for that user reads
 * them (stage 2).
 *
 * The record is written first: an outcome whose memory write failed is still on record, and
 * a retry with the same outcome id (idempotent) writes the memory again.
 */
import type { AuditRecord, AuditStore } from '@adec/audit';
import { rememberedSignalProblems } from '@adec/engine';
import type { ModuleLoader } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';
import type { Caller } from '../auth/index.js';
import { digestOf } from '../canonical-json.js';
import { callerRecord, type CallerRecord } from '../decision-record.js';
import { errorResponse, json, retryAfter, sharedRefusals } from '../openapi-responses.js';
import type { Operation, OperationHandler, ServiceResult } from '../pipeline/operation.js';
import { loadError, storeUnreadable } from '../pipeline/refusals.js';
import type { SelectionPayload } from '../selection-record.js';
import { storedRecordError } from '../stored-record-error.js';
import { FEEDBACK_REQUEST, feedbackRequestOf, packageProblems, type FeedbackRequest, type OutcomePackage } from './feedback-request.js';

export interface FeedbackReceipt {
  readonly outcome_id: string;
  readonly decision_id: string;
  readonly recorded_at: string;
  readonly chain: { readonly seq: number; readonly hash: string };
  /** The user whose memory the effects were written to, and the signals written; null: no memory. */
  readonly memory: { readonly user_id: string; readonly scenario: string; readonly signals: readonly string[] } | null;
  readonly idempotent_replay: boolean;
}

interface FeedbackPayload {
  readonly decision_id: string;
  readonly user_id: string | null;
  readonly scenario: string;
  /** The Execution Outcome Package exactly as received. */
  readonly outcome: OutcomePackage;
  readonly caller: CallerRecord;
}

export const FEEDBACK: Operation<FeedbackRequest, FeedbackReceipt> = {
  path: '/v1/feedback',
  schemaName: 'ExecutionOutcomePackage',
  schema: FEEDBACK_REQUEST,
  document: {
    operationId: 'recordOutcome',
    summary: "Record what became of a selected action: an Execution Outcome Package v1 (docs/spec/contracts.md §3), stored whole; its observed effects become the user's short-term memory",
    responses: {
      '201': { description: 'Recorded in the audit chain; the effects remembered', content: json('FeedbackReceipt') },
      '200': { description: 'The same outcome again (idempotent): the stored receipt, the memory written again', content: json('FeedbackReceipt') },
      '400': errorResponse('A package that does not fit the contract (each problem with its JSON path; schema_version other than 1.0.0), an end before the start, an effect that is not a signal of the scenario or does not fit its type, an action that was not selected, or a world_version_id_before that is not the module hash of the selection'),
      ...sharedRefusals.unauthorized,
      '404': errorResponse('No such selection for this org'),
      '409': errorResponse('The outcome_id was used for a different record, or the selection selected nothing'),
      ...sharedRefusals.rateLimited,
      ...sharedRefusals.recordTampered,
      '503': { ...errorResponse('Audit store or memory unavailable'), headers: retryAfter },
    },
  },
  recordKind: 'feedback',
  idempotency: { field: 'outcome_id', usedFor: 'record', detail: 'names a different record' },
  what: 'the outcome',
  request: feedbackRequestOf,
  idOf: (request) => request.outcomeId,
  // An outcome names no org: the selection it reports on is looked up in the token's.
  orgOf: () => null,
  hashOf: (_tenant, request) => digestOf(request.body),
  answer: (receipt) => ({ ok: true, status: receipt.idempotent_replay ? 200 : 201, body: receipt, json: JSON.stringify(receipt), headers: {} }),
};

export interface FeedbackHandlerOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
}

export function feedbackHandler(options: FeedbackHandlerOptions): OperationHandler<FeedbackRequest, undefined, FeedbackReceipt> {
  return {
    async make(caller, request) {
      const problems = packageProblems(request.body);
      if (problems.length > 0) return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the execution outcome package is invalid: ${problems[0]!.path} ${problems[0]!.message}`, problems) };
      const decision = await selectionOf(options.store, caller, request);
      if (!decision.ok) return decision;
      const payload = decision.value;
      const checked = await effectsProblem(options.loader, caller, request, payload);
      if (checked !== undefined) return { ok: false, error: checked };
      const recorded: FeedbackPayload = { decision_id: request.decisionId, user_id: payload.request.user_id, scenario: payload.trace.scenario_id, outcome: request.body, caller: callerRecord(caller) };
      return { ok: true, value: { entry: { tenant: caller.tenant, decisionId: request.outcomeId, kind: 'feedback', requestHash: FEEDBACK.hashOf(caller.tenant, request), payload: { ...recorded } }, work: undefined } };
    },
    committed: (caller, request, _work, record) => remember(options.store, caller, request, record, false),
    replayed: (caller, request, record) => remember(options.store, caller, request, record, true),
  };
}

/** The decided selection the outcome reports on, of the caller's tenant, once what the outcome says of it (action, world) holds. */
async function selectionOf(store: AuditStore, caller: Caller, request: FeedbackRequest): Promise<ServiceResult<SelectionPayload>> {
  const found = await store.get(caller.tenant, request.decisionId);
  if (!found.ok) return { ok: false, error: storedRecordError(found, request.decisionId, storeUnreadable) };
  if (found.value === null || found.value.kind !== 'selection') return { ok: false, error: apiError(404, 'DECISION_NOT_FOUND', `org ${caller.tenant} has no selection ${request.decisionId}`, [{ path: '$.decision_id', message: 'names no selection of this org' }]) };
  const payload = found.value.payload as unknown as SelectionPayload;
  const response = payload.trace.final_decision;
  if (payload.outcome !== 'decided' || response === null) return { ok: false, error: apiError(409, 'NOTHING_SELECTED', `selection ${request.decisionId} selected no action (${payload.outcome}): there is no execution to report`, [{ path: '$.decision_id', message: 'names a selection without a selected action' }]) };
  if (request.actionName !== null && request.actionName !== response.decision.selected_action) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the outcome reports action ${request.actionName}, but selection ${request.decisionId} selected ${response.decision.selected_action}`, [{ path: '$.action_name', message: `must be the selected action (${response.decision.selected_action})` }]) };
  }
  // adec's world is the module that decided (docs/spec/contracts.md 3.1.5).
  if (request.worldBefore !== null && request.worldBefore !== payload.module_hash) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the outcome reports world ${request.worldBefore}, but selection ${request.decisionId} was made by module ${payload.module_hash}`, [{ path: '$.world_version_id_before', message: `must be the module hash of the selection (${payload.module_hash})` }]) };
  }
  return { ok: true, value: payload };
}

/** Effects must be signals of the decision's scenario with values of their types, and need a user to remember them for. */
async function effectsProblem(loader: ModuleLoader, caller: Caller, request: FeedbackRequest, payload: SelectionPayload): Promise<ApiError | undefined> {
  if (request.observedEffects.length === 0) return undefined;
  if (payload.request.user_id === null) return apiError(400, 'INVALID_REQUEST', `selection ${request.decisionId} was made without a user_id, so no memory can hold its effects`, [{ path: '$.observed_effects', message: 'needs a selection made for a user_id' }]);
  const module = await loader.load({ org: caller.tenant, domain: payload.request.domain, version: payload.request.world_model_version });
  if (!module.ok) return loadError(module.error.code, module.error.message);
  const checked = await rememberedSignalProblems(module.module, payload.trace.scenario_id, request.observedEffects);
  if (!checked.ok) return apiError(503, 'MODULE_UNAVAILABLE', checked.error.message, [], 1);
  if (checked.problems.length === 0) return undefined;
  return apiError(400, 'INVALID_REQUEST', `the observed effects do not fit scenario ${payload.trace.scenario_id}: ${checked.problems[0]!.path}: ${checked.problems[0]!.message}`, checked.problems.map((problem) => ({ path: `$.${problem.path}`, message: problem.message })));
}

/** Writes the outcome's effects to its user's memory (again, on a retry: the write is an upsert). */
async function remember(store: AuditStore, caller: Caller, request: FeedbackRequest, record: AuditRecord, idempotentReplay: boolean): Promise<ServiceResult<FeedbackReceipt>> {
  const payload = record.payload as unknown as FeedbackPayload;
  const receipt = { outcome_id: record.decisionId, decision_id: payload.decision_id, recorded_at: record.recordedAt, chain: { seq: record.seq, hash: record.hash }, idempotent_replay: idempotentReplay };
  if (payload.user_id === null || request.observedEffects.length === 0) return { ok: true, value: { ...receipt, memory: null } };
  const values = Object.fromEntries(request.observedEffects.map((effect) => [effect.signal, effect.value]));
  const written = await store.memory.write(caller.tenant, payload.user_id, payload.scenario, values, record.decisionId);
  if (!written.ok) return { ok: false, error: apiError(503, 'MEMORY_UNAVAILABLE', `outcome ${record.decisionId} is recorded (seq ${record.seq}), but the user's memory could not be updated: ${written.message}; retrying with the same outcome_id updates it`, [], 1) };
  return { ok: true, value: { ...receipt, memory: { user_id: payload.user_id, scenario: payload.scenario, signals: Object.keys(values) } } };
}
