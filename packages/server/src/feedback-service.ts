/**
 * Execution feedback (issue 16; seed 003's Execution Outcome Package): what became of a
 * selected action. The outcome is appended to the tenant's hash chain (kind `feedback`, its id
 * the outcome's), then its observed effects are written to the user's short-term memory for
 * the decision's scenario, where the next selection for that user reads them (stage 2).
 *
 * The record is written first: an outcome whose memory write failed is still on record, and
 * a retry with the same outcome id (idempotent) writes the memory again.
 */
import type { AuditRecord, AuditStore } from '@adec/audit';
import { rememberedSignalProblems } from '@adec/engine';
import type { ModuleLoader } from '@adec/runtime';
import type { Admission } from './admission.js';
import { apiError, type ApiError } from './api-error.js';
import type { Caller } from './auth/index.js';
import { digestOf } from './canonical-json.js';
import { callerRecord } from './decision-record.js';
import { loadError, type ServiceResult } from './decision-service.js';
import { readFeedbackRequest, type FeedbackRequest } from './feedback-request.js';
import type { SelectionPayload } from './selection-record.js';
import { storedRecordError } from './stored-record-error.js';

export interface FeedbackServiceOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
  readonly admission: Admission;
  readonly now?: () => number;
  readonly onRefused?: (code: string) => void;
}

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
  readonly outcome: Readonly<Record<string, unknown>>;
  readonly caller: ReturnType<typeof callerRecord>;
}

export class FeedbackService {
  readonly #now: () => number;

  constructor(private readonly options: FeedbackServiceOptions) {
    this.#now = options.now ?? Date.now;
  }

