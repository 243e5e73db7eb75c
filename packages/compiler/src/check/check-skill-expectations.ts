/**
 * A selection test's skill part: `model_reply { … }`, `expect skill output { … }` and
 * `expect skill validation …` (docs/language-guide.md §13.4). They are about the skill the
 * selected action's type names, so they need the test to expect that action selected, and
 * that type to have a skill. Each expected field is a field of that skill's `output` (or, for
 * an llm skill, of its fallback's, whose payload the response carries when the model is not
 * asked or fails), with a value of its type; each check a validation is expected to fail is one
 * stage 7 can report. So a test that could never pass is refused here, not under `adec test`.
 */
import type { Span } from '@adec/diagnostics';
import type { SkillOutputExpectation, Value, ValueRecord } from '@adec/grammar';
import type { CheckedSkill, JsonValue, RecordField, SkillExpectation, SkillOutputCheck, Type } from '../model/index.js';
import { formatType } from '../model/index.js';
import { repeatedRecordKey, type DiagnosticSink } from './checker-context.js';
import type { ScenarioInfo } from './check-scenario.js';
import type { ExpectMember, MemberLookup, MemberOf } from './check-test.js';
import { checkLiteral, literalFromValue } from './literal-values.js';
import { checkRecordValues } from './test-record-values.js';
import { SEC_CHECK_NAMES } from './sec-check-names.js';
import { didYouMeanName } from './suggestions.js';

/** What the test runner needs beyond the selection; undefined after an error was reported. */
export interface CheckedSkillPart {
  readonly modelReply?: { readonly [key: string]: JsonValue };
  readonly expectSkill?: SkillExpectation;
}

export function checkSkillExpectations(
  test: string,
  scenario: ScenarioInfo,
  actionsMember: MemberOf<'TestActions'> | undefined,
  expect: ExpectMember | undefined,
  member: MemberLookup,
  skills: ReadonlyMap<string, CheckedSkill>,
  sink: DiagnosticSink,
): CheckedSkillPart | undefined {
  const output = member('TestExpectSkillOutput');
  const validation = member('TestExpectSkillValidation');
  const reply = member('TestModelReply');
  const first = [output, validation, reply].filter((m) => m !== undefined).sort((a, b) => a.span.offset - b.span.offset)[0];
  if (first === undefined) return {};
  if (expect === undefined || expect.kind === 'TestExpectStatus') return undefined;
  if (expect.kind === 'TestExpectNoEligible') {
    sink.report('ADEC4030', first.span, { test, problem: 'expects NO_ELIGIBLE_ACTIONS, so no action is selected and no skill runs' }, { help: 'a skill is tested in a test that expects `selected "<action_id>"`' });
    return undefined;
  }
  const actionType = selectedActionType(expect.actionId.value, actionsMember, scenario);
  if (actionType === undefined) return undefined; // no such candidate, or no such type: reported with the candidates
  if (actionType.skill === undefined) {
    sink.report('ADEC4030', first.span, { test, problem: `expects \`${expect.actionId.value}\` selected, a \`${actionType.name}\`, and action type \`${actionType.name}\` names no skill` }, { help: `add \`skill <name>\` to \`action_type ${actionType.name}\` in scenario \`${scenario.id}\`` });
    return undefined;
  }
  const skill = skills.get(actionType.skill.name);
  // A skill with errors of its own was reported where it is declared.
  if (skill === undefined) return undefined;
  const fallback = skill.fallback === undefined ? undefined : skills.get(skill.fallback);
  let valid = true;
  if (reply !== undefined && skill.type !== 'llm') {
    sink.report('ADEC4030', reply.span, { test, problem: `gives a model_reply, but skill \`${skill.id}\` is deterministic and asks no model` });
    valid = false;
  } else if (reply !== undefined && scenario.defaultMode === 'deterministic_only') {
    // A test's request names no mode, so the scenario's decides: its fallback answers, the reply is never read.
    sink.report('ADEC4030', reply.span, { test, problem: `gives a model_reply, but scenario \`${scenario.id}\` runs its skills \`deterministic_only\`, so no model is asked` }, { help: 'a model is asked only under `default_mode skill_enhanced` (a scenario without `default_mode` is `deterministic_only`)' });
    valid = false;
  }
  const outputChecks = output === undefined ? undefined : checkOutputFields(output.fields, test, skill, fallback, sink);
  const validationCheck = validation === undefined ? undefined : checkValidation(validation, skill, fallback, sink);
  if (valid && reply !== undefined && validationCheck?.passed === true && !replyFitsOutput(reply.value, test, skill, sink)) valid = false;
  if (!valid || (output !== undefined && outputChecks === undefined) || (validation !== undefined && validationCheck === undefined)) return undefined;
  const expectSkill: SkillExpectation | undefined =
    output === undefined && validation === undefined ? undefined : { skill: skill.id, ...(outputChecks !== undefined && { output: outputChecks }), ...(validationCheck !== undefined && { validation: validationCheck }) };
  // A model may answer anything: the reply is the data under test, judged by stage 7; here only
  // when the test expects it to pass, which a reply outside the output's schema never does.
  return { ...(reply !== undefined && { modelReply: recordJson(reply.value) }), ...(expectSkill !== undefined && { expectSkill }) };
}

/**
 * A reply a test expects to pass validation fits the llm skill's output schema: stage 7's
 * `schema_valid` admits no field the output does not declare, leaves out no required one, and
 * holds each value to its type, range and length (docs/spec/skill-contract.md §2). A reply that
 * misses it can only fail, so the test could never pass: each problem is reported at the reply.
 */
