/**
 * Stage 2's `UserState` (docs/spec/selection.md §3.2) from what the isolate derived: every
 * dimension is the scenario's (adec has no engine-wide `core` dimensions), and
 * `execution_capabilities` says what stage 5 may count on.
 */
import type { ExecutionMode } from '@adec/abi';
import type { NormalizedRequest } from '../selection-request.js';
import type { Selection } from '../selection-trace.js';
import type { LlmExecutor } from '../skills/executors/llm-executor.js';
import { usableModel } from '../skills/resolve-skill.js';
import type { UserState } from './cycle-record.js';
import type { MemoryInput } from './run-cycle.js';

export const USER_STATE_VERSION = '1.0.0';

/** The hard limits of a whole selection (docs/spec/selection.md 7.3), by execution mode. */
export const SELECTION_HARD_LIMIT_MS: Readonly<Record<ExecutionMode, number>> = { deterministic_only: 150, skill_enhanced: 600 };

export interface UserStateBasis {
  readonly normalized: NormalizedRequest;
  readonly selection: Selection;
  readonly memory: MemoryInput;
  readonly executors: readonly LlmExecutor[];
  readonly timestamp: string;
  readonly inputsHash: string;
}

export function userState({ normalized, selection, memory, executors, timestamp, inputsHash }: UserStateBasis): UserState {
  const derived = selection.stages.derive_state;
  return {
    state_version: USER_STATE_VERSION,
    core: {},
    scenario_extensions: { ...derived.signals, ...derived.state },
    execution_capabilities: {
      llm_available: usableModel(executors, normalized.conditions) !== null,
      max_latency_ms: SELECTION_HARD_LIMIT_MS[normalized.execution_mode],
      offline_mode: normalized.conditions.includes('offline_mode'),
    },
    computed_at: timestamp,
    inputs_hash: inputsHash,
    defaults_applied: derived.defaults_applied,
    memory_applied: normalized.memory_applied,
    memory_status: memory.status,
    failed_state: derived.failed_state,
  };
}
