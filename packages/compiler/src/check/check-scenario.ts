/**
 * Selection scenarios (docs/spec/selection.md): signals and derived state, action types and the skills
 * that narrate them, guardrails, weighted objectives, execution risk, tie-breaks and the
 * default execution mode.
 */
import type { Span } from '@adec/diagnostics';
import type { ActionTypeDecl, Expr, FieldDecl, GuardrailDecl, Identifier, ScenarioDecl, ScenarioMember } from '@adec/grammar';
import { formatType, type CheckedGuardrail, type CheckedScenario, type JsonValue, type RecordField, type Type } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { checkAssignable } from './check-assignment.js';
import { checkCondition, createExprChecker } from './check-expr.js';
import type { SkillInfo } from './check-skill.js';
import { candidateActionType, type ActionTypeInfo } from './candidate-action.js';
import { dependencyOrder, formatCycle } from './dependency-order.js';
import { checkLiteral, literalFromExpr } from './literal-values.js';
import { NOTHING_NARROWED } from './narrowing.js';
import { resolveFields, resolveType } from './resolve-types.js';
import { createScope, type ExprScope, type NameBinding } from './scope.js';
import { didYouMeanName } from './suggestions.js';
import { isError, isNumeric, isOrderable, unwrapOptional } from './type-relations.js';
import { checkVersion } from './versions.js';
import { checkObjectives, checkExecutionRisk } from './check-scoring.js';
import { reportReservedName } from './reserved-names.js';
import { declarationAt, type BindingRecorder } from './name-bindings.js';

const DEFAULT_MODES = ['skill_enhanced', 'deterministic_only'] as const;

/** What selection tests need to know about a scenario. */
export interface ScenarioInfo {
  readonly id: string;
  readonly idSpan: Span;
  readonly signals: readonly RecordField[];
  /** Signals with neither a default nor a `?`: a request (and so a test) must give them. */
  readonly requiredSignals: readonly string[];
  readonly actionTypes: readonly CheckedActionType[];
  /** The fields of `action` in its expressions, over all its action types. */
  readonly candidateFields: readonly RecordField[];
  /** Derived state values; with the signals, what a skill's `user_state` is filled from. */
  readonly state: readonly RecordField[];
  /** Each action type that names a skill, with where it does. */
  readonly skillUses: readonly SkillUse[];
  /** How a request that names no mode runs its skills: under `deterministic_only` no model is asked. */
  readonly defaultMode: CheckedScenario['defaultMode'];
}

/** `skill X` in an action type: the scenario hands the selected action of that type to skill X. */
export interface SkillUse {
  readonly actionType: string;
  readonly skill: string;
  readonly span: Span;
}

export interface CheckedScenarios {
  readonly scenarios: readonly CheckedScenario[];
  readonly infos: ReadonlyMap<string, ScenarioInfo>;
}

type MemberOf<K extends ScenarioMember['kind']> = Extract<ScenarioMember, { kind: K }>;

export function checkScenarios(decls: readonly ScenarioDecl[], skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): CheckedScenarios {
  const infos = new Map<string, ScenarioInfo>();
  const firstSpans = new Map<string, Span>();
  const scenarios: CheckedScenario[] = [];
  for (const decl of decls) {
    const id = decl.id.name;
    sink.recorder?.declare('scenario', id, decl.id.span);
    const first = firstSpans.get(id);
    if (first !== undefined) sink.report('ADEC2010', decl.id.span, { kind: 'scenario', name: id }, { notes: [firstDeclaredAt(first)] });
    else firstSpans.set(id, decl.id.span);
    const { scenario, info } = checkScenario(decl, skills, sink);
    if (first === undefined) infos.set(id, info);
    if (scenario !== undefined) scenarios.push(scenario);
  }
  return { scenarios, infos };
}

