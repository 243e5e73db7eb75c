/**
 * The decision service without its transport: what `POST /v1/decide`, the retrieval and replay
 * routes and the MCP tool share. For one adjudication (seed 002 phases 1–5):
 *
 *   rate limit (per tenant) → in-flight bound → body → org check → idempotent retry? →
 *   module (loader: verified bundle, pooled sandbox) → decide → audit record committed → answer
 *
 * A decision is answered only once its record is committed: when the store cannot take it,
 * the caller gets a 503 and no decision, never a decision nobody can prove later.
 */
import { randomUUID } from 'node:crypto';
import type { AuditRecord, AuditStore } from '@adec/audit';
import { decide, isMachineFault, replayDecision, type DecideError, type Decision, type LoadErrorCode, type ModuleLoader, type TakenAsRecorded } from '@adec/runtime';
import { apiError, type ApiError } from './api-error.js';
import type { Caller } from './auth/index.js';
import { readDecideRequest, type DecideRequest } from './decide-request.js';
import { REQUEST_ID } from './request-fields.js';
import { adjudicationEntry, requestHashOf, storedDecisionView, type AdjudicationPayload } from './decision-record.js';
import { jsonDifferences, type Difference } from '@adec/engine';
import type { Admission } from './admission.js';
import { storedRecordError } from './stored-record-error.js';

export interface DecisionServiceOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
  /** Rate limits and the in-flight bound, shared with the other operations of the service. */
  readonly admission: Admission;
  /** Views and replays stored selections (their records share the store and the routes). */
  readonly selections?: StoredSelections;
  /** A decision unfinished after this long is a YELLOW DEADLINE_EXCEEDED. */
  readonly decisionTimeoutMs: number;
  readonly observer?: ServiceObserver;
  /** Milliseconds since the epoch (tests pin it). */
  readonly now?: () => number;
}

/** Hooks for metrics: the service does not know how they are exported. */
export interface ServiceObserver {
  decided(decision: Decision, seconds: number): void;
  refused(code: string): void;
}

export type ServiceResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

export interface DecideOutcome {
  readonly decision: Decision;
  /** The decision's JSON text, serialized once for the answer and the audit record. */
  readonly decisionJson: string;
  readonly decisionId: string;
  /** True when this is a retry answered with the decision stored for its request id. */
  readonly idempotentReplay: boolean;
}

/** What the service needs to show and replay a stored selection (selection-service.ts). */
export interface StoredSelections {
  view(record: AuditRecord): unknown;
  replay(caller: Caller, record: AuditRecord): Promise<ServiceResult<ReplayReport>>;
}

export interface ReplayReport {
  readonly decision_id: string;
  readonly identical: boolean;
  readonly module_hash: string;
  readonly differences: readonly Difference[];
  /**
   * What the machine did to the recording (a time limit, a heap, a dead process, a decision not
   * evaluated), replayed as recorded (runtime recorded-faults.ts); empty for a selection, whose
   * replay reads its skills' recorded results throughout.
   */
  readonly taken_as_recorded: readonly TakenAsRecorded[];
}

export class DecisionService {
  readonly #now: () => number;

  constructor(private readonly options: DecisionServiceOptions) {
    this.#now = options.now ?? Date.now;
  }

  get inFlight(): number {
    return this.options.admission.inFlight;
  }

