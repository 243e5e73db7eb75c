/**
 * The SEC input envelope (docs/spec/skill-contract.md §1): the only data a skill receives. It holds the selected
 * action's fields and the state values the skill declares it reads, nothing else (no raw user
 * data), so what a skill could leak is fixed at compile time. `action_metadata` and
 * `user_state` are also at the top, where the language's templates and invariants read them.
 */
import type { CandidateAction, ExecutionMode } from '../selection-request.js';
import type { Selection } from '../selection-trace.js';
import type { SkillContract } from './skill-catalog.js';

/** How many ranked options a skill sees (read-only context: it may not compare them). */
const RANKED_OPTIONS_SHOWN = 3;

export interface SkillInput {
  readonly decision_context: {
    readonly decision_id: string;
    readonly selected_action: string;
    readonly action_metadata: Readonly<Record<string, unknown>>;
    readonly ranked_options: readonly { readonly action_id: string; readonly score: number; readonly rank: number }[];
    readonly guardrails_applied: readonly string[];
  };
  readonly action_metadata: Readonly<Record<string, unknown>>;
  readonly user_state: Readonly<Record<string, unknown>>;
  readonly skill_config: {
    readonly skill_id: string;
    readonly skill_version: string;
    readonly execution_mode: ExecutionMode;
    readonly timeout_ms: number;
  };
}

export interface SkillInputBasis {
  readonly decisionId: string;
  readonly selection: Selection;
  readonly selected: CandidateAction;
  readonly mode: ExecutionMode;
  readonly timeoutMs: number;
}

export function skillInput(skill: SkillContract, basis: SkillInputBasis): SkillInput {
  const { selection, selected } = basis;
  const { signals, state } = selection.stages.derive_state;
  const env: Record<string, unknown> = { ...signals, ...state };
  const actionMetadata = pick(selected, skill.actionMetadataFields);
  return {
    decision_context: {
      decision_id: basis.decisionId,
      selected_action: selected.action_id,
      action_metadata: actionMetadata,
      ranked_options: selection.stages.score_and_rank.ranking.slice(0, RANKED_OPTIONS_SHOWN).map((ranked) => ({ action_id: ranked.action_id, score: ranked.final_score, rank: ranked.rank })),
      guardrails_applied: selection.stages.evaluate_guardrails.guardrails.filter((guardrail) => guardrail.fired).map((guardrail) => guardrail.id),
    },
    action_metadata: actionMetadata,
    user_state: pick(env, skill.userStateFields),
    skill_config: { skill_id: skill.id, skill_version: skill.version, execution_mode: basis.mode, timeout_ms: basis.timeoutMs },
  };
}

/** The named values of `from`; a name it lacks is null (an absent optional value). */
function pick(from: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) picked[name] = Object.hasOwn(from, name) ? from[name] : null;
  return picked;
}
