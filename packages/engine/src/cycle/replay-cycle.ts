/**
 * Stage 9's deterministic re-execution: a recorded trace's request is run again through the
 * whole cycle with the same decision id, timestamp and module, and with the model's recorded
 * outcome instead of a new call, and the recorded sandbox faults (skill-crossings.ts) instead of
 * the crossings that had them, then compared with what was recorded. Timings are the only part
 * of a trace that may differ; everything else must be identical.
 */
import type { LoadedModule } from '@adec/runtime';
import { jsonDifferences, type Difference } from '../json-differences.js';
import type { LlmExecutorType } from '../skills/executors/llm-executor.js';
import { DETERMINISTIC_EXECUTOR, NULL_SKILL } from '../skills/resolve-skill.js';
import { REPLAY_TIME_LIMIT_MS } from '../skills/skill-crossings.js';
import type { ValidationFailure } from '../skills/validate-output.js';
import { TRACE_VERSION, type AddressedTrace } from './reasoning-trace.js';
import { runCycle, type CycleRequest } from './run-cycle.js';
import type { SelectionError } from '../selection-error.js';

export interface ReplayOptions {
  readonly competitorNames?: readonly string[];
  readonly timeLimitMs?: number;
  readonly onAuthorityViolation?: (failures: readonly ValidationFailure[], skillId: string) => void;
}

export type ReplayResult =
  | { readonly ok: true; readonly identical: boolean; readonly differences: readonly Difference[]; readonly replayed: AddressedTrace }
  | { readonly ok: false; readonly error: SelectionError | { readonly code: 'MODULE_CHANGED' | 'TRACE_VERSION_UNSUPPORTED'; readonly message: string } };

export async function replayCycle(module: LoadedModule, recorded: AddressedTrace, options: ReplayOptions = {}): Promise<ReplayResult> {
  // A trace of another shape (recorded before trace 2.0.0: CHANGELOG.md) has its inputs elsewhere.
  if ((recorded as { readonly trace_version?: unknown }).trace_version !== TRACE_VERSION) {
    return { ok: false, error: { code: 'TRACE_VERSION_UNSUPPORTED', message: `decision ${recorded.decision_id} was recorded with trace version ${String((recorded as { readonly trace_version?: unknown }).trace_version)}; this adec replays trace version ${TRACE_VERSION}` } };
  }
  if (module.moduleHash !== recorded.scenario_hash) {
    return { ok: false, error: { code: 'MODULE_CHANGED', message: `decision ${recorded.decision_id} was made by module ${recorded.scenario_hash}, not ${module.moduleHash}` } };
  }
  const modelOutcome = recorded.stages.execute_skill?.output.SkillOutput.model_outcome ?? undefined;
  // The executor that stage 5 chose, if it chose a model (it may never have been asked: a
  // prompt that failed to render is replayed from the sandbox faults).
  const resolution = recorded.stages.resolve_skills?.output.SkillResolution ?? null;
  const modelExecutor = resolution !== null && resolution.executor_id !== DETERMINISTIC_EXECUTOR && resolution.executor_id !== NULL_SKILL ? resolution.executor_id : undefined;
  // A model was usable then (whether or not the selected action's skill needed it): the state
  // records it, so the replay must have one too.
  const modelUsable = recorded.stages.derive_state.output.UserState.execution_capabilities.llm_available;
  const { memory_read: memoryRead, input } = recorded.stages.derive_state;
  const replayed = await runCycle(module, recorded.stages.ingest.raw_request as unknown as CycleRequest, {
    ...options,
    // Stages 2–4 completed at decision time (a trace exists): a busy machine must not fail them now.
    timeLimitMs: options.timeLimitMs ?? REPLAY_TIME_LIMIT_MS,
    decisionId: recorded.decision_id,
    timestamp: recorded.timestamp,
    memory: { status: memoryRead.status, values: input.memory, outcome_ids: memoryRead.outcome_ids },
    // An LLM skill is replayed from its recorded outcome, so it needs an executor to stand for
    // the one that was available then; it is never called.
    executors: modelExecutor === undefined && !modelUsable ? [] : [{ id: modelExecutor ?? 'replay', type: recordedExecutorType(recorded), isAvailable: () => true, complete: async () => ({ ok: false, message: 'a replay never asks the model' }) }],
    ...(modelOutcome !== undefined && { recordedModelOutcome: modelOutcome }),
    recordedSandboxFaults: recorded.sandbox_faults,
  });
  if (!replayed.ok) return replayed;
  const differences = jsonDifferences(withoutTimings(recorded), withoutTimings(replayed.trace));
  return { ok: true, identical: differences.length === 0, differences, replayed: replayed.trace };
}

/** The kind of model executor the recorded decision used, which its response names. */
function recordedExecutorType(recorded: AddressedTrace): LlmExecutorType {
  const recordedType = recorded.final_decision?.execution.executor_id;
  return recordedType === 'cloud_llm' ? 'cloud_llm' : 'llm_stub';
}

const TIMING_KEYS = new Set(['duration_ms', 'execution_duration_ms', 'validation_duration_ms', 'total_duration_ms', 'selection_locked_at', 'content_address', 'signatures']);

/** The trace as JSON, without the keys that measure time (and the address and signatures that cover them). */
function withoutTimings(trace: AddressedTrace): unknown {
  return JSON.parse(JSON.stringify(trace), (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value));
}