function checkScenario(decl: ScenarioDecl, skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): { scenario?: CheckedScenario; info: ScenarioInfo } {
  const id = decl.id.name;
  const owner = `scenario \`${id}\``;
  const members = <K extends ScenarioMember['kind']>(kind: K) => decl.members.filter((m): m is MemberOf<K> => m.kind === kind);
  const single = <K extends ScenarioMember['kind']>(kind: K, clause: string): MemberOf<K> | undefined => {
    const [first, ...repeated] = members(kind);
    for (const extra of repeated) sink.report('ADEC4009', extra.span, { clause, owner }, first ? { notes: [firstDeclaredAt(first.span)] } : {});
    return first;
  };

  const version = single('ScenarioVersion', 'version')?.version;
  if (version === undefined) sink.report('ADEC4003', decl.id.span, { clause: 'version', owner });
  else checkVersion(version, sink);

  const names = new Map<string, Span>();
  const signalFields = members('SignalsBlock').flatMap((b) => b.fields);
  const signals = checkSignals(signalFields, names, sink);
  const stateFields = members('StateBlock').flatMap((b) => b.fields);
  const stateTypes = declareState(stateFields, names, sink);
  const actionTypes = checkActionTypes(members('ActionTypeDecl'), skills, sink);
  if (members('ActionTypeDecl').length === 0) {
    sink.report('ADEC4024', decl.id.span, { scenario: id, problem: 'declares no `action_type`, so it can never select an action' });
  }
  const candidate = candidateActionType(actionTypes);
  if (sink.recorder !== undefined) recordCandidateOrigins(sink.recorder, candidate, actionTypes, decl.id.span);

  const declaredAt = (name: string) => declarationAt(names.get(name)!);
  const signalBindings: NameBinding[] = signals.map((s) => ({ root: 'signal', name: s.name, type: s.type, target: declaredAt(s.name) }));
  const stateBindings: NameBinding[] = stateTypes.map((s) => ({ root: 'state', name: s.name, type: s.type, target: declaredAt(s.name) }));
  const state = checkStateDerivations(stateFields, stateTypes, [...signalBindings, ...stateBindings], sink);
  const scope = createScope([
    ...signalBindings,
    ...stateBindings,
    { root: 'action', name: 'action', type: candidate, target: { kind: 'root', name: 'action', owner: decl.id.span } },
    { root: 'action', name: 'action_id', type: { kind: 'string' }, target: { kind: 'root', name: 'action_id', owner: decl.id.span } },
  ]);

  sink.recorder?.scope('scenario', decl.id.span, scope);
  const guardrails = checkGuardrails(members('GuardrailDecl'), id, actionTypes, scope, sink);
  const objectives = checkObjectives(members('ObjectiveDecl'), decl.id, scope, sink);
  const riskDecl = single('ExecutionRiskDecl', 'execution_risk');
  const executionRisk = riskDecl && checkExecutionRisk(riskDecl, sink);
  const tieBreaks = (single('TieBreakDecl', 'tie_break')?.keys ?? []).map((key) => ({ key: checkTieBreakKey(key.key, scope, sink), direction: key.direction }));
  const defaultMode = checkDefaultMode(single('DefaultModeDecl', 'default_mode'), id, sink);

  const withoutDefault = new Set(signalFields.filter((f) => f.defaultValue === undefined).map((f) => f.name.name));
  const requiredSignals = signals.filter((s) => s.type.kind !== 'optional' && withoutDefault.has(s.name)).map((s) => s.name);
  const infoSignals = signals.map(({ name, type }) => ({ name, type }));
  for (const signal of infoSignals) sink.recorder?.fieldOrigin(signal, declaredAt(signal.name));
  const info: ScenarioInfo = {
    id,
    idSpan: decl.id.span,
    signals: infoSignals,
    requiredSignals,
    actionTypes,
    candidateFields: candidate.kind === 'record' ? candidate.fields : [],
    state: stateTypes,
    defaultMode,
    skillUses: actionTypes.flatMap((t) => (t.skill === undefined ? [] : [{ actionType: t.name, skill: t.skill.name, span: t.skill.span }])),
  };
  if (version === undefined) return { info };
  return {
    info,
    scenario: {
      id,
      version: version.value,
      signals,
      state,
      actionTypes: actionTypes.map(({ name, fields, skill }) => ({ name, fields, ...(skill !== undefined && { skill: skill.name }) })),
      guardrails,
      objectives,
      ...(executionRisk !== undefined && { executionRisk }),
      tieBreaks,
      defaultMode,
      span: decl.span,
    },
  };
}

/**
 * Where the fields of `action` come from: `action_id` and `type` every candidate has, any
 * other from each action type that declares it; a `type` names an action type.
 */
function recordCandidateOrigins(recorder: BindingRecorder, candidate: Type, actionTypes: readonly ActionTypeInfo[], scenario: Span): void {
  if (candidate.kind !== 'record') return;
  for (const field of candidate.fields) {
    if (field.name === 'action_id' || field.name === 'type') {
      recorder.fieldOrigin(field, { kind: 'root-field', root: 'action', name: field.name, owner: scenario });
      if (field.type.kind === 'enum') recorder.enumOrigin(field.type, new Map(actionTypes.map((t) => [t.name, [declarationAt(t.nameSpan)]])));
      continue;
    }
    const declared = actionTypes.flatMap((t) => t.fields.filter((f) => f.name === field.name)).flatMap((f) => recorder.fieldTargets(f) ?? []);
    recorder.fieldOrigin(field, declared);
  }
}

