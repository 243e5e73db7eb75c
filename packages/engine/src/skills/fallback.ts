/**
 * Stage 8 (docs/spec/selection.md §3.8; docs/spec/skill-contract.md §6): when the skill's output cannot be used, the payload comes from
 * its deterministic fallback skill (tier 2), validated like any output; when there is none, or
 * it fails too, from the minimal safe output (tier 3): an empty payload, which enriches
 * nothing and so cannot say anything wrong. The selected action is never touched: a fallback
 * changes how the decision is explained, not what it is. Always flagged with its reason.
 */
import type { ExecutionMode } from '../selection-request.js';
import { jsonDigest } from '../json-digest.js';
import { executeSkill, type SkillExecution } from './execute-skill.js';
import type { SkillCatalog } from './skill-catalog.js';
import type { SkillCrossings } from './skill-crossings.js';
import { skillInput, type SkillInputBasis } from './skill-input.js';
import { validateOutput, type ValidationContext, type ValidationFailure, type ValidationResult } from './validate-output.js';

export type FallbackReason = 'timeout' | 'executor_error' | 'validation_failed' | 'prohibited_content';

/** Tier 3: nothing but the selection, which needs no words to be lawful. */
export const MINIMAL_SAFE_PAYLOAD: Readonly<Record<string, never>> = Object.freeze({});

export interface FallbackStage {
  readonly trigger_reason: FallbackReason;
  readonly original_validation_errors: readonly ValidationFailure[];
  readonly tier: 2 | 3;
  /** The deterministic skill tried at tier 2; null when there was none to try. */
  readonly fallback_skill_id: string | null;
  readonly execution: SkillExecution | null;
  readonly validation: ValidationResult | null;
  /** Why tier 2 was not used, when the result is tier 3. */
  readonly tier_2_failure: string | null;
  readonly payload: unknown;
  readonly payload_hash: string;
  readonly duration_ms: number;
}

export interface FallbackRequest {
  readonly crossings: SkillCrossings;
  readonly catalog: SkillCatalog;
  readonly fallbackSkillId: string | null;
  readonly reason: FallbackReason;
  readonly originalErrors: readonly ValidationFailure[];
  readonly basis: Omit<SkillInputBasis, 'timeoutMs'>;
  readonly mode: ExecutionMode;
  readonly validation: Omit<ValidationContext, 'skill' | 'input' | 'crossings'>;
}

export async function fallBack(request: FallbackRequest): Promise<FallbackStage> {
  const started = performance.now();
  const base = { trigger_reason: request.reason, original_validation_errors: request.originalErrors, fallback_skill_id: request.fallbackSkillId };
  const minimal = (execution: SkillExecution | null, validation: ValidationResult | null, failure: string): FallbackStage => ({
    ...base,
    tier: 3,
    execution,
    validation,
    tier_2_failure: failure,
    payload: MINIMAL_SAFE_PAYLOAD,
    payload_hash: jsonDigest(MINIMAL_SAFE_PAYLOAD),
    duration_ms: performance.now() - started,
  });
  const skill = request.fallbackSkillId === null ? undefined : request.catalog.get(request.fallbackSkillId);
  if (skill === undefined) return minimal(null, null, 'the skill has no deterministic fallback');
  const input = skillInput(skill, { ...request.basis, timeoutMs: skill.timeoutMs });
  const execution = await executeSkill({ crossings: request.crossings, skill, input, mode: request.mode, executor: null });
  if (execution.status !== 'completed') return minimal(execution, null, `the fallback skill did not complete (${execution.status}): ${execution.message}`);
  const validation = await validateOutput(execution.payload, { ...request.validation, crossings: request.crossings, skill, input });
  if (!validation.valid) return minimal(execution, validation, `the fallback skill's output failed validation: ${validation.failures.map((f) => `${f.id} at ${f.path}`).join(', ')}`);
  return { ...base, tier: 2, execution, validation, tier_2_failure: null, payload: execution.payload, payload_hash: execution.payload_hash ?? jsonDigest(execution.payload), duration_ms: performance.now() - started };
}