  async record(caller: Caller, body: unknown): Promise<ServiceResult<FeedbackReceipt>> {
    const admitted = this.options.admission.admit(caller.tenant, this.#now());
    if (!admitted.ok) return this.#refuse(admitted.error);
    try {
      const read = readFeedbackRequest(body);
      if (!read.ok) return this.#refuse(read.error);
      const { request } = read;
      const earlier = await this.options.store.get(caller.tenant, request.outcomeId);
      if (!earlier.ok) return this.#refuse(storedRecordError(earlier, request.outcomeId, storeUnavailable));
      if (earlier.value !== null) return this.#retried(caller, request, earlier.value);
      const decision = await this.#selection(caller, request);
      if (!decision.ok) return this.#refuse(decision.error);
      const payload = decision.value;
      const checked = await this.#checkEffects(caller, request, payload);
      if (checked !== undefined) return this.#refuse(checked);
      const appended = await this.options.store.append({
        tenant: caller.tenant,
        decisionId: request.outcomeId,
        kind: 'feedback',
        requestHash: digestOf(request.body),
        payload: { decision_id: request.decisionId, user_id: payload.request.user_id, scenario: payload.trace.scenario_id, outcome: request.body, caller: callerRecord(caller) } satisfies FeedbackPayload,
      });
      if (!appended.ok) {
        if (appended.code === 'DUPLICATE') return this.#retried(caller, request, appended.existing);
        return this.#refuse(storeUnavailable(appended.message));
      }
      return this.#remember(caller, request, appended.record, false);
    } finally {
      admitted.release();
    }
  }

  /** The decided selection the outcome reports on, of the caller's tenant. */
  async #selection(caller: Caller, request: FeedbackRequest): Promise<ServiceResult<SelectionPayload>> {
    const found = await this.options.store.get(caller.tenant, request.decisionId);
    if (!found.ok) return { ok: false, error: storedRecordError(found, request.decisionId, storeUnavailable) };
    if (found.value === null || found.value.kind !== 'selection') return { ok: false, error: apiError(404, 'DECISION_NOT_FOUND', `org ${caller.tenant} has no selection ${request.decisionId}`, [{ path: '$.decision_id', message: 'names no selection of this org' }]) };
    const payload = found.value.payload as unknown as SelectionPayload;
    const response = payload.trace.final_decision;
    if (payload.outcome !== 'decided' || response === null) return { ok: false, error: apiError(409, 'NOTHING_SELECTED', `selection ${request.decisionId} selected no action (${payload.outcome}): there is no execution to report`, [{ path: '$.decision_id', message: 'names a selection without a selected action' }]) };
    if (request.actionName !== null && request.actionName !== response.decision.selected_action) {
      return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the outcome reports action ${request.actionName}, but selection ${request.decisionId} selected ${response.decision.selected_action}`, [{ path: '$.action_name', message: `must be the selected action (${response.decision.selected_action})` }]) };
    }
    return { ok: true, value: payload };
  }

  /** Effects must be signals of the decision's scenario with values of their types, and need a user to remember them for. */
  async #checkEffects(caller: Caller, request: FeedbackRequest, payload: SelectionPayload): Promise<ApiError | undefined> {
    if (request.observedEffects.length === 0) return undefined;
    if (payload.request.user_id === null) return apiError(400, 'INVALID_REQUEST', `selection ${request.decisionId} was made without a user_id, so no memory can hold its effects`, [{ path: '$.observed_effects', message: 'needs a selection made for a user_id' }]);
    const module = await this.options.loader.load({ org: caller.tenant, domain: payload.request.domain, version: payload.request.world_model_version });
    if (!module.ok) return loadError(module.error.code, module.error.message);
    const checked = await rememberedSignalProblems(module.module, payload.trace.scenario_id, request.observedEffects);
    if (!checked.ok) return apiError(503, 'MODULE_UNAVAILABLE', checked.error.message, [], 1);
    if (checked.problems.length === 0) return undefined;
    return apiError(400, 'INVALID_REQUEST', `the observed effects do not fit scenario ${payload.trace.scenario_id}: ${checked.problems[0]!.path}: ${checked.problems[0]!.message}`, checked.problems.map((problem) => ({ path: `$.${problem.path}`, message: problem.message })));
  }

  /** Writes the outcome's effects to its user's memory (again, on a retry: the write is an upsert). */
  async #remember(caller: Caller, request: FeedbackRequest, record: AuditRecord, idempotentReplay: boolean): Promise<ServiceResult<FeedbackReceipt>> {
    const payload = record.payload as unknown as FeedbackPayload;
    const receipt = { outcome_id: record.decisionId, decision_id: payload.decision_id, recorded_at: record.recordedAt, chain: { seq: record.seq, hash: record.hash }, idempotent_replay: idempotentReplay };
    if (payload.user_id === null || request.observedEffects.length === 0) return { ok: true, value: { ...receipt, memory: null } };
    const values = Object.fromEntries(request.observedEffects.map((effect) => [effect.signal, effect.value]));
    const written = await this.options.store.memory.write(caller.tenant, payload.user_id, payload.scenario, values, record.decisionId);
    if (!written.ok) return this.#refuse(apiError(503, 'MEMORY_UNAVAILABLE', `outcome ${record.decisionId} is recorded (seq ${record.seq}), but the user's memory could not be updated: ${written.message}; retrying with the same outcome_id updates it`, [], 1));
    return { ok: true, value: { ...receipt, memory: { user_id: payload.user_id, scenario: payload.scenario, signals: Object.keys(values) } } };
  }

  /** An outcome id seen before: the same outcome is answered (and remembered) again, another is a conflict. */
  async #retried(caller: Caller, request: FeedbackRequest, record: AuditRecord): Promise<ServiceResult<FeedbackReceipt>> {
    if (record.kind !== 'feedback' || record.requestHash !== digestOf(request.body)) {
      return this.#refuse(apiError(409, 'DUPLICATE_OUTCOME_ID', `outcome_id ${request.outcomeId} was already used for a different record (recorded ${record.recordedAt})`, [{ path: '$.outcome_id', message: 'names a different record' }]));
    }
    return this.#remember(caller, request, record, true);
  }

  #refuse<T>(error: ApiError): ServiceResult<T> {
    this.options.onRefused?.(error.code);
    return { ok: false, error };
  }
}

function storeUnavailable(message: string): ApiError {
  return apiError(503, 'AUDIT_UNAVAILABLE', `the outcome was not recorded because the audit store failed: ${message}`, [], 1);
}
