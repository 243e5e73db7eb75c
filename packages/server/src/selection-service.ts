/**
 * The selection side of the decision service (seed 000, the whole ADE cycle behind
 * `POST /v1/select`):
 *
 *   admission (rate limit, in-flight bound) → body → org check → idempotent retry? →
 *   module (loader: verified bundle; a world of scenarios only loads like any other) →
 *   the user's short-term memory (unreadable: a flagged cold start) → the engine's nine
 *   stages → the full trace committed → answer
 *
 * Every outcome with a trace is stored before it is answered: `decided` (200), no eligible
 * action (422) and a scoring failure (500). Nothing is stored for a request that was refused
 * before anything was decided (400, 404, 429, 503).
 */
import { randomUUID } from 'node:crypto';
import type { AuditRecord, AuditStore } from '@adec/audit';
import { replayCycle, runCycle, type CycleOutcome, type DecisionResponse, type LlmExecutor, type MemoryInput, type SelectionError, type ValidationFailure } from '@adec/engine';
import type { ModuleLoader } from '@adec/runtime';
import type { Admission } from './admission.js';
import { apiError, type ApiError } from './api-error.js';
import type { Caller } from './auth/index.js';
import { loadError, type ReplayReport, type ServiceResult, type StoredSelections } from './decision-service.js';
import { readSelectRequest, type SelectRequest } from './select-request.js';
import { selectionEntry, selectionRequestHash, storedSelectionView, type SelectionPayload } from './selection-record.js';
import { storedRecordError } from './stored-record-error.js';

export interface SelectionServiceOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
  readonly admission: Admission;
  /** Model executors in order of preference (none: LLM skills run their deterministic fallback, flagged). */
  readonly executors: readonly LlmExecutor[];
  /** Names no skill output may mention (SEC §4). */
  readonly competitorNames?: readonly string[];
  readonly observer?: SelectionObserver;
  readonly now?: () => number;
}

export interface SelectionObserver {
  selected(outcome: CycleOutcome, seconds: number): void;
  refused(code: string): void;
  /** A skill output tried to name, rank or change the selection: rejected, and worth a log line. */
  authorityViolation(tenant: string, skillId: string, failures: readonly ValidationFailure[]): void;
}

export interface SelectOutcome {
  readonly outcome: CycleOutcome;
  /** The response when `decided`; null for a stored 422 or 500. */
  readonly response: DecisionResponse | null;
  readonly decisionId: string;
  readonly idempotentReplay: boolean;
}

export class SelectionService implements StoredSelections {
  readonly #now: () => number;

  constructor(private readonly options: SelectionServiceOptions) {
    this.#now = options.now ?? Date.now;
  }

  async select(caller: Caller, body: unknown): Promise<ServiceResult<SelectOutcome>> {
    const started = performance.now();
    const receivedAt = this.#now();
    const admitted = this.options.admission.admit(caller.tenant, receivedAt);
    if (!admitted.ok) return this.#refuse(admitted.error);
    try {
      const read = readSelectRequest(body);
      if (!read.ok) return this.#refuse(read.error);
      const { request } = read;
      if (request.orgId !== null && request.orgId !== caller.tenant) {
        return this.#refuse(apiError(403, 'WRONG_TENANT', `the token is for org ${caller.tenant}, not ${request.orgId}`, [{ path: '$.org_id', message: `must be the token's org (${caller.tenant})` }]));
      }
      if (request.requestId !== null) {
        const earlier = await this.options.store.get(caller.tenant, request.requestId);
        if (!earlier.ok) return this.#refuse(storedRecordError(earlier, request.requestId, storeUnavailable));
        if (earlier.value !== null) return this.#retried(caller, request, earlier.value);
      }
      const module = await this.options.loader.load({ org: caller.tenant, domain: request.domain, version: request.worldModelVersion });
      if (!module.ok) return this.#refuse(loadError(module.error.code, module.error.message));
      const memory = await this.#memoryOf(caller.tenant, request);
      const result = await runCycle(module.module, request.cycle, {
        decisionId: request.requestId ?? randomUUID(),
        timestamp: new Date(receivedAt).toISOString(),
        executors: this.options.executors,
        memory,
        ...(this.options.competitorNames !== undefined && { competitorNames: this.options.competitorNames }),
        onAuthorityViolation: (failures, skillId) => this.options.observer?.authorityViolation(caller.tenant, skillId, failures),
      });
      if (!result.ok) return this.#refuse(selectionError(result.error));
      const appended = await this.options.store.append(selectionEntry(caller, request, result.outcome, result.trace));
      if (!appended.ok) {
        if (appended.code === 'DUPLICATE') return this.#retried(caller, request, appended.existing);
        return this.#refuse(storeUnavailable(appended.message));
      }
      this.options.observer?.selected(result.outcome, (performance.now() - started) / 1000);
      return { ok: true, value: { outcome: result.outcome, response: result.response, decisionId: result.trace.decision_id, idempotentReplay: false } };
    } finally {
      admitted.release();
    }
  }