/** Signals are supplied per request; a default is a literal of the signal's type. */
function checkSignals(fields: readonly FieldDecl[], names: Map<string, Span>, sink: DiagnosticSink): { name: string; type: Type; defaultValue?: JsonValue }[] {
  const signals: { name: string; type: Type; defaultValue?: JsonValue }[] = [];
  for (const field of fields) {
    const type = resolveType(field.type, sink);
    sink.recorder?.declare('signal', field.name.name, field.name.span);
    if (!declareName(field, 'signal', names, sink)) continue;
    let defaultValue: JsonValue | undefined;
    if (field.defaultValue !== undefined && field.defaultValue.kind !== 'MissingExpr') {
      const literal = literalFromExpr(field.defaultValue);
      if (literal === undefined) sink.report('ADEC4021', field.defaultValue.span, { name: field.name.name, problem: 'must be a literal value' });
      else defaultValue = checkLiteral(literal, type, sink, { defaultOf: field.name.name });
    }
    signals.push({ name: field.name.name, type, ...(defaultValue !== undefined && { defaultValue }) });
  }
  return signals;
}

function declareState(fields: readonly FieldDecl[], names: Map<string, Span>, sink: DiagnosticSink): { name: string; type: Type }[] {
  return fields.flatMap((field) => {
    const type = resolveType(field.type, sink);
    sink.recorder?.declare('state', field.name.name, field.name.span);
    if (!declareName(field, 'state value', names, sink)) return [];
    if (field.defaultValue === undefined) sink.report('ADEC4003', field.name.span, { clause: '= derivation', owner: `state \`${field.name.name}\`` });
    return [{ name: field.name.name, type }];
  });
}

/** Signals and state share one namespace: both are bare names in expressions. */
function declareName(field: FieldDecl, kind: string, names: Map<string, Span>, sink: DiagnosticSink): boolean {
  const first = names.get(field.name.name);
  if (first !== undefined) {
    sink.report('ADEC2010', field.name.span, { kind, name: field.name.name }, { notes: [firstDeclaredAt(first)] });
    return false;
  }
  names.set(field.name.name, field.name.span);
  reportReservedName(field.name, kind, sink);
  return true;
}

/** State derivations, type-checked and put in dependency order (cycles are ADEC4014). */
function checkStateDerivations(
  fields: readonly FieldDecl[],
  declared: readonly { name: string; type: Type }[],
  bindings: readonly NameBinding[],
  sink: DiagnosticSink,
): CheckedScenario['state'] {
  const derived = new Map<string, { type: Type; derivation: CheckedScenario['state'][number]['derivation']; dependsOn: Set<string>; span: Span }>();
  for (const { name, type } of declared) {
    const field = fields.find((f) => f.name.name === name)!;
    const value = field.defaultValue;
    if (value === undefined) continue;
    const dependsOn = new Set<string>();
    const scope = createScope(bindings, { onReference: (b) => { if (b.root === 'state') dependsOn.add(b.name); } });
    const checker = createExprChecker(scope, sink);
    const derivation = checker.check(value, NOTHING_NARROWED);
    checkAssignable(checker, derivation, value, type);
    derived.set(name, { type, derivation, dependsOn, span: field.name.span });
  }
  const { order, cycles } = dependencyOrder([...derived].map(([name, d]) => ({ name, dependsOn: d.dependsOn })));
  for (const cycle of cycles) {
    const first = derived.get(cycle[0]!);
    if (first) sink.report('ADEC4014', first.span, { name: cycle[0]!, cycle: formatCycle(cycle) });
  }
  return order.map((name) => {
    const { type, derivation } = derived.get(name)!;
    return { name, type, derivation };
  });
}

export interface CheckedActionType extends ActionTypeInfo {
  /** The skill it names, where it names it; present only when that skill exists. */
  readonly skill?: { readonly name: string; readonly span: Span };
}

function checkActionTypes(decls: readonly ActionTypeDecl[], skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): CheckedActionType[] {
  const seen = new Map<string, Span>();
  const actionTypes: CheckedActionType[] = [];
  for (const decl of decls) {
    const name = decl.name.name;
    sink.recorder?.declare('action-type', name, decl.name.span);
    const fields = resolveFields(decl.fields, 'field', sink);
    const first = seen.get(name);
    if (first !== undefined) {
      sink.report('ADEC2010', decl.name.span, { kind: 'action type', name }, { notes: [firstDeclaredAt(first)] });
      continue;
    }
    seen.set(name, decl.name.span);
    const skill = decl.skill && checkActionTypeSkill(decl.skill, skills, sink);
    actionTypes.push({ name, nameSpan: decl.name.span, fields, ...(skill !== undefined && decl.skill !== undefined && { skill: { name: skill, span: decl.skill.span } }) });
  }
  return actionTypes;
}

