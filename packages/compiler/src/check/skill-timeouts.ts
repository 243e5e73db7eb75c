/**
 * Skill time budgets (docs/spec/skill-contract.md §5): a timeout that triggers the fallback and a hard limit at
 * which execution is terminated. Defaults per type come from the SEC's table, and its hard
 * limits (deterministic 50ms, llm 500ms) bound both: a longer budget would hold the cycle past
 * what the contract promises.
 */
import { SKILL_TIME_LIMITS, type SkillType } from '@adec/abi';
import type { SkillMember } from '@adec/grammar';
import type { DiagnosticSink } from './checker-context.js';

/** The SEC's defaults (@adec/abi, where the engine reads its limits too). */
const DEFAULT_BUDGETS: { readonly [Type in SkillType]: SkillBudget } = {
  deterministic: { timeoutMs: SKILL_TIME_LIMITS.deterministic.defaultTimeoutMs, hardLimitMs: SKILL_TIME_LIMITS.deterministic.hardLimitMs },
  llm: { timeoutMs: SKILL_TIME_LIMITS.llm.defaultTimeoutMs, hardLimitMs: SKILL_TIME_LIMITS.llm.hardLimitMs },
};

export interface SkillBudget {
  readonly timeoutMs: number;
  readonly hardLimitMs: number;
}

/** docs/spec/skill-contract.md §6: a fallback answers in under 20ms, the deterministic default timeout. */
export const FALLBACK_TIMEOUT_MS = DEFAULT_BUDGETS.deterministic.timeoutMs;

export function checkSkillTimeouts(
  member: Extract<SkillMember, { kind: 'SkillTimeout' }> | undefined,
  type: 'llm' | 'deterministic' | undefined,
  sink: DiagnosticSink,
): SkillBudget {
  const defaults = DEFAULT_BUDGETS[type ?? 'deterministic'];
  if (member === undefined) return defaults;
  const { timeout, hardLimit } = member;
  // An unreadable duration was reported by the parser; fall back to the defaults.
  if (Number.isNaN(timeout.milliseconds) || (hardLimit !== undefined && Number.isNaN(hardLimit.milliseconds))) return defaults;
  if (timeout.milliseconds <= 0) sink.report('ADEC4017', timeout.span, { problem: `\`${timeout.text}\` must be greater than 0` });
  for (const duration of [timeout, hardLimit]) {
    if (duration !== undefined && type !== undefined && duration.milliseconds > defaults.hardLimitMs) {
      sink.report('ADEC4017', duration.span, { problem: `\`${duration.text}\` exceeds the ${defaults.hardLimitMs}ms hard limit of ${type === 'llm' ? 'an llm' : 'a deterministic'} skill (docs/spec/skill-contract.md §5)` });
    }
  }
  if (hardLimit === undefined) {
    return { timeoutMs: timeout.milliseconds, hardLimitMs: Math.max(timeout.milliseconds, defaults.hardLimitMs) };
  }
  if (hardLimit.milliseconds < timeout.milliseconds) {
    sink.report('ADEC4017', hardLimit.span, { problem: `hard_limit \`${hardLimit.text}\` is shorter than timeout \`${timeout.text}\`` });
  }
  return { timeoutMs: timeout.milliseconds, hardLimitMs: hardLimit.milliseconds };
}
