/**
 * Who hands actions to a skill: each action type that names it, or names a skill that falls
 * back to it (docs/spec/skill-contract.md §6: a fallback runs on the same selected action and
 * state, and reads its own input fields from them). What a skill reads — its `action_metadata`
 * and `user_state` — must be provided by every one of them.
 */
import type { ScenarioInfo, SkillUse } from './check-scenario.js';
import type { SkillInfo } from './check-skill.js';

/** A scenario hands the actions of one type to a skill through `use`; `via` is the skill that fell back to it, if any. */
export interface SkillUser {
  readonly scenario: ScenarioInfo;
  readonly use: SkillUse;
  readonly via?: string;
}

/** Each skill's users, one per scenario and action type. */
export function skillUsers(scenarios: Iterable<ScenarioInfo>, skills: ReadonlyMap<string, SkillInfo>): Map<string, SkillUser[]> {
  const users = new Map<string, SkillUser[]>();
  const add = (skill: string, user: SkillUser) => {
    const list = users.get(skill) ?? [];
    if (!list.some((u) => u.scenario === user.scenario && u.use.actionType === user.use.actionType)) users.set(skill, [...list, user]);
  };
  for (const scenario of scenarios) {
    for (const use of scenario.skillUses) {
      add(use.skill, { scenario, use });
      for (const fallback of fallbackChain(use.skill, skills)) add(fallback, { scenario, use, via: use.skill });
    }
  }
  return users;
}

/** The skills `start` falls back to, in order; stops at a cycle (reported by skill-fallbacks.ts). */
function fallbackChain(start: string, skills: ReadonlyMap<string, SkillInfo>): string[] {
  const chain: string[] = [];
  let next = skills.get(start)?.fallback?.name;
  while (next !== undefined && next !== start && !chain.includes(next) && skills.has(next)) {
    chain.push(next);
    next = skills.get(next)?.fallback?.name;
  }
  return chain;
}

/** "scenario `daily` hands action type `walk` to skill `pitch`, which falls back to `note`, at …". */
export function handsOver(skill: string): (user: SkillUser) => string {
  return ({ scenario, use, via }) => {
    const to = via === undefined ? `skill \`${skill}\`` : `skill \`${via}\`, which falls back to \`${skill}\``;
    return `scenario \`${scenario.id}\` hands action type \`${use.actionType}\` to ${to} at ${use.span.file}:${use.span.line}:${use.span.column}`;
  };
}
