/**
 * Where a skill's `action_metadata` comes from (docs/spec/skill-contract.md §1): the engine picks
 * each field by name from the selected action, and a name the action lacks is null. So every
 * action type that hands its actions to the skill — naming it, or naming a skill that falls back
 * to it — must have each field that is not optional, with a type and bounds the skill accepts
 * (ADEC4018). The skill's field is what reads a value that is not there: the error is reported at
 * it, with a note naming the action type, so a misspelled field is flagged where it was typed.
 */
import { formatType, type RecordField, type Type } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import type { ScenarioInfo } from './check-scenario.js';
import type { SkillInfo } from './check-skill.js';
import { handsOver, skillUsers, type SkillUser } from './skill-users.js';
import { didYouMeanName, didYouMeanValue } from './suggestions.js';
import { isAssignable, isWithinBounds, unwrapOptional } from './type-relations.js';

export function checkActionMetadataSources(scenarios: Iterable<ScenarioInfo>, skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): void {
  const users = skillUsers(scenarios, skills);
  for (const skill of skills.values()) {
    for (const user of users.get(skill.id) ?? []) {
      const fields = user.scenario.actionTypes.find((t) => t.name === user.use.actionType)?.fields ?? [];
      for (const wanted of skill.actionMetadata) checkField(skill, wanted, fields, user, sink);
    }
  }
}

function checkField(skill: SkillInfo, wanted: RecordField, fields: readonly RecordField[], user: SkillUser, sink: DiagnosticSink): void {
  const span = skill.actionMetadataSpans.get(wanted.name);
  if (span === undefined) return;
  const field = fields.find((f) => f.name === wanted.name);
  const report = (problem: string, suggestion: { help?: string } = {}) =>
    sink.report('ADEC4018', span, { actionType: user.use.actionType, skill: skill.id, problem }, { notes: [handsOver(skill.id)(user)], ...suggestion });
  if (field === undefined) {
    if (wanted.type.kind !== 'optional') report(`has no field \`${wanted.name}\``, didYouMeanName(wanted.name, fields.map((f) => f.name)));
  } else if (!isAssignable(field.type, wanted.type) || !isWithinBounds(field.type, wanted.type)) {
    report(`its field \`${wanted.name}\` is ${formatType(field.type)}, the skill expects ${formatType(wanted.type)}`, misspelledMember(field.type, wanted.type));
  }
}

/** For two enums: a member the skill spells unlike any of the action type's, close to one it lacks. */
function misspelledMember(provided: Type, wanted: Type): { help?: string } {
  const [given, read] = [unwrapOptional(provided), unwrapOptional(wanted)];
  if (given.kind !== 'enum' || read.kind !== 'enum') return {};
  const unread = given.members.filter((m) => !read.members.includes(m));
  const misspelled = read.members.filter((m) => !given.members.includes(m));
  return misspelled.length === 1 ? didYouMeanValue(misspelled[0]!, unread) : {};
}
