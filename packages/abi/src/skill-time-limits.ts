/**
 * A skill's time limits (docs/spec/skill-contract.md §5), in one place for the three that need
 * them: the compiler, which refuses a contract asking for more (ADEC4017) and fills in the
 * defaults; the engine, which gives a skill up at its limit whatever a module says; and the
 * skill's contract document, which states the limits the engine enforces.
 */
import type { SkillType } from './selection-registries.js';

export interface SkillTimeLimits {
  /** The timeout a contract gets when it declares none. */
  readonly defaultTimeoutMs: number;
  /** No contract of this type can give a skill more. */
  readonly hardLimitMs: number;
}

export const SKILL_TIME_LIMITS: { readonly [Type in SkillType]: SkillTimeLimits } = {
  deterministic: { defaultTimeoutMs: 20, hardLimitMs: 50 },
  llm: { defaultTimeoutMs: 300, hardLimitMs: 500 },
};

export const DETERMINISTIC_HARD_LIMIT_MS = SKILL_TIME_LIMITS.deterministic.hardLimitMs;
export const LLM_HARD_LIMIT_MS = SKILL_TIME_LIMITS.llm.hardLimitMs;

/** What a skill's contract declares (a module's `_SKILLS` entry, the compiler's checked skill). */
export interface DeclaredSkillTimes {
  readonly type: SkillType;
  readonly timeoutMs: number;
  readonly hardLimitMs: number;
}

/**
 * The limits the engine enforces: the declared hard limit, never above its type's; and the
 * timeout, never above that. At the timeout the skill is given up and its fallback runs.
 */
export function enforcedSkillTimeLimits(skill: DeclaredSkillTimes): { readonly timeoutMs: number; readonly hardLimitMs: number } {
  const hardLimitMs = Math.min(skill.hardLimitMs, SKILL_TIME_LIMITS[skill.type].hardLimitMs);
  return { timeoutMs: Math.min(skill.timeoutMs, hardLimitMs), hardLimitMs };
}
