/**
 * Stage 8 (docs/spec/selection.md §3.8; docs/spec/skill-contract.md §6): when the skill's output cannot be used, the payload comes from
 * its deterministic fallback skill (tier 2), validated like any output; when there is none, or
 * it fails too, from the minimal safe output (tier 3): an empty payload, which enriches
 * nothing and so cannot say anything wrong. The selected action is never touched: a fallback
 * changes how the decision is explained, not what it is. Always flagged with its reason.
 */
import type { FallbackOutput, Wire } from '@adec/contracts';
import type { ExecutionMode } from '../selection-request.js';
import { executeSkill, type SkillExecution } from './execute-skill.js';
import type { SkillCatalog } from './skill-catalog.js';
import type { SkillCrossings } from './skill-crossings.js';
import { skillInput, type SkillInputBasis } from './skill-input.js';
import { validateOutput, type ValidationContext, type ValidationResult } from './validate-output.js';

/** What can send stage 6 or 7 to stage 8. */
export type FallbackReason = 'timeout' | 'executor_error' | 'validation_failed' | 'prohibited_content';

/** Tier 3: nothing but the selection, which needs no words to be lawful. */
export const MINIMAL_SAFE_PAYLOAD: Readonly<Record<string, never>> = Object.freeze({});

/** Stage 8's output (@adec/contracts `FallbackOutput`). */
export type FallbackStage = Wire<typeof FallbackOutput>;

export interface FallbackRequest {
  readonly crossings: SkillCrossings;
  readonly catalog: SkillCatalog;
  readonly fallbackSkillId: string | null;
  readonly reason: FallbackReason;
  readonly basis: Omit<SkillInputBasis, 'timeoutMs'>;
  readonly mode: ExecutionMode;
  readonly generatedAt: string;
  readonly validation: Omit<ValidationContext, 'skill' | 'input' | 'crossings'>;
}

export async function fallBack(request: FallbackRequest): Promise<FallbackStage> {
  const base = { fallback_used: true as const, fallback_reason_code: request.reason, fallback_skill_id: request.fallbackSkillId };
  const minimal = (execution: SkillExecution | null, validation: ValidationResult | null, failure: string): FallbackStage => ({
    ...base,
    payload: MINIMAL_SAFE_PAYLOAD,
    tier: 3,
    tier_2_failure: failure,
    execution,
    validation,
  });
  const skill = request.fallbackSkillId === null ? undefined : request.catalog.get(request.fallbackSkillId);
  if (skill === undefined) return minimal(null, null, 'the skill has no deterministic fallback');
  const input = skillInput(skill, { ...request.basis, timeoutMs: skill.timeoutMs });
  const execution = await executeSkill({ crossings: request.crossings, skill, input, mode: request.mode, executor: null, generatedAt: request.generatedAt });
  if (execution.status !== 'completed') return minimal(execution, null, `the fallback skill did not complete (${execution.status}): ${execution.message}`);
  const validation = await validateOutput(execution, { ...request.validation, crossings: request.crossings, skill, input });
  if (!validation.valid) return minimal(execution, validation, `the fallback skill's output failed validation: ${validation.failures.map((f) => `${f.id} at ${f.path}`).join(', ')}`);
  return { ...base, payload: execution.payload as FallbackStage['payload'], tier: 2, tier_2_failure: null, execution, validation };
}
