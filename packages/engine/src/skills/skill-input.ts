/**
 * The SEC input envelope (docs/spec/skill-contract.md §1; @adec/contracts `SkillInputEnvelope`):
 * the only data a skill receives. It holds the selected action's fields and the state values
 * the skill declares it reads, nothing else (no raw user data), so what a skill could leak is
 * fixed at compile time.
 */
import { CHECKING_CONTRACTS, contractProblems, RANKED_OPTIONS_SHOWN, SkillInputEnvelope, type Wire } from '@adec/contracts';
import type { CandidateAction, ExecutionMode } from '../selection-request.js';
import type { Selection } from '../selection-trace.js';
import type { SkillContract } from './skill-catalog.js';

export type SkillInput = Wire<typeof SkillInputEnvelope>;

/**
 * The roots the language's templates, prompts and invariants read (docs/spec/skill-contract.md
 * §9): an author writes `action_metadata.title` and `user_state.streak`, which are the
 * envelope's `decision_context.action_metadata` and `user_state.scenario_extensions`.
 */
export interface ModuleSkillInput {
  readonly decision_context: SkillInput['decision_context'];
  readonly action_metadata: SkillInput['decision_context']['action_metadata'];
  readonly user_state: SkillInput['user_state']['scenario_extensions'];
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
  const input: SkillInput = {
    decision_context: {
      decision_id: basis.decisionId,
      selected_action: selected.action_id,
      action_metadata: pick(selected, skill.actionMetadataFields),
      ranked_options: selection.stages.score_and_rank.ranking.slice(0, RANKED_OPTIONS_SHOWN).map((ranked) => ({ action_id: ranked.action_id, score: ranked.final_score, rank: ranked.rank })),
      guardrails_applied: selection.stages.evaluate_guardrails.guardrails.filter((guardrail) => guardrail.fired).map((guardrail) => guardrail.id),
    },
    user_state: { core: {}, scenario_extensions: pick({ ...signals, ...state }, skill.userStateFields) },
    skill_config: { skill_id: skill.id, skill_version: skill.version, execution_mode: basis.mode, timeout_ms: basis.timeoutMs },
  };
  if (CHECKING_CONTRACTS) {
    const problems = contractProblems(SkillInputEnvelope, input);
    if (problems.length > 0) throw new Error(`adec bug: the input of skill \`${skill.id}\` breaks its contract: ${problems.join('; ')}`);
  }
  return input;
}

export function moduleSkillInput(input: SkillInput): ModuleSkillInput {
  return { decision_context: input.decision_context, action_metadata: input.decision_context.action_metadata, user_state: input.user_state.scenario_extensions };
}

/** The named values of `from`; a name it lacks is null (an absent optional value). */
function pick(from: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) picked[name] = Object.hasOwn(from, name) ? from[name] : null;
  return picked;
}
