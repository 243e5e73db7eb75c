/**
 * The full trace of one selection (docs/spec/selection.md §3.9 "Full Trace", with the trace
 * identity of docs/spec/contracts.md §4: `trace_id`, `schema_version`, `redaction_info`, `content_address`): every
 * stage's artifact, what the skill was given and what it answered, and the final decision. It
 * is what the audit store keeps and what a replay re-executes and compares against.
 */
import { jsonDigest } from '../json-digest.js';
import type { NormalizedRequest } from '../selection-request.js';
import type { DeriveStateStage, FunctionError, GuardrailStage, ModuleReference, ScoreAndRankStage, SelectionStatus } from '../selection-trace.js';
import type { SkillExecution } from '../skills/execute-skill.js';
import type { FallbackStage } from '../skills/fallback.js';
import type { SkillResolution } from '../skills/resolve-skill.js';
import type { SandboxFault } from '../skills/skill-crossings.js';
import type { ValidationResult } from '../skills/validate-output.js';
import type { DecisionResponse } from './decision-response.js';
import type { MemoryInput } from './run-cycle.js';

export const TRACE_VERSION = '1.0.0';

export type CycleOutcome = 'decided' | 'no_eligible_actions' | 'scoring_failed';

export interface ReasoningTrace {
  readonly trace_version: string;
  readonly trace_id: string;
  readonly decision_id: string;
  readonly request_id: string | null;
  readonly scenario_id: string;
  readonly scenario_version: string;
  /** The module's hash: the scenario as compiled, signed and approved. */
  readonly scenario_hash: string;
  readonly module: ModuleReference;
  readonly timestamp: string;
  readonly outcome: CycleOutcome;
  readonly stages: {
    /** The request as received (what a replay runs again) and as normalized against the scenario. */
    readonly ingest: { readonly input_hash: string; readonly raw_request: unknown; readonly request: NormalizedRequest };
    readonly derive_state: DeriveStateStage & { readonly inputs_hash: string; readonly memory: MemoryInput & { readonly applied: readonly string[] } };
    readonly evaluate_guardrails: GuardrailStage;
    readonly score_and_rank: ScoreAndRankStage & { readonly status: SelectionStatus; readonly selected_action: string | null; readonly selection_locked: boolean };
    readonly resolve_skills: SkillResolution | null;
    readonly execute_skill: SkillExecution | null;
    readonly validate_output: ValidationResult | null;
    readonly fallback: FallbackStage | null;
  };
  /**
   * Skill crossings of stages 6–8 that failed for the machine's reasons (time, memory, a
   * crash), with their place in the cycle: a replay reproduces them instead of running them.
   */
  readonly sandbox_faults: readonly SandboxFault[];
  /** Module functions that threw in stages 2–4. */
  readonly errors: readonly FunctionError[];
  /** What the skill was not given (docs/spec/skill-contract.md §1: only declared fields reach a skill). */
  readonly redaction_info: { readonly withheld_action_fields: readonly string[]; readonly withheld_state: readonly string[] } | null;
  /**
   * Milliseconds per stage. Stages 2–4 run in one sandbox crossing, timed inside it by the
   * host's clock, which only the trusted selection extension holds (module code has no clock).
   */
  readonly timings: {
    readonly ingest_ms: number;
    /** Stages 2–4 with their crossing into the isolate. */
    readonly derive_guardrails_score_ms: number;
    readonly derive_state_ms: number;
    readonly evaluate_guardrails_ms: number;
    readonly score_and_rank_ms: number;
    readonly resolve_skills_ms: number;
    readonly execute_skill_ms: number;
    readonly validate_output_ms: number;
    readonly fallback_ms: number;
    readonly total_ms: number;
  };
  readonly final_decision: DecisionResponse | null;
  readonly replay_token: string;
}

/** A trace with its content address: sha256 over its JSON text without the address. */
export type AddressedTrace = ReasoningTrace & { readonly content_address: string };

export function addressed(trace: ReasoningTrace): AddressedTrace {
  return { ...trace, content_address: jsonDigest(trace) };
}

export interface ReplayToken {
  readonly decision_id: string;
  readonly scenario_hash: string;
  readonly inputs_hash: string;
  readonly created_at: string;
}

/** The replay token of docs/spec/selection.md §3.9, as base64url JSON: opaque to clients, readable by the service. */
export function encodeReplayToken(token: ReplayToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

export function decodeReplayToken(text: string): ReplayToken | undefined {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ReplayToken>;
    const fields = [token.decision_id, token.scenario_hash, token.inputs_hash, token.created_at];
    return fields.every((field) => typeof field === 'string') ? (token as ReplayToken) : undefined;
  } catch {
    return undefined;
  }
}