  async decide(caller: Caller, body: unknown): Promise<ServiceResult<DecideOutcome>> {
    const started = performance.now();
    const receivedAt = this.#now();
    const admitted = this.options.admission.admit(caller.tenant, receivedAt);
    if (!admitted.ok) return this.#refuse(admitted.error);
    try {
      const read = readDecideRequest(body);
      if (!read.ok) return this.#refuse(read.error);
      const { request } = read;
      if (request.orgId !== null && request.orgId !== caller.tenant) {
        return this.#refuse(apiError(403, 'WRONG_TENANT', `the token is for org ${caller.tenant}, not ${request.orgId}`, [{ path: '$.org_id', message: `must be the token's org (${caller.tenant})` }]));
      }
      if (request.requestId !== null) {
        const earlier = await this.#stored(caller.tenant, request.requestId);
        if (!earlier.ok) return this.#refuse(earlier.error);
        if (earlier.value !== null) return this.#retried(caller, request, earlier.value);
      }
      const decided = await this.#decide(caller, request, receivedAt);
      if (!decided.ok) return this.#refuse(decided.error);
      const decisionJson = JSON.stringify(decided.decision);
      const appended = await this.options.store.append(adjudicationEntry(caller, request, decided.entry, decided.decision, decisionJson));
      if (!appended.ok) {
        if (appended.code === 'DUPLICATE') return this.#retried(caller, request, appended.existing);
        return this.#refuse(apiError(503, 'AUDIT_UNAVAILABLE', `the decision was not answered because its audit record could not be committed: ${appended.message}`, [], 1));
      }
      this.options.observer?.decided(decided.decision, (performance.now() - started) / 1000);
      return { ok: true, value: { decision: decided.decision, decisionJson, decisionId: decided.entry.requestId, idempotentReplay: false } };
    } finally {
      admitted.release();
    }
  }

  /** The caller's stored decision `decisionId`; another tenant's is as unknown as a missing one. */
  async find(caller: Caller, decisionId: string): Promise<ServiceResult<unknown>> {
    const found = await this.#existing(caller, decisionId);
    if (!found.ok) return found;
    return { ok: true, value: found.value.kind === 'selection' ? this.options.selections!.view(found.value) : storedDecisionView(found.value) };
  }

  /**
   * Re-executes a stored decision with the same module, context and system values, and reports
   * whether the result is identical to the recorded response, or where it differs.
   */
  async replay(caller: Caller, decisionId: string): Promise<ServiceResult<ReplayReport>> {
    const found = await this.#existing(caller, decisionId);
    if (!found.ok) return found;
    if (found.value.kind === 'selection') return this.options.selections!.replay(caller, found.value);
    const payload = found.value.payload as unknown as AdjudicationPayload;
    const { request, entry } = payload;
    const module = await this.options.loader.get({ org: caller.tenant, domain: request.domain, action: request.action, version: request.world_model_version });
    if (!module.ok) return { ok: false, error: loadError(module.error.code, module.error.message) };
    if (module.module.moduleHash !== payload.module_hash) {
      return { ok: false, error: apiError(409, 'MODULE_CHANGED', `decision ${decisionId} was made by module ${payload.module_hash}, but ${request.domain}@${request.world_model_version} is now served by ${module.module.moduleHash}`) };
    }
    let differences: Difference[] = [];
    let taken: readonly TakenAsRecorded[] = [];
    const entryValues = { requestId: entry.request_id, requestTime: entry.request_time, authenticatedCaller: entry.authenticated_caller };
    for (let attempt = 1; attempt <= REPLAY_ATTEMPTS; attempt++) {
      const replayed = await replayDecision(module.module, { action: request.action, context: request.context }, entryValues, payload.response);
      if (!replayed.ok) return { ok: false, error: apiError(500, 'REPLAY_FAILED', replayed.error.message) };
      taken = replayed.takenAsRecorded;
      // The recorded response went through JSON: compare like with like.
      differences = jsonDifferences(payload.response, JSON.parse(JSON.stringify(replayed.decision)));
      if (differences.length === 0 || !faultedOnlyInReplay(payload.response, replayed.decision)) break;
    }
    return { ok: true, value: { decision_id: decisionId, identical: differences.length === 0, module_hash: payload.module_hash, differences, taken_as_recorded: taken } };
  }

