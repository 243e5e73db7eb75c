/**
 * Stage 5 (docs/spec/selection.md §3.5): which skill runs for the selected action, in which mode, on which
 * executor. The mode comes from the request's override, else the scenario's default (the
 * compiler writes the engine default, `deterministic_only`, when a scenario declares none). An
 * LLM skill runs only in `skill_enhanced` mode, with an executor available and no reported
 * condition that takes the model away (model-conditions.ts); otherwise its deterministic
 * fallback runs in its place, flagged. An action type without a skill, or with a skill the
 * module lacks, gets `null_skill`: an empty payload, no execution.
 */
import type { SkillResolution as SkillResolutionSchema, Wire } from '@adec/contracts';
import { MODEL_CONDITIONS } from '../model-conditions.js';
import type { LlmExecutor } from './executors/llm-executor.js';
import type { SkillCatalog, SkillContract } from './skill-catalog.js';
import type { ExecutionMode } from '../selection-request.js';

export const NULL_SKILL = 'null_skill';
export const DETERMINISTIC_EXECUTOR = 'deterministic';

/**
 * Stage 5's output (@adec/contracts). `mode_override` and `llm_unavailable`: the LLM skill's
 * deterministic fallback runs in its place (or `null_skill`, when it has none), flagged. No skill
 * mapped is `default` with `null_skill`; a mapped skill the module lacks is `default` with
 * `skill_found: false`, flagged `skill_error` (docs/spec/selection.md 3.5.3).
 */
export type SkillResolution = Wire<typeof SkillResolutionSchema>;
export type ResolutionReason = SkillResolution['resolution_reason'];

export interface ResolutionInput {
  readonly selectedAction: string;
  readonly mappedSkill: string | null;
  readonly mode: ExecutionMode;
  readonly conditions: readonly string[];
  readonly catalog: SkillCatalog;
  readonly executors: readonly LlmExecutor[];
}

export interface ResolvedSkill {
  readonly resolution: SkillResolution;
  readonly skill: SkillContract | null;
  readonly executor: LlmExecutor | null;
}

export function resolveSkill(input: ResolutionInput): ResolvedSkill {
  const base = { selected_action: input.selectedAction, mapped_skill_id: input.mappedSkill, execution_mode: input.mode, skill_found: true };
  if (input.mappedSkill === null) return nullSkill(base, 'default');
  const mapped = input.catalog.get(input.mappedSkill);
  if (mapped === undefined) return nullSkill({ ...base, skill_found: false }, 'default');
  if (mapped.type === 'deterministic') return deterministic(base, mapped, 'default', input.catalog);
  const executor = usableModel(input.executors, input.conditions);
  if (input.mode === 'skill_enhanced' && executor !== null) {
    return {
      resolution: { ...base, skill_bundle_id: mapped.id, skill_version: mapped.version, executor_id: executor.id, fallback_skill_id: deterministicFallback(mapped, input.catalog)?.id ?? null, resolution_reason: 'default' },
      skill: mapped,
      executor,
    };
  }
  const reason = input.mode === 'skill_enhanced' ? 'llm_unavailable' : 'mode_override';
  const fallback = deterministicFallback(mapped, input.catalog);
  return fallback === undefined ? nullSkill(base, reason) : deterministic(base, fallback, reason, input.catalog);
}

/** The executor an LLM skill would run on: the first available one, unless a reported condition takes the model away. */
export function usableModel(executors: readonly LlmExecutor[], conditions: readonly string[]): LlmExecutor | null {
  if (conditions.some((condition) => MODEL_CONDITIONS.includes(condition))) return null;
  return executors.find((candidate) => candidate.isAvailable()) ?? null;
}

/** A skill's fallback, when it is a deterministic skill of the module (docs/spec/skill-contract.md §6: tier 2). */
export function deterministicFallback(skill: SkillContract, catalog: SkillCatalog): SkillContract | undefined {
  const fallback = skill.fallback === null ? undefined : catalog.get(skill.fallback);
  return fallback !== undefined && fallback.type === 'deterministic' && fallback.id !== skill.id ? fallback : undefined;
}

type Base = Pick<SkillResolution, 'selected_action' | 'mapped_skill_id' | 'execution_mode' | 'skill_found'>;

function deterministic(base: Base, skill: SkillContract, reason: ResolutionReason, catalog: SkillCatalog): ResolvedSkill {
  return {
    resolution: { ...base, skill_bundle_id: skill.id, skill_version: skill.version, executor_id: DETERMINISTIC_EXECUTOR, fallback_skill_id: deterministicFallback(skill, catalog)?.id ?? null, resolution_reason: reason },
    skill,
    executor: null,
  };
}

function nullSkill(base: Base, reason: ResolutionReason): ResolvedSkill {
  return { resolution: { ...base, skill_bundle_id: NULL_SKILL, skill_version: null, executor_id: NULL_SKILL, fallback_skill_id: null, resolution_reason: reason }, skill: null, executor: null };
}