function replyFitsOutput(reply: ValueRecord, test: string, skill: CheckedSkill, sink: DiagnosticSink): boolean {
  const names = skill.output.map((f) => f.name);
  const checked = checkRecordValues(reply, test, sink, (key) => {
    const field = skill.output.find((f) => f.name === key.name);
    if (field === undefined) sink.report('ADEC4031', key.span, { skill: skill.id, name: key.name }, { ...didYouMeanName(key.name, names), notes: [EXPECTS_PASSED] });
    return field?.type;
  });
  if (checked === undefined) return false;
  const missing = skill.output.filter((f) => f.type.kind !== 'optional' && !(f.name in checked));
  for (const field of missing) sink.report('ADEC4003', reply.span, { clause: field.name, owner: `the model_reply of test \`${test}\`` }, { notes: [EXPECTS_PASSED] });
  return missing.length === 0;
}

const EXPECTS_PASSED = 'the test expects `skill validation passed`, and a reply outside the output schema fails `schema_valid`; a test of that failure expects `skill validation failed "schema_valid"`';

/** The action type of the candidate `actionId`, read from the source (a candidate with a wrong value still has its type). */
function selectedActionType(actionId: string, actionsMember: MemberOf<'TestActions'> | undefined, scenario: ScenarioInfo) {
  const candidate = actionsMember?.value.items.find((item) => item.kind === 'ValueRecord' && item.entries.some((e) => e.key.name === 'action_id' && e.value.kind === 'ValueScalar' && e.value.value === actionId));
  if (candidate?.kind !== 'ValueRecord') return undefined;
  const typeValue = candidate.entries.find((e) => e.key.name === 'type')?.value;
  return typeValue?.kind === 'ValueScalar' ? scenario.actionTypes.find((t) => t.name === typeValue.value) : undefined;
}

/** A value as the JSON it spells, whatever its type: what a model's reply holds is stage 7's to judge. */
function recordJson(record: ValueRecord): { [key: string]: JsonValue } {
  return Object.fromEntries(record.entries.map((e) => [e.key.name, valueJson(e.value)]));
}

function valueJson(value: Value): JsonValue {
  if (value.kind === 'ValueScalar') return value.value;
  return value.kind === 'ValueList' ? value.items.map(valueJson) : recordJson(value);
}

/** The fields a payload of this skill can have: its own output's, then its fallback's it does not declare. */
function payloadFields(skill: CheckedSkill, fallback: CheckedSkill | undefined): RecordField[] {
  const own = new Set(skill.output.map((f) => f.name));
  return [...skill.output, ...(fallback?.output.filter((f) => !own.has(f.name)) ?? [])];
}

function checkOutputFields(fields: readonly SkillOutputExpectation[], test: string, skill: CheckedSkill, fallback: CheckedSkill | undefined, sink: DiagnosticSink): SkillOutputCheck[] | undefined {
  const known = payloadFields(skill, fallback);
  const seen = new Map<string, Span>();
  const checks: SkillOutputCheck[] = [];
  let valid = true;
  for (const entry of fields) {
    const name = entry.key.name;
    if (repeatedRecordKey(entry.key, seen, sink)) {
      valid = false;
      continue;
    }
    const field = known.find((f) => f.name === name);
    if (field !== undefined) sink.recorder?.refer(entry.key.span, sink.recorder.fieldTargets(field));
    if (field === undefined) {
      if (name !== '') sink.report('ADEC4031', entry.key.span, { skill: skill.id, name }, didYouMeanName(name, known.map((f) => f.name)));
      valid = false;
      continue;
    }
    const value = entry.match === 'contains' ? checkContains(entry, field.type, sink) : checkLiteral(literalFromValue(entry.value), field.type, sink, { test });
    if (value === undefined) valid = false;
    else checks.push({ field: name, match: entry.match, value });
  }
  return valid ? checks : undefined;
}

/** `note CONTAINS "…"` reads text: the field holds a string (an enum member is one too). */
function checkContains(entry: SkillOutputExpectation, type: Type, sink: DiagnosticSink): JsonValue | undefined {
  const inner = type.kind === 'optional' ? type.inner : type;
  if (inner.kind === 'string' || inner.kind === 'enum') return entry.value.kind === 'ValueScalar' ? entry.value.value : null;
  sink.report('ADEC3001', entry.key.span, { expected: 'a string field (`CONTAINS` reads text)', found: formatType(type) }, { label: `\`${entry.key.name}\` is ${formatType(type)}`, help: `compare it exactly instead: \`${entry.key.name}: …\`` });
  return undefined;
}

function checkValidation(validation: MemberOf<'TestExpectSkillValidation'>, skill: CheckedSkill, fallback: CheckedSkill | undefined, sink: DiagnosticSink): SkillExpectation['validation'] | undefined {
  if (validation.passed) return { passed: true };
  const own = [skill, ...(fallback === undefined ? [] : [fallback])].flatMap((s) => [...s.invariants.map((i) => i.id), ...s.prohibitions.map((p) => p.id)]);
  const known = [...own, ...SEC_CHECK_NAMES];
  let valid = true;
  for (const check of validation.checks) {
    if (known.includes(check.value)) continue;
    sink.report('ADEC4032', check.span, { skill: skill.id, id: check.value }, didYouMeanName(check.value, known));
    valid = false;
  }
  return valid ? { passed: false, checks: validation.checks.map((c) => c.value) } : undefined;
}