  async #decide(caller: Caller, request: DecideRequest, receivedAt: number) {
    const key = { org: caller.tenant, domain: request.domain, action: request.action, version: request.worldModelVersion };
    const module = await this.options.loader.get(key);
    if (!module.ok) return { ok: false as const, error: loadError(module.error.code, module.error.message) };
    const entry = { requestId: request.requestId ?? randomUUID(), requestTime: receivedAt, authenticatedCaller: caller.subject };
    const decided = await decide(module.module, { action: request.action, context: request.context }, entry, { deadline: receivedAt + this.options.decisionTimeoutMs });
    if (!decided.ok) return { ok: false as const, error: decideError(decided.error) };
    return { ok: true as const, decision: decided.decision, entry };
  }

  /** An earlier decision with the same request id: the same answer for the same request, else a conflict. */
  #retried(caller: Caller, request: DecideRequest, record: AuditRecord): ServiceResult<DecideOutcome> {
    if (record.requestHash !== requestHashOf(caller.tenant, request)) {
      return this.#refuse(apiError(409, 'DUPLICATE_REQUEST_ID', `request_id ${record.decisionId} was already used for a different request (recorded ${record.recordedAt})`, [{ path: '$.request_id', message: 'names a decision made for a different request' }]));
    }
    const payload = record.payload as unknown as AdjudicationPayload;
    return { ok: true, value: { decision: payload.response, decisionJson: JSON.stringify(payload.response), decisionId: record.decisionId, idempotentReplay: true } };
  }

  async #existing(caller: Caller, decisionId: string): Promise<ServiceResult<AuditRecord>> {
    if (!REQUEST_ID.test(decisionId)) return { ok: false, error: apiError(404, 'DECISION_NOT_FOUND', 'no such decision: a decision id is 1–128 letters, digits, `.`, `_`, `:` or `-`') };
    const found = await this.#stored(caller.tenant, decisionId);
    if (!found.ok) return found;
    const kinds = this.options.selections === undefined ? ['adjudication'] : ['adjudication', 'selection'];
    if (found.value === null || !kinds.includes(found.value.kind)) return { ok: false, error: apiError(404, 'DECISION_NOT_FOUND', `org ${caller.tenant} has no decision ${decisionId}`) };
    return { ok: true, value: found.value };
  }

  async #stored(tenant: string, decisionId: string): Promise<ServiceResult<AuditRecord | null>> {
    const found = await this.options.store.get(tenant, decisionId);
    if (found.ok) return found;
    return { ok: false, error: storedRecordError(found, decisionId, (message) => apiError(503, 'AUDIT_UNAVAILABLE', `the audit store cannot be read: ${message}`, [], 1)) };
  }

  #refuse<T>(error: ApiError): ServiceResult<T> {
    this.options.observer?.refused(error.code);
    return { ok: false, error };
  }
}

/**
 * How often a replay is run when it meets a fault of the machine the recording did not: a
 * predicate's time limit or heap, or its sandbox process dying, say what the machine was doing
 * then (a loaded host replaying a thousand decisions), not what the logic decides.
 */
const REPLAY_ATTEMPTS = 3;

/** True when `replayed` has a rule errored by a machine fault that `recorded` did not. */
function faultedOnlyInReplay(recorded: Decision, replayed: Decision): boolean {
  const erroredBefore = new Set(recorded.decision_metadata.errored_predicates.map((errored) => errored.rule_id));
  return replayed.decision_metadata.errored_predicates.some((errored) => isMachineFault(errored.kind) && !erroredBefore.has(errored.rule_id));
}

/**
 * How a request the module did not decide is answered: an unknown action 404; a context over a
 * request limit 413, naming the limit and the value's JSON path (as the body's own limits are);
 * anything else 400.
 */
function decideError(error: DecideError): ApiError {
  if (error.code === 'UNKNOWN_ACTION') return apiError(404, error.code, error.message);
  if (error.code === 'REQUEST_TOO_LARGE') return apiError(413, error.code, error.message, [{ path: contextPath(error.limit.path), message: error.limit.message }]);
  return apiError(400, error.code, error.message);
}

/** A JSON path from the context (`documents[2]`, the runtime's form) as a path in the body. */
function contextPath(path: string): string {
  return path === '' ? '$.context' : path.startsWith('[') ? `$.context${path}` : `$.context.${path}`;
}

/** How a module that cannot be served is answered: missing is 404, everything else 503. */
export function loadError(code: LoadErrorCode, message: string): ApiError {
  if (code === 'MODULE_NOT_FOUND' || code === 'UNKNOWN_ACTION') return apiError(404, code, message);
  if (code === 'ROUTING_KEY_INVALID') return apiError(400, code, message);
  return apiError(503, code === 'HOST_AT_CAPACITY' ? 'OVERLOADED' : 'MODULE_UNAVAILABLE', message, [], 1);
}
