/**
 * Where a skill's `user_state` comes from (docs/spec/skill-contract.md §1): the engine fills
 * each field by name from the signals and derived state of the scenario that selected the
 * action, and a name the scenario lacks is null. Nothing fails at run time: the skill reads
 * null, and its templates fall through to `default`. So every scenario that hands actions to
 * the skill — an action type naming it, or naming a skill that falls back to it — must provide
 * each field, with a type the skill accepts (ADEC4027, at the field). An optional field may be
 * missing from some of those scenarios, not from all of them.
 */
import type { Span } from '@adec/diagnostics';
import { formatType, type RecordField } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import type { ScenarioInfo } from './check-scenario.js';
import type { SkillInfo } from './check-skill.js';
import { handsOver, skillUsers, type SkillUser } from './skill-users.js';
import { didYouMeanName } from './suggestions.js';
import { isAssignable, isWithinBounds } from './type-relations.js';

export function checkUserStateSources(scenarios: Iterable<ScenarioInfo>, skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): void {
  const users = skillUsers(scenarios, skills);
  for (const skill of skills.values()) {
    const usedBy = onePerScenario(users.get(skill.id) ?? []);
    if (usedBy.length === 0) continue;
    for (const field of skill.userState) {
      const span = skill.userStateSpans.get(field.name);
      if (span !== undefined) checkField(skill.id, field, span, usedBy, sink);
    }
  }
}

/** The state a skill reads is the scenario's: the first action type that reaches it there stands for the rest. */
function onePerScenario(users: readonly SkillUser[]): SkillUser[] {
  return users.filter((user, index) => users.findIndex((u) => u.scenario === user.scenario) === index);
}

function checkField(skill: string, field: RecordField, span: Span, usedBy: readonly SkillUser[], sink: DiagnosticSink): void {
  const provided = (user: SkillUser) => providerOf(user.scenario, field.name);
  const lacking = usedBy.filter((user) => provided(user) === undefined);
  const someProvide = lacking.length < usedBy.length;
  if (lacking.length > 0 && !(field.type.kind === 'optional' && someProvide)) {
    const names = lacking.map((user) => `\`${user.scenario.id}\``);
    const who = lacking.length === 1 ? `scenario ${names[0]} has` : `scenarios ${names.slice(0, -1).join(', ')} and ${names.at(-1)} have`;
    const candidates = lacking.flatMap((user) => [...user.scenario.signals, ...user.scenario.state].map((value) => value.name));
    sink.report(
      'ADEC4027',
      span,
      { skill, name: field.name, problem: `${who} no signal or state of that name, so it is always absent (null) there` },
      { notes: lacking.map(handsOver(skill)), ...didYouMeanName(field.name, candidates) },
    );
  }
  for (const user of usedBy) {
    const provider = provided(user);
    if (provider === undefined || (isAssignable(provider.value.type, field.type) && isWithinBounds(provider.value.type, field.type))) continue;
    const problem = `${provider.kind} \`${field.name}\` of scenario \`${user.scenario.id}\` is ${formatType(provider.value.type)}, the skill expects ${formatType(field.type)}`;
    sink.report('ADEC4027', span, { skill, name: field.name, problem }, { notes: [handsOver(skill)(user)] });
  }
}

function providerOf(scenario: ScenarioInfo, name: string): { kind: 'signal' | 'state'; value: RecordField } | undefined {
  const signal = scenario.signals.find((s) => s.name === name);
  if (signal !== undefined) return { kind: 'signal', value: signal };
  const state = scenario.state.find((s) => s.name === name);
  return state === undefined ? undefined : { kind: 'state', value: state };
}