/**
 * The skill an action type names exists; that the action type provides what the skill reads is
 * checked at the skill's fields, over its fallbacks too (action-metadata-sources.ts).
 */
function checkActionTypeSkill(ref: Identifier, skills: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): string | undefined {
  const skill = skills.get(ref.name);
  if (skill === undefined) {
    if (ref.name !== '') sink.report('ADEC2004', ref.span, { name: ref.name }, didYouMeanName(ref.name, skills.keys()));
    return undefined;
  }
  sink.recorder?.refer(ref.span, declarationAt(skill.idSpan));
  return skill.id;
}

function checkGuardrails(decls: readonly GuardrailDecl[], scenario: string, actionTypes: readonly ActionTypeInfo[], scope: ExprScope, sink: DiagnosticSink): CheckedGuardrail[] {
  const seen = new Map<string, Span>();
  return decls.map((decl) => {
    const first = seen.get(decl.id.value);
    if (first !== undefined) sink.report('ADEC2010', decl.id.span, { kind: 'guardrail', name: decl.id.value }, { notes: [firstDeclaredAt(first)] });
    else seen.set(decl.id.value, decl.id.span);
    const when = checkCondition(decl.when, 'when', scope, sink);
    return { id: decl.id.value, description: decl.description.value, when, effect: checkEffect(decl.effect, scenario, actionTypes, scope, sink) };
  });
}

function checkEffect(effect: GuardrailDecl['effect'], scenario: string, actionTypes: readonly ActionTypeInfo[], scope: ExprScope, sink: DiagnosticSink): CheckedGuardrail['effect'] {
  switch (effect.kind) {
    case 'BlockEffect':
      return { kind: 'block', predicate: checkCondition(effect.predicate, 'block', scope, sink) };
    case 'ForceEffect': {
      const name = effect.actionType.name;
      const forced = actionTypes.find((t) => t.name === name);
      if (forced !== undefined) sink.recorder?.refer(effect.actionType.span, declarationAt(forced.nameSpan));
      if (name !== '' && forced === undefined) {
        sink.report('ADEC2005', effect.actionType.span, { name, scenario }, didYouMeanName(name, actionTypes.map((t) => t.name)));
      }
      return { kind: 'force', actionType: name };
    }
    case 'CapEffect': {
      const checker = createExprChecker(scope, sink);
      const field = checker.check(effect.field, NOTHING_NARROWED);
      const isActionField = field.kind === 'field' && field.object.kind === 'ref' && field.object.name === 'action';
      const fieldType = unwrapOptional(field.type);
      if (!isError(fieldType) && (!isActionField || !isNumeric(fieldType))) {
        sink.report('ADEC3001', effect.field.span, { expected: 'a numeric action field such as `action.duration_minutes`', found: formatType(field.type) });
      }
      const limit = checker.check(effect.limit, NOTHING_NARROWED);
      const limitType = checker.presentType(limit, effect.limit);
      if (!isError(limitType) && !isNumeric(limitType)) {
        sink.report('ADEC3001', effect.limit.span, { expected: 'a number', found: formatType(limitType) }, { label: `this is ${formatType(limitType)}` });
      }
      return { kind: 'cap', field: field.kind === 'field' ? field.name : '', limit };
    }
  }
}

/**
 * Tie-break keys order candidates, so they are orderable. They may be absent (a field
 * only some action types have): absent values sort last, so no guard is needed.
 */
function checkTieBreakKey(key: Expr, scope: ExprScope, sink: DiagnosticSink): CheckedScenario['tieBreaks'][number]['key'] {
  const checked = createExprChecker(scope, sink).check(key, NOTHING_NARROWED);
  const type = unwrapOptional(checked.type);
  if (!isOrderable(type) && type.kind !== 'enum') {
    sink.report('ADEC3001', key.span, { expected: 'a number, string, timestamp or duration', found: formatType(checked.type) }, { label: `this is ${formatType(checked.type)}` });
  }
  return checked;
}

/** docs/spec/selection.md §5: the engine default is deterministic_only, the safe mode. */
function checkDefaultMode(decl: MemberOf<'DefaultModeDecl'> | undefined, scenario: string, sink: DiagnosticSink): CheckedScenario['defaultMode'] {
  if (decl === undefined) return 'deterministic_only';
  const mode = DEFAULT_MODES.find((m) => m === decl.mode.text);
  if (mode !== undefined) return mode;
  if (decl.mode.text !== '') {
    sink.report(
      'ADEC4024',
      decl.mode.span,
      { scenario, problem: `has an invalid default_mode \`${decl.mode.text}\`: expected skill_enhanced or deterministic_only` },
      didYouMeanName(decl.mode.text, DEFAULT_MODES),
    );
  }
  return 'deterministic_only';
}