  view(record: AuditRecord): unknown {
    return storedSelectionView(record);
  }

  /** Re-executes a stored selection with the same module, inputs, memory and model replies. */
  async replay(caller: Caller, record: AuditRecord): Promise<ServiceResult<ReplayReport>> {
    const payload = record.payload as unknown as SelectionPayload;
    const module = await this.options.loader.load({ org: caller.tenant, domain: payload.request.domain, version: payload.request.world_model_version });
    if (!module.ok) return { ok: false, error: loadError(module.error.code, module.error.message) };
    const replayed = await replayCycle(module.module, payload.trace, { ...(this.options.competitorNames !== undefined && { competitorNames: this.options.competitorNames }) });
    if (!replayed.ok) {
      return replayed.error.code === 'MODULE_CHANGED'
        ? { ok: false, error: apiError(409, 'MODULE_CHANGED', `${replayed.error.message}: ${payload.request.domain}@${payload.request.world_model_version} is served by another module now`) }
        : { ok: false, error: apiError(500, 'REPLAY_FAILED', replayed.error.message) };
    }
    // A cycle's replay reads its skills' recorded results throughout: nothing is taken apart.
    return { ok: true, value: { decision_id: record.decisionId, identical: replayed.identical, module_hash: payload.module_hash, differences: replayed.differences, taken_as_recorded: [] } };
  }

  /** The user's memory for this scenario; a store that cannot be read gives a flagged cold start. */
  async #memoryOf(tenant: string, request: SelectRequest): Promise<MemoryInput> {
    if (request.userId === null) return { status: 'none', values: {}, outcome_ids: [] };
    const read = await this.options.store.memory.read(tenant, request.userId, request.cycle.scenario);
    return read.ok ? { status: 'read', values: read.value.values, outcome_ids: read.value.outcomeIds } : { status: 'unavailable', values: {}, outcome_ids: [] };
  }

  /** An earlier selection with the same request id: the same answer for the same request, else a conflict. */
  #retried(caller: Caller, request: SelectRequest, record: AuditRecord): ServiceResult<SelectOutcome> {
    if (record.kind !== 'selection' || record.requestHash !== selectionRequestHash(caller.tenant, request)) {
      return this.#refuse(apiError(409, 'DUPLICATE_REQUEST_ID', `request_id ${record.decisionId} was already used for a different request (recorded ${record.recordedAt})`, [{ path: '$.request_id', message: 'names a decision made for a different request' }]));
    }
    const payload = record.payload as unknown as SelectionPayload;
    return { ok: true, value: { outcome: payload.outcome, response: payload.trace.final_decision, decisionId: record.decisionId, idempotentReplay: true } };
  }

  #refuse<T>(error: ApiError): ServiceResult<T> {
    this.options.observer?.refused(error.code);
    return { ok: false, error };
  }
}

/** How the engine's refusals are answered: nothing was decided, so nothing is stored. */
function selectionError(error: SelectionError): ApiError {
  switch (error.code) {
    case 'INVALID_REQUEST':
      return apiError(400, 'INVALID_REQUEST', error.message, error.problems.map((problem) => ({ path: `$.${problem.path}`, message: problem.message })));
    case 'UNKNOWN_SCENARIO':
      return apiError(404, 'UNKNOWN_SCENARIO', error.message, [{ path: '$.scenario', message: 'names no scenario of this module' }]);
    case 'MODULE_UNSUPPORTED':
      return apiError(500, 'MODULE_UNSUPPORTED', error.message);
    case 'SANDBOX_FAILURE':
      return apiError(503, 'SANDBOX_FAILURE', error.message, [], 1);
  }
}

function storeUnavailable(message: string): ApiError {
  return apiError(503, 'AUDIT_UNAVAILABLE', `the selection was not answered because its trace could not be stored: ${message}`, [], 1);
}
