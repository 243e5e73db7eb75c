/**
 * The decision service without its transport: the decide operation (operations/decide.ts, run
 * through the pipeline of pipeline/run-operation.ts), and the retrieval and replay of any stored
 * decision, an adjudication or a selection.
 */
import type { AuditRecord, AuditStore } from '@adec/audit';
import { comparedInReplay, isMachineFault, replayDecision, type Decision, type ModuleLoader, type TakenAsRecorded } from '@adec/runtime';
import { apiError } from './api-error.js';
import type { Caller } from './auth/index.js';
import { adjudicationPackage } from './decision-package.js';
import { storedDecisionView, type AdjudicationPayload } from './decision-record.js';
import { jsonDifferences, type Difference } from '@adec/engine';
import type { Admission } from './admission.js';
import { storedRecordError } from './stored-record-error.js';
import { DECIDE, decideHandler, type DecideOutcome } from './operations/decide.js';
import type { ServiceResult } from './pipeline/operation.js';
import { loadError, storeUnreadable } from './pipeline/refusals.js';
import { REQUEST_ID } from './pipeline/request-fields.js';
import { runOperation, type PipelineOptions } from './pipeline/run-operation.js';

export type { DecideOutcome } from './operations/decide.js';
export type { ServiceResult } from './pipeline/operation.js';

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
  readonly #pipeline: PipelineOptions;
  readonly #decide: ReturnType<typeof decideHandler>;

  constructor(private readonly options: DecisionServiceOptions) {
    this.#pipeline = { store: options.store, admission: options.admission, now: options.now ?? Date.now, refused: (code) => options.observer?.refused(code) };
    this.#decide = decideHandler({ loader: options.loader, decisionTimeoutMs: options.decisionTimeoutMs, decided: (decision, seconds) => options.observer?.decided(decision, seconds) });
  }

  get inFlight(): number {
    return this.options.admission.inFlight;
  }

  decide(caller: Caller, body: unknown): Promise<ServiceResult<DecideOutcome>> {
    return runOperation(DECIDE, this.#decide, this.#pipeline, caller, body);
  }

  /** The caller's stored decision `decisionId`; another tenant's is as unknown as a missing one. */
  async find(caller: Caller, decisionId: string): Promise<ServiceResult<unknown>> {
    const found = await this.#existing(caller, decisionId);
    if (!found.ok) return found;
    return { ok: true, value: found.value.kind === 'selection' ? this.options.selections!.view(found.value) : storedDecisionView(found.value) };
  }

  /** A decision's Decision Package (docs/spec/contracts.md §2): a selection's as stored, an adjudication's made from its record. */
  async decisionPackage(caller: Caller, decisionId: string): Promise<ServiceResult<unknown>> {
    const found = await this.#existing(caller, decisionId);
    if (!found.ok) return found;
    if (found.value.kind !== 'selection') return { ok: true, value: adjudicationPackage(found.value.payload as unknown as AdjudicationPayload) };
    const stored = (found.value.payload as { readonly decision_package?: unknown }).decision_package;
    if (stored === undefined) return { ok: false, error: apiError(409, 'NO_DECISION_PACKAGE', `selection ${decisionId} was recorded before selections stored a Decision Package; read it as recorded without ?format`) };
    if (stored === null) return { ok: false, error: apiError(409, 'NO_DECISION_PACKAGE', `selection ${decisionId} chose no action (${String((found.value.payload as { readonly outcome?: unknown }).outcome)}), so it has no Decision Package; its trace is stored`) };
    return { ok: true, value: stored };
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
      differences = jsonDifferences(comparedInReplay(payload.response), JSON.parse(JSON.stringify(comparedInReplay(replayed.decision))));
      if (differences.length === 0 || !faultedOnlyInReplay(payload.response, replayed.decision)) break;
    }
    return { ok: true, value: { decision_id: decisionId, identical: differences.length === 0, module_hash: payload.module_hash, differences, taken_as_recorded: taken } };
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
    return { ok: false, error: storedRecordError(found, decisionId, storeUnreadable) };
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
