/**
 * The selection side of the decision service: the select operation (operations/select.ts, run
 * through the pipeline of pipeline/run-operation.ts), and how a stored selection is shown and
 * replayed by the decision routes.
 */
import type { AuditRecord, AuditStore } from '@adec/audit';
import { replayCycle, type CycleOutcome, type LlmExecutor, type TraceSigner, type ValidationFailure } from '@adec/engine';
import type { ModuleLoader } from '@adec/runtime';
import type { Admission } from './admission.js';
import { apiError } from './api-error.js';
import type { Caller } from './auth/index.js';
import type { ReplayReport, StoredSelections } from './decision-service.js';
import { SELECT, selectHandler, type SelectOutcome } from './operations/select.js';
import type { ServiceResult } from './pipeline/operation.js';
import { loadError } from './pipeline/refusals.js';
import { runOperation, type PipelineOptions } from './pipeline/run-operation.js';
import { storedSelectionView, type SelectionPayload } from './selection-record.js';

export type { SelectOutcome } from './operations/select.js';

export interface SelectionServiceOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
  readonly admission: Admission;
  /** Model executors in order of preference (none: LLM skills run their deterministic fallback, flagged). */
  readonly executors: readonly LlmExecutor[];
  /** Names no skill output may mention (docs/spec/skill-contract.md §4). */
  readonly competitorNames?: readonly string[];
  /** The service's key that signs every trace it stores (docs/spec/contracts.md §4). */
  readonly traceSigner?: TraceSigner;
  readonly observer?: SelectionObserver;
  readonly now?: () => number;
}

export interface SelectionObserver {
  selected(outcome: CycleOutcome, seconds: number): void;
  refused(code: string): void;
  /** A skill output tried to name, rank or change the selection: rejected, and worth a log line. */
  authorityViolation(tenant: string, skillId: string, failures: readonly ValidationFailure[]): void;
}

export class SelectionService implements StoredSelections {
  readonly #pipeline: PipelineOptions;
  readonly #select: ReturnType<typeof selectHandler>;

  constructor(private readonly options: SelectionServiceOptions) {
    const { observer } = options;
    this.#pipeline = { store: options.store, admission: options.admission, now: options.now ?? Date.now, refused: (code) => observer?.refused(code) };
    this.#select = selectHandler({
      loader: options.loader,
      store: options.store,
      executors: options.executors,
      ...(options.competitorNames !== undefined && { competitorNames: options.competitorNames }),
      ...(options.traceSigner !== undefined && { traceSigner: options.traceSigner }),
      selected: (outcome, seconds) => observer?.selected(outcome, seconds),
      authorityViolation: (tenant, skillId, failures) => observer?.authorityViolation(tenant, skillId, failures),
    });
  }

  select(caller: Caller, body: unknown): Promise<ServiceResult<SelectOutcome>> {
    return runOperation(SELECT, this.#select, this.#pipeline, caller, body);
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
      if (replayed.error.code === 'MODULE_CHANGED') return { ok: false, error: apiError(409, 'MODULE_CHANGED', `${replayed.error.message}: ${payload.request.domain}@${payload.request.world_model_version} is served by another module now`) };
      if (replayed.error.code === 'TRACE_VERSION_UNSUPPORTED') return { ok: false, error: apiError(409, 'TRACE_VERSION_UNSUPPORTED', replayed.error.message) };
      return { ok: false, error: apiError(500, 'REPLAY_FAILED', replayed.error.message) };
    }
    // A cycle's replay reads its skills' recorded results throughout: nothing is taken apart.
    return { ok: true, value: { decision_id: record.decisionId, identical: replayed.identical, module_hash: payload.module_hash, differences: replayed.differences, taken_as_recorded: [] } };
  }
}
