/**
 * Golden tests: an adjudication test names an action, its context and the expected
 * status (and rule); a selection test names a scenario, its signals, candidate actions and
 * the expected selection. Values are checked against the declared types, ranges and lengths,
 * and every required value must be given, so a test cannot silently exercise a misspelled
 * attribute or a request the runtime refuses: such a test would only ever see the fail-safe
 * YELLOW of a refused context, whatever its rules say.
 */
import { closestMatch, type Span } from '@adec/diagnostics';
import type { TestDecl, TestMember, Value, ValueRecord } from '@adec/grammar';
import { RULE_OUTCOMES, type CheckedSkill, type CheckedTest, type JsonValue, type RecordField, type RuleOutcome } from '../model/index.js';
import { bindingOnlySink, firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import type { ActionInfo } from './check-action.js';
import { SYSTEM_ATTRIBUTE_TYPES, type DeclaredAttribute } from './check-context.js';
import type { ScenarioInfo } from './check-scenario.js';
import { checkDecisionExpectations } from './check-test-expectations.js';
import { checkSkillExpectations } from './check-skill-expectations.js';
import { checkRecordValues } from './test-record-values.js';
import { unmatchableRules } from './outcome-in-context.js';
import { checkLiteral, describeLiteral, literalFromValue } from './literal-values.js';
import { asOutcome, outcomeHelp } from './spellings.js';
import { didYouMeanName, suggestName } from './suggestions.js';
import { CANDIDATE_BUILTIN_FIELDS } from './candidate-action.js';
import { declarationAt } from './name-bindings.js';

export type MemberOf<K extends TestMember['kind']> = Extract<TestMember, { kind: K }>;
export type ExpectMember = MemberOf<'TestExpectStatus' | 'TestExpectSelected' | 'TestExpectNoEligible'>;

const MEMBER_CLAUSES: Readonly<Record<TestMember['kind'], string>> = {
  TestAction: 'action',
  TestScenario: 'scenario',
  TestContext: 'context',
  TestSystem: 'system',
  TestSignals: 'signals',
  TestActions: 'actions',
  TestExpectStatus: 'expect',
  TestExpectReason: 'expect reason',
  TestExpectWorkFrame: 'expect work_frame',
  TestExpectMissingEvidence: 'expect missing_evidence',
  TestExpectSelected: 'expect',
  TestExpectNoEligible: 'expect',
  TestModelReply: 'model_reply',
  TestExpectSkillOutput: 'expect skill output',
  TestExpectSkillValidation: 'expect skill validation',
};
const ADJUDICATION_ONLY: readonly TestMember['kind'][] = ['TestContext', 'TestSystem', 'TestExpectStatus', 'TestExpectReason', 'TestExpectWorkFrame', 'TestExpectMissingEvidence'];
const SELECTION_ONLY: readonly TestMember['kind'][] = ['TestSignals', 'TestActions', 'TestExpectSelected', 'TestExpectNoEligible', 'TestModelReply', 'TestExpectSkillOutput', 'TestExpectSkillValidation'];

export interface TestEnvironment {
  readonly actions: ReadonlyMap<string, ActionInfo>;
  readonly scenarios: ReadonlyMap<string, ScenarioInfo>;
  /** The skills that checked without errors, for a selection test's `expect skill …`. */
  readonly skills: ReadonlyMap<string, CheckedSkill>;
  readonly onUse: (attribute: DeclaredAttribute) => void;
}

export function checkTests(decls: readonly TestDecl[], env: TestEnvironment, sink: DiagnosticSink): CheckedTest[] {
  const seen = new Map<string, Span>();
  return decls.flatMap((decl) => {
    sink.recorder?.declare('test', decl.name.value, decl.name.span);
    const first = seen.get(decl.name.value);
    if (first !== undefined) sink.report('ADEC2010', decl.name.span, { kind: 'test', name: decl.name.value }, { notes: [firstDeclaredAt(first)] });
    else seen.set(decl.name.value, decl.name.span);
    return checkTest(decl, env, sink) ?? [];
  });
}

function checkTest(decl: TestDecl, env: TestEnvironment, sink: DiagnosticSink): CheckedTest | undefined {
  const test = decl.name.value;
  const owner = `test \`${test}\``;
  const first = new Map<string, TestMember>();
  for (const member of decl.members) {
    const clause = MEMBER_CLAUSES[member.kind];
    const earlier = first.get(clause);
    if (earlier !== undefined) sink.report('ADEC4009', member.span, { clause, owner }, { notes: [firstDeclaredAt(earlier.span)] });
    else first.set(clause, member);
  }
  const member: MemberLookup = (kind) => {
    const found = first.get(MEMBER_CLAUSES[kind]);
    return found?.kind === kind ? (found as MemberOf<typeof kind>) : undefined;
  };
  const expect = first.get('expect') as ExpectMember | undefined;
  const action = member('TestAction');
  const scenario = member('TestScenario');
  // Two tests run together while the author types between them: the second one's members are
  // repeats, which name what the first one's `action` or `scenario` does unless they repeat it.
  const bindingOnly = bindingOnlySink(sink);
  // What is walked for the bindings only uses no attribute: the unused-attribute warnings stay the checker's.
  const bindingEnv: TestEnvironment = { ...env, onUse: () => undefined };
  const repeated = decl.members.filter((m) => first.get(MEMBER_CLAUSES[m.kind]) !== m);
  if (bindingOnly !== undefined && repeated.length > 0) {
    const subject = repeated.some((m) => m.kind === 'TestAction' || m.kind === 'TestScenario') ? [] : [action, scenario].filter((m) => m !== undefined);
    checkTest({ ...decl, members: [...subject, ...repeated] }, bindingEnv, bindingOnly);
  }
  if (action !== undefined && scenario !== undefined) {
    sink.report('ADEC4026', scenario.span, { test, problem: 'names both an action and a scenario: an adjudication test names an action, a selection test a scenario' });
    if (bindingOnly !== undefined) {
      checkAdjudicationTest(decl, action, member, expect, bindingEnv, bindingOnly);
      checkSelectionTest(decl, scenario, member, expect, bindingEnv, bindingOnly);
    }
    return undefined;
  }
  if (action === undefined && scenario === undefined) {
    sink.report('ADEC4003', decl.name.span, { clause: 'action` or `scenario', owner });
    if (bindingOnly !== undefined) {
      checkSystemValues(member('TestSystem'), test, undefined, bindingOnly);
      checkCandidateIds(test, member('TestActions'), expect, bindingOnly);
    }
    return undefined;
  }
  const [kindName, foreign] = action !== undefined ? ['an adjudication', SELECTION_ONLY] : ['a selection', ADJUDICATION_ONLY];
  for (const m of decl.members.filter((m) => foreign.includes(m.kind))) {
    sink.report('ADEC4026', m.span, { test, problem: `is ${kindName} test, which takes no \`${MEMBER_CLAUSES[m.kind]}\`` }, selectionExpectHelp(m));
  }
  if (expect === undefined) sink.report('ADEC4003', decl.name.span, { clause: 'expect', owner });
  if (action !== undefined) return checkAdjudicationTest(decl, action, member, expect, env, sink);
  return checkSelectionTest(decl, scenario!, member, expect, env, sink);
}

/** `system { … }`: values of the system attributes, which the runtime captures whether or not `action` declares them. */
function checkSystemValues(system: MemberOf<'TestSystem'> | undefined, test: string, action: ActionInfo | undefined, sink: DiagnosticSink): { [key: string]: JsonValue } | undefined {
  return checkRecordValues(system?.value, test, sink, (key) => {
    const type = SYSTEM_ATTRIBUTE_TYPES.get(key.name);
    sink.recorder?.refer(key.span, action?.view.byName.get(key.name)?.target ?? (type === undefined ? undefined : { kind: 'system-attribute', name: key.name }));
    if (type === undefined) sink.report('ADEC2011', key.span, { name: key.name }, didYouMeanName(key.name, SYSTEM_ATTRIBUTE_TYPES.keys()));
    return type;
  });
}

/** What a selection test expects instead of a status: the word it was probably meant to be. */
function selectionExpectHelp(member: TestMember): { help?: string } {
  if (member.kind !== 'TestExpectStatus') return {};
  const intended = closestMatch(member.status.text, ['NO_ELIGIBLE_ACTIONS', 'selected']);
  return { help: intended !== undefined ? `did you mean \`${intended}\`?` : 'a selection test expects `selected "<action_id>"` or `NO_ELIGIBLE_ACTIONS`' };
}

/** A test's first member of one kind (a repeated clause is reported and ignored). */
export type MemberLookup = <K extends TestMember['kind']>(kind: K) => MemberOf<K> | undefined;

function checkAdjudicationTest(
  decl: TestDecl,
  actionRef: MemberOf<'TestAction'>,
  member: MemberLookup,
  expect: ExpectMember | undefined,
  env: TestEnvironment,
  sink: DiagnosticSink,
): CheckedTest | undefined {
  const name = actionRef.action.name;
  const action = env.actions.get(name);
  if (action === undefined) {
    if (name !== '') sink.report('ADEC2006', actionRef.action.span, { name }, didYouMeanName(name, env.actions.keys()));
    const bindingOnly = bindingOnlySink(sink);
    if (bindingOnly !== undefined) checkSystemValues(member('TestSystem'), decl.name.value, undefined, bindingOnly);
    return undefined;
  }
  sink.recorder?.refer(actionRef.action.span, declarationAt(action.decl.name.span));
  const test = decl.name.value;
  const supplied = action.view.attributes.filter((a) => a.decl.source === 'supplied').map((a) => a.name);
  const contextMember = member('TestContext');
  const context = checkRecordValues(contextMember?.value, test, sink, (key) => {
    const attribute = action.view.byName.get(key.name);
    sink.recorder?.refer(key.span, attribute?.target);
    if (attribute !== undefined && attribute.decl.source === 'supplied') {
      env.onUse(attribute);
      return attribute.type;
    }
    if (attribute?.decl.source === 'system') {
      sink.report('ADEC4026', key.span, { test, problem: `gives system attribute \`${key.name}\` in its context: the host captures system values, a request never sends them` }, { help: `set it in \`system { ${key.name}: … }\`` });
      return undefined;
    }
    const help =
      attribute?.decl.source === 'computed'
        ? { help: `\`${key.name}\` is computed from the other attributes; tests supply only supplied attributes` }
        : didYouMeanName(key.name, supplied);
    sink.report('ADEC2014', key.span, { name: key.name, action: name }, help);
    return undefined;
  });
  // An attribute the test expects as missing evidence is left out on purpose; a misspelled one
  // (ADEC2031) is taken for the attribute it is closest to, so the typo is the one diagnostic.
  const leftOut = new Set(member('TestExpectMissingEvidence')?.attributes.map((a) => (supplied.includes(a.name) ? a.name : suggestName(a.name, supplied) ?? a.name)));
  const required = action.view.attributes.filter((a) => a.decl.source === 'supplied' && a.decl.value === undefined && a.type.kind !== 'optional' && !leftOut.has(a.name));
  const missing = reportMissing(contextMember?.value, required.map((a) => a.name), supplied, `the context of test \`${test}\``, contextMember?.span ?? decl.name.span, sink, {
    help: (attribute) => `action \`${name}\` declares \`${attribute}\` with no default and not optional (\`?\`): a request without it is refused before any rule runs; to test that, add \`expect missing_evidence [${attribute}]\``,
  });
  const system = checkSystemValues(member('TestSystem'), test, action, sink);
  const details = checkDecisionExpectations(test, action, member, expect, sink);
  if (expect === undefined || expect.kind !== 'TestExpectStatus') return undefined;
  const status = asOutcome(expect.status.text);
  if (status === undefined) {
    if (expect.status.text !== '') sink.report('ADEC4015', expect.status.span, { text: expect.status.text }, outcomeHelp(expect.status.text));
  }
  const rule = expect.rule;
  const expectedRule = rule === undefined ? undefined : action.decl.rules.find((r) => r.id.name === rule.name && r.id.name !== '');
  if (rule !== undefined && expectedRule !== undefined) sink.recorder?.refer(rule.span, declarationAt(expectedRule.id.span));
  if (rule !== undefined && rule.name !== '' && !action.ruleIds.includes(rule.name)) {
    sink.report('ADEC4020', rule.span, { rule: rule.name, action: name }, didYouMeanName(rule.name, action.ruleIds));
  }
  const producible = producibleOutcomes(action.ruleOutcomes);
  if (status !== undefined && !action.ruleOutcomes.includes(undefined) && !producible.includes(status)) {
    sink.report('ADEC4026', expect.status.span, { test, problem: `expects ${status}, but no rule of action \`${name}\` has outcome ${status}` }, { help: `action \`${name}\` can decide ${producible.join(', ')}` });
  }
  const decidable = (status === 'RED' || status === 'GREEN-SKIP') && context !== undefined && !action.ruleOutcomes.includes(undefined);
  const unmatchable = decidable ? unmatchableRules(action.rules, status, context, action.view) : undefined;
  if (unmatchable !== undefined) {
    sink.report(
      'ADEC4026',
      expect.status.span,
      { test, problem: `expects ${status}, but no ${status} rule of action \`${name}\` can match the context it gives` },
      { notes: unmatchable.map(({ rule, part }) => `rule \`${rule.id}\`: its \`${part}\` is false for the values the test gives`) },
    );
  }
  if (status === undefined || context === undefined || system === undefined || missing || details === undefined) return undefined;
  return {
    kind: 'adjudication',
    name: decl.name.value,
    action: name,
    context,
    system,
    expectStatus: status,
    ...(rule !== undefined && { expectRule: rule.name }),
    ...details,
    span: decl.span,
  };
}

function checkSelectionTest(
  decl: TestDecl,
  scenarioRef: MemberOf<'TestScenario'>,
  member: MemberLookup,
  expect: ExpectMember | undefined,
  env: TestEnvironment,
  sink: DiagnosticSink,
): CheckedTest | undefined {
  const test = decl.name.value;
  const signalsMember = member('TestSignals');
  const actionsMember = member('TestActions');
  const name = scenarioRef.scenario.name;
  const scenario = env.scenarios.get(name);
  if (scenario === undefined) {
    if (name !== '') sink.report('ADEC2007', scenarioRef.scenario.span, { name }, didYouMeanName(name, env.scenarios.keys()));
    const bindingOnly = bindingOnlySink(sink);
    if (bindingOnly !== undefined) checkCandidateIds(test, actionsMember, expect, bindingOnly);
    return undefined;
  }
  sink.recorder?.refer(scenarioRef.scenario.span, declarationAt(scenario.idSpan));
  const signals = checkRecordValues(signalsMember?.value, test, sink, (key) => fieldType(scenario.signals, key, `${name}.signals`, sink));
  const missingSignals = reportMissing(signalsMember?.value, scenario.requiredSignals, scenario.signals.map((f) => f.name), `the signals of test \`${test}\``, signalsMember?.span ?? decl.name.span, sink, {
    help: (signal) => `scenario \`${name}\` declares signal \`${signal}\` with no default and not optional (\`?\`)`,
  });
  const actions = (actionsMember?.value.items ?? []).map((item) => checkCandidate(item, scenario, test, sink));
  checkCandidateIds(test, actionsMember, expect, sink);
  const skillPart = checkSkillExpectations(test, scenario, actionsMember, expect, member, env.skills, sink);
  if (expect === undefined || expect.kind === 'TestExpectStatus' || signals === undefined || missingSignals || actions.some((a) => a === undefined) || skillPart === undefined) return undefined;
  return {
    kind: 'selection',
    name: test,
    scenario: name,
    signals,
    actions: actions as { [key: string]: JsonValue }[],
    expect: expect.kind === 'TestExpectSelected' ? { selected: expect.actionId.value } : { noEligibleActions: true },
    ...skillPart,
    span: decl.span,
  };
}

/** Each candidate's `action_id` is unique, and the one a test expects selected is among them. */
function checkCandidateIds(test: string, actionsMember: MemberOf<'TestActions'> | undefined, expect: ExpectMember | undefined, sink: DiagnosticSink): void {
  const actionIds = new Map<string, { readonly item: Span; readonly id: Span }>();
  // Read from the source, so a candidate with a wrong value still counts as having its id.
  for (const item of actionsMember?.value.items ?? []) {
    const idValue = item.kind === 'ValueRecord' ? item.entries.find((e) => e.key.name === 'action_id')?.value : undefined;
    if (idValue?.kind !== 'ValueScalar' || typeof idValue.value !== 'string') continue;
    const id = idValue.value;
    const first = actionIds.get(id);
    const span = item.span;
    if (first !== undefined) {
      sink.report('ADEC2010', span, { kind: 'action_id', name: id }, { notes: [firstDeclaredAt(first.item)] });
    } else {
      actionIds.set(id, { item: span, id: idValue.span });
      sink.recorder?.declare('test-action', id, idValue.span);
    }
  }
  const expectedId = expect?.kind === 'TestExpectSelected' ? expect.actionId : undefined;
  const selected = expectedId === undefined ? undefined : actionIds.get(expectedId.value);
  if (expectedId !== undefined && selected !== undefined) sink.recorder?.refer(expectedId.span, declarationAt(selected.id));
  if (expectedId !== undefined && selected === undefined) {
    sink.report('ADEC4026', expectedId.span, { test, problem: `expects \`${expectedId.value}\` to be selected, but no action in \`actions\` has that action_id` }, didYouMeanName(expectedId.value, actionIds.keys()));
  }
}

/** One candidate action: `action_id`, a `type` naming an action type, and that type's fields. */
function checkCandidate(value: Value, scenario: ScenarioInfo, test: string, sink: DiagnosticSink): { [key: string]: JsonValue } | undefined {
  if (value.kind !== 'ValueRecord') {
    const found = describeLiteral(literalFromValue(value));
    sink.report('ADEC3001', value.span, { expected: 'an action record such as `{ action_id: "a1", type: "…" }`', found }, { label: `this is ${found}` });
    return undefined;
  }
  const typeEntry = value.entries.find((e) => e.key.name === 'type');
  const typeName = typeEntry?.value.kind === 'ValueScalar' ? typeEntry.value.value : undefined;
  const actionType = scenario.actionTypes.find((t) => t.name === typeName);
  if (actionType !== undefined && typeEntry !== undefined) sink.recorder?.refer(typeEntry.value.span, declarationAt(actionType.nameSpan));
  // A key misspelling a missing `action_id` or `type` is the one problem, reported at the key.
  const missing = CANDIDATE_BUILTIN_FIELDS.filter((required) => !value.entries.some((e) => e.key.name === required));
  const misspelled = new Map<string, string>();
  for (const { key } of value.entries) {
    const intended = closestMatch(key.name, missing);
    if (intended !== undefined && !actionType?.fields.some((f) => f.name === key.name)) misspelled.set(key.name, intended);
  }
  for (const required of missing) {
    if (![...misspelled.values()].includes(required)) sink.report('ADEC4003', value.span, { clause: required, owner: 'a test action' });
  }
  if (typeEntry !== undefined && actionType === undefined) {
    const text = typeof typeName === 'string' ? typeName : String(typeName);
    sink.report('ADEC2005', typeEntry.value.span, { name: text, scenario: scenario.id }, didYouMeanName(text, scenario.actionTypes.map((t) => t.name)));
  }
  const builtins: RecordField[] = [
    { name: 'action_id', type: { kind: 'string' } },
    { name: 'type', type: { kind: 'enum', members: scenario.actionTypes.map((t) => t.name) } },
  ];
  const requiredFields = actionType?.fields.filter((f) => f.type.kind !== 'optional').map((f) => f.name) ?? [];
  const known = ['action_id', 'type', ...(actionType?.fields.map((f) => f.name) ?? [])];
  const incomplete = reportMissing(value, requiredFields, known, `a test action of type \`${typeName}\``, value.span, sink);
  const checked = checkRecordValues(value, test, sink, (key) => {
    const intended = misspelled.get(key.name);
    if (intended !== undefined) {
      sink.report('ADEC2002', key.span, { type: actionType?.name ?? 'action', name: key.name }, { help: `did you mean \`${intended}\`?` });
      return undefined;
    }
    const builtin = builtins.find((f) => f.name === key.name);
    if (builtin !== undefined) sink.recorder?.refer(key.span, { kind: 'root-field', root: 'action', name: key.name, owner: scenario.idSpan });
    if (builtin !== undefined) return key.name === 'type' ? undefined : builtin.type;
    if (actionType === undefined) {
      // No action type to check the field against (reported); the field of any action type it may be is still that field.
      const candidateField = sink.recorder === undefined ? undefined : scenario.candidateFields.find((f) => f.name === key.name);
      const bindingOnly = bindingOnlySink(sink);
      const entry = value.entries.find((e) => e.key === key);
      if (candidateField !== undefined && bindingOnly !== undefined && entry !== undefined) {
        bindingOnly.recorder?.refer(key.span, bindingOnly.recorder.fieldTargets(candidateField));
        checkLiteral(literalFromValue(entry.value), candidateField.type, bindingOnly, { test });
      }
      return undefined;
    }
    return fieldType(actionType.fields, key, actionType.name, sink);
  }, new Set(['type']));
  return incomplete ? undefined : checked;
}

/**
 * ADEC4003 for each of `required` that `record` leaves out, at `span`. Not while the record
 * names something other than `known`: a misspelled name is one mistake, already reported, not
 * also the name left out. Returns whether the record is incomplete or names something unknown.
 */
function reportMissing(
  record: ValueRecord | undefined,
  required: readonly string[],
  known: readonly string[],
  owner: string,
  span: Span,
  sink: DiagnosticSink,
  extras: { readonly help?: (name: string) => string } = {},
): boolean {
  const given = new Set(record?.entries.map((e) => e.key.name));
  if ([...given].some((name) => !known.includes(name))) return true;
  const missing = required.filter((name) => !given.has(name));
  for (const name of missing) sink.report('ADEC4003', span, { clause: name, owner }, extras.help === undefined ? {} : { help: extras.help(name) });
  return missing.length > 0;
}

/**
 * The statuses an action can decide: GREEN when no rule matches, YELLOW always (the fail-safe
 * of a failed predicate or a vote below its quorum), RED and GREEN-SKIP only from a rule with
 * that outcome.
 */
function producibleOutcomes(outcomes: readonly (RuleOutcome | undefined)[]): RuleOutcome[] {
  return RULE_OUTCOMES.filter((o) => o === 'GREEN' || o === 'YELLOW' || outcomes.includes(o));
}

function fieldType(fields: readonly RecordField[], key: { name: string; span: Span }, owner: string, sink: DiagnosticSink) {
  const field = fields.find((f) => f.name === key.name);
  if (field !== undefined) sink.recorder?.refer(key.span, sink.recorder.fieldTargets(field));
  if (field === undefined) sink.report('ADEC2002', key.span, { type: owner, name: key.name }, didYouMeanName(key.name, fields.map((f) => f.name)));
  return field?.type;
}
