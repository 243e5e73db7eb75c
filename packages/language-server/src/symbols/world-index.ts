/**
 * The symbol index of a world: every declared name and every name that refers to one, with
 * spans, built from the parsed files. It resolves names the way the checker does
 * (packages/compiler/src/check): rules see the shared context and their action's own;
 * `suppresses` and `expect … by` name rules; skills see the SEC envelope (`payload` only in
 * invariants); scenarios see signals, state, `action` and `action_id`; tests name actions,
 * scenarios, attributes, signals and action types; a string literal compared with an enum
 * names its member. Where the world has errors, what can be resolved still is, so hover
 * and go to definition keep working while the author types.
 *
 * Expressions are walked with an explicit stack: a chain of 10,000 terms must not overflow
 * the call stack here either.
 */
import type { Span } from '@adec/diagnostics';
import type {
  ActionDecl,
  ActionTypeDecl,
  ContextAttributeDecl,
  ContextBlock,
  Expr,
  FieldDecl,
  Identifier,
  ScenarioDecl,
  SkillDecl,
  SourceFile,
  TemplateString,
  TestDecl,
  TypeExpr,
  Value,
} from '@adec/grammar';
import { builtinField, builtinFunction, builtinSystemAttribute } from './builtins.js';
import { docComment } from './doc-comments.js';
import { listElement, TypeMembers, type SymbolTable } from './type-members.js';
import { typeText } from './type-text.js';
import type { SymbolOccurrence, WorldSymbol } from './world-symbol.js';

/** The names one kind of expression sees. */
export interface NameScope {
  lookup(name: string): WorldSymbol | undefined;
  /** Every visible name, for completion. */
  names(): readonly WorldSymbol[];
}

export interface ActionEntry {
  readonly symbol: WorldSymbol;
  /** Shared attributes, then the action's own. */
  readonly scope: NameScope;
  readonly rules: ReadonlyMap<string, WorldSymbol>;
}

export interface SkillEntry {
  readonly symbol: WorldSymbol;
  /** Prompts and templates: `action_metadata`, `user_state`, `decision_context`. */
  readonly inputScope: NameScope;
  /** Invariants: the input and `payload`. */
  readonly invariantScope: NameScope;
  readonly outputFields: SymbolTable;
}

export interface ScenarioEntry {
  readonly symbol: WorldSymbol;
  /** Guardrails, objectives, tie-breaks: signals, state, `action`, `action_id`. */
  readonly scope: NameScope;
  readonly signals: SymbolTable;
  readonly actionTypes: ReadonlyMap<string, WorldSymbol>;
  /** The fields of each action type, by its name. */
  readonly actionTypeFields: ReadonlyMap<string, SymbolTable>;
  /** The fields of a candidate action (`action.…`, a test's `actions [ { … } ]`). */
  readonly candidateFields: SymbolTable;
}

export interface WorldIndex {
  readonly sharedScope: NameScope;
  readonly actions: ReadonlyMap<string, ActionEntry>;
  readonly skills: ReadonlyMap<string, SkillEntry>;
  readonly scenarios: ReadonlyMap<string, ScenarioEntry>;
  /** The name under `offset` in `file`: a declaration or a reference. */
  occurrenceAt(file: string, offset: number): SymbolOccurrence | undefined;
  /** Every occurrence of `symbol`: its declaration and the references to it. */
  occurrencesOf(symbol: WorldSymbol): readonly SymbolOccurrence[];
  /** The comment documenting a declared symbol. */
  docOf(symbol: WorldSymbol): string | undefined;
  /** What follows a `.` after a value held by one of `symbols`. */
  membersOf(symbols: readonly WorldSymbol[]): SymbolTable;
  /** The members of the enum one of `symbols` holds (or holds a list of, with `listElements`). */
  enumMembersOf(symbols: readonly WorldSymbol[], listElements?: boolean): SymbolTable;
}

export function buildWorldIndex(files: readonly SourceFile[], texts: ReadonlyMap<string, string>): WorldIndex {
  return new IndexBuilder(texts).build(files);
}

function scopeOf(bindings: readonly WorldSymbol[]): NameScope {
  const byName = new Map<string, WorldSymbol>();
  for (const binding of bindings) if (!byName.has(binding.name)) byName.set(binding.name, binding);
  return { lookup: (name) => byName.get(name), names: () => [...byName.values()] };
}

const EMPTY_TABLE: SymbolTable = new Map();

class IndexBuilder {
  private readonly types = new TypeMembers();
  private readonly occurrences = new Map<string, SymbolOccurrence[]>();
  private readonly resolved = new Map<Expr, readonly WorldSymbol[]>();

  private sharedScope: NameScope = scopeOf([]);
  private readonly actions = new Map<string, ActionEntry>();
  private readonly rulesById = new Map<string, WorldSymbol>();
  private readonly skills = new Map<string, SkillEntry>();
  private readonly scenarios = new Map<string, ScenarioEntry>();

  constructor(private readonly texts: ReadonlyMap<string, string>) {}

  build(files: readonly SourceFile[]): WorldIndex {
    const declarations = files.flatMap((f) => f.declarations);
    const of = <K extends (typeof declarations)[number]['kind']>(kind: K) =>
      declarations.filter((d): d is Extract<(typeof declarations)[number], { kind: K }> => d.kind === kind);

    // Declarations first, so that a reference may point forward (a fallback skill declared later).
    const shared = this.declareAttributes(of('ContextBlock'), [], 'shared context attribute');
    this.sharedScope = scopeOf(shared.map((a) => a.symbol));
    const actionBodies = of('ActionDecl').map((decl) => this.declareAction(decl, shared.map((a) => a.symbol)));
    const skillBodies = of('SkillDecl').map((decl) => this.declareSkill(decl));
    const scenarioBodies = of('ScenarioDecl').map((decl) => this.declareScenario(decl));

    this.walkAttributes(shared, this.sharedScope);
    for (const body of [...actionBodies, ...skillBodies, ...scenarioBodies]) body();
    for (const test of of('TestDecl')) this.indexTest(test);

    return this.result();
  }

  // ── Occurrences ───────────────────────────────────────────────────────────

  private record(span: Span, targets: readonly WorldSymbol[], isDeclaration = false): void {
    if (targets.length === 0 || span.endOffset <= span.offset) return;
    let list = this.occurrences.get(span.file);
    if (list === undefined) this.occurrences.set(span.file, (list = []));
    list.push({ span, targets, isDeclaration });
  }

  private declare(symbol: WorldSymbol): WorldSymbol {
    if (symbol.span !== undefined) this.record(symbol.span, [symbol], true);
    return symbol;
  }

  // ── Context attributes ────────────────────────────────────────────────────

  private declareAttributes(blocks: readonly ContextBlock[], inherited: readonly WorldSymbol[], detail: string): { decl: ContextAttributeDecl; symbol: WorldSymbol }[] {
    const seen = new Set(inherited.map((s) => s.name));
    const declared: { decl: ContextAttributeDecl; symbol: WorldSymbol }[] = [];
    for (const decl of blocks.flatMap((b) => b.attributes)) {
      const name = decl.name.name;
      if (name === '') continue;
      this.declareType(decl.type, name);
      const type = typeText(decl.type);
      const symbol = this.declare({
        kind: 'attribute',
        name,
        span: decl.name.span,
        declaration: decl.span,
        signature: `${decl.source} ${name}: ${type}`,
        detail,
        typeText: type,
        typeExpr: decl.type,
      });
      // A repeated name is an error (ADEC2010); the first declaration is the one in scope.
      if (seen.has(name)) continue;
      seen.add(name);
      declared.push({ decl, symbol });
    }
    return declared;
  }

  /** Derivations of computed attributes, and enum members named by defaults. */
  private walkAttributes(attributes: readonly { decl: ContextAttributeDecl; symbol: WorldSymbol }[], scope: NameScope): void {
    for (const { decl, symbol } of attributes) {
      if (decl.value === undefined) continue;
      if (decl.source === 'computed') this.walk(decl.value, scope);
      else this.literalsNamingMembers(decl.value, [symbol]);
    }
  }

  // ── Actions and rules ─────────────────────────────────────────────────────

  private declareAction(decl: ActionDecl, shared: readonly WorldSymbol[]): () => void {
    const name = decl.name.name;
    const mode = decl.aggregations[0];
    const aggregation = mode === undefined ? 'winner_takes_all' : `${mode.mode.name}${mode.parameter === undefined ? '' : ` ${mode.parameter.value}`}`;
    const symbol = this.declare({
      kind: 'action',
      name,
      span: decl.name.span,
      declaration: decl.span,
      signature: `action ${name}`,
      detail: `aggregate ${aggregation} · ${decl.rules.length} rule${decl.rules.length === 1 ? '' : 's'}`,
    });
    const own = this.declareAttributes(decl.contexts, shared, `context attribute of action \`${name}\``);
    const scope = scopeOf([...shared, ...own.map((a) => a.symbol)]);
    const rules = new Map<string, WorldSymbol>();
    for (const rule of decl.rules) {
      const outcome = rule.clauses.find((c) => c.kind === 'OutcomeClause');
      const severity = rule.clauses.find((c) => c.kind === 'SeverityClause');
      const facts = [
        outcome?.kind === 'OutcomeClause' ? `outcome ${outcome.value.text}` : undefined,
        severity?.kind === 'SeverityClause' ? `severity ${severity.value.text}` : undefined,
        `action \`${name}\``,
      ].filter((f) => f !== undefined);
      const ruleSymbol = this.declare({
        kind: 'rule',
        name: rule.id.name,
        span: rule.id.span,
        declaration: rule.span,
        signature: `rule ${rule.id.name}`,
        detail: facts.join(' · '),
      });
      if (rule.id.name !== '' && !rules.has(rule.id.name)) rules.set(rule.id.name, ruleSymbol);
      if (rule.id.name !== '' && !this.rulesById.has(rule.id.name)) this.rulesById.set(rule.id.name, ruleSymbol);
    }
    if (name !== '' && !this.actions.has(name)) this.actions.set(name, { symbol, scope, rules });

    return () => {
      this.walkAttributes(own, scope);
      for (const clause of decl.rules.flatMap((rule) => rule.clauses)) {
        switch (clause.kind) {
          case 'WhenClause':
          case 'AppliesWhenClause':
            this.walk(clause.condition, scope);
            break;
          case 'ReasonClause':
            this.walkTemplate(clause.template, scope);
            break;
          case 'SuppressesClause':
            // The checker looks a suppressed rule up world-wide (suppressing another action's rule is its own error).
            for (const target of clause.rules) this.refer(target, rules.get(target.name) ?? this.rulesById.get(target.name));
            break;
          default:
            break;
        }
      }
    };
  }

  // ── Skills ────────────────────────────────────────────────────────────────

  private declareSkill(decl: SkillDecl): () => void {
    const id = decl.id.name;
    const member = <K extends SkillDecl['members'][number]['kind']>(kind: K) =>
      decl.members.find((m): m is Extract<SkillDecl['members'][number], { kind: K }> => m.kind === kind);
    const type = member('SkillType')?.value.text;
    const version = member('SkillVersion')?.version.value;
    const description = member('SkillDescription')?.text.value;
    const facts = [type === undefined ? 'skill' : `${type} skill`, version === undefined ? undefined : `version ${version}`].filter((f) => f !== undefined);
    const symbol = this.declare({
      kind: 'skill',
      name: id,
      span: decl.id.span,
      declaration: decl.span,
      signature: `skill ${id}`,
      detail: `${facts.join(' · ')}${description === undefined ? '' : `: ${description}`}`,
    });

    const fieldsOf = (kind: 'SkillOutput' | 'SkillActionMetadata' | 'SkillUserState', label: string): SymbolTable => {
      const fields = decl.members.flatMap((m): readonly FieldDecl[] => (m.kind === kind ? m.fields : []));
      for (const field of fields) this.declareField(this.types.field(field, `${label} field of skill \`${id}\``), field);
      return this.types.table(fields, (field) => this.types.field(field, `${label} field of skill \`${id}\``));
    };
    const output = fieldsOf('SkillOutput', 'output');
    const actionMetadata = fieldsOf('SkillActionMetadata', 'action_metadata');
    const userState = fieldsOf('SkillUserState', 'user_state');

    const blockSpan = (kind: 'SkillOutput' | 'SkillActionMetadata' | 'SkillUserState', keyword: string) => {
      const block = member(kind);
      return block === undefined ? undefined : keywordSpan(block.span, keyword.length);
    };
    const recordText = (table: SymbolTable) => `{ ${[...table.values()].map((s) => s[0]!.signature).join(', ')} }`;
    const actionMetadataRoot: WorldSymbol = {
      kind: 'root',
      name: 'action_metadata',
      ...optionalSpan(blockSpan('SkillActionMetadata', 'action_metadata')),
      signature: `action_metadata: ${recordText(actionMetadata)}`,
      detail: `the selected action's metadata skill \`${id}\` reads (SEC input)`,
      members: () => actionMetadata,
    };
    const userStateRoot: WorldSymbol = {
      kind: 'root',
      name: 'user_state',
      ...optionalSpan(blockSpan('SkillUserState', 'user_state')),
      signature: `user_state: ${recordText(userState)}`,
      detail: `the user state skill \`${id}\` reads (SEC input)`,
      members: () => userState,
    };
    const decisionContextFields: SymbolTable = new Map([
      ['decision_id', [builtinField('decision_id', 'string', 'the id of the decision being narrated')]],
      ['selected_action', [builtinField('selected_action', 'string', 'the action_id the engine selected (read-only)')]],
      ['action_metadata', [actionMetadataRoot]],
    ]);
    const decisionContextRoot: WorldSymbol = {
      kind: 'root',
      name: 'decision_context',
      signature: 'decision_context: { decision_id: string, selected_action: string, action_metadata: { … } }',
      detail: 'the decision a skill narrates (docs/spec/skill-contract.md §1); the selection is read-only',
      members: () => decisionContextFields,
    };
    const payloadRoot: WorldSymbol = {
      kind: 'root',
      name: 'payload',
      ...optionalSpan(blockSpan('SkillOutput', 'output')),
      signature: `payload: ${recordText(output)}`,
      detail: `the output of skill \`${id}\`, which invariants check`,
      members: () => output,
    };
    const inputScope = scopeOf([actionMetadataRoot, userStateRoot, decisionContextRoot]);
    const invariantScope = scopeOf([payloadRoot, actionMetadataRoot, userStateRoot, decisionContextRoot]);
    if (id !== '' && !this.skills.has(id)) this.skills.set(id, { symbol, inputScope, invariantScope, outputFields: output });

    return () => {
      for (const m of decl.members) {
        switch (m.kind) {
          case 'SkillPrompt':
            this.walkTemplate(m.template, inputScope);
            break;
          case 'SkillFallback':
            this.refer(m.skill, this.skills.get(m.skill.name)?.symbol);
            break;
          case 'InvariantDecl':
            this.walk(m.check, invariantScope);
            break;
          case 'SkillTemplateDecl':
            this.declare({
              kind: 'template',
              name: m.name.name,
              span: m.name.span,
              declaration: m.span,
              signature: `template ${m.name.name}${m.when === undefined ? '' : ' when …'}`,
              detail: `template of skill \`${id}\`${m.when === undefined ? ', used when no earlier template applies' : ''}`,
            });
            if (m.when !== undefined) this.walk(m.when, inputScope);
            for (const field of m.fields) {
              this.refer(field.name, output.get(field.name.name)?.[0]);
              this.walkTemplate(field.template, inputScope);
            }
            break;
          default:
            break;
        }
      }
    };
  }

  /**
   * What a written type declares: the fields of a record type (`display_parameters: { tone: … }`)
   * and the members of an enum (`"child" | "spouse"`), each a name of its own.
   */
  private declareType(root: TypeExpr, rootOwner: string): void {
    const stack: { type: TypeExpr; owner: string }[] = [{ type: root, owner: rootOwner }];
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const { type, owner } = item;
      if (type.kind === 'OptionalType') stack.push({ type: type.inner, owner });
      else if (type.kind === 'ListType') stack.push({ type: type.element, owner });
      else if (type.kind === 'EnumType') for (const members of this.types.enumOf(type, owner)?.values() ?? []) members.forEach((m) => this.declare(m));
      else if (type.kind === 'RecordType') {
        for (const inner of type.fields) {
          this.declare(this.types.field(inner, `field of \`${owner}\``));
          stack.push({ type: inner.type, owner: inner.name.name });
        }
      }
    }
  }

  /** A field declaration: its name and what its type declares. */
  private declareField(symbol: WorldSymbol, decl: FieldDecl): void {
    this.declare(symbol);
    this.declareType(decl.type, decl.name.name);
  }

  // ── Scenarios ─────────────────────────────────────────────────────────────

  private declareScenario(decl: ScenarioDecl): () => void {
    const id = decl.id.name;
    const version = decl.members.find((m) => m.kind === 'ScenarioVersion');
    const symbol = this.declare({
      kind: 'scenario',
      name: id,
      span: decl.id.span,
      declaration: decl.span,
      signature: `scenario ${id}`,
      detail: `selection scenario${version?.kind === 'ScenarioVersion' ? ` · version ${version.version.value}` : ''}`,
    });
    const fieldsOf = (kind: 'SignalsBlock' | 'StateBlock') => decl.members.flatMap((m) => (m.kind === kind ? m.fields : []));
    const signalFields = fieldsOf('SignalsBlock');
    const stateFields = fieldsOf('StateBlock');
    const signalSymbol = (field: FieldDecl) => this.types.field(field, `signal of scenario \`${id}\``, 'signal');
    const stateSymbol = (field: FieldDecl) => this.types.field(field, `state of scenario \`${id}\`, derived from the signals`, 'state');
    for (const field of signalFields) this.declareField(signalSymbol(field), field);
    for (const field of stateFields) this.declareField(stateSymbol(field), field);
    const signals = this.types.table(signalFields, signalSymbol);
    const state = this.types.table(stateFields, stateSymbol);

    const actionTypeDecls = decl.members.filter((m): m is ActionTypeDecl => m.kind === 'ActionTypeDecl');
    const actionTypes = new Map<string, WorldSymbol>();
    const actionTypeFields = new Map<string, SymbolTable>();
    for (const typeDecl of actionTypeDecls) {
      const name = typeDecl.name.name;
      const fieldSymbol = (field: FieldDecl) => this.types.field(field, `field of action type \`${name}\` of scenario \`${id}\``);
      for (const field of typeDecl.fields) this.declareField(fieldSymbol(field), field);
      if (name !== '' && !actionTypeFields.has(name)) actionTypeFields.set(name, this.types.table(typeDecl.fields, fieldSymbol));
      const typeSymbol = this.declare({
        kind: 'action-type',
        name,
        span: typeDecl.name.span,
        declaration: typeDecl.span,
        signature: `action_type ${name}`,
        detail: `action type of scenario \`${id}\`${typeDecl.skill === undefined ? '' : `, narrated by skill \`${typeDecl.skill.name}\``}`,
      });
      if (name !== '' && !actionTypes.has(name)) actionTypes.set(name, typeSymbol);
    }

    // The candidate: `action_id`, `type`, and every field of any action type.
    const actionTypeNames = [...actionTypes.keys()];
    const candidateFields = new Map<string, WorldSymbol[]>([
      ['action_id', [builtinField('action_id', 'string', 'the id of the candidate action')]],
      [
        'type',
        [builtinField('type', actionTypeNames.map((n) => JSON.stringify(n)).join(' | ') || 'string', `the action type of the candidate, one of scenario \`${id}\`'s`, {
          enumMembers: () => new Map([...actionTypes].map(([name, s]) => [name, [s]])),
        })],
      ],
    ]);
    for (const table of actionTypeFields.values()) {
      for (const [name, fields] of table) {
        if (name === 'action_id' || name === 'type') continue;
        candidateFields.set(name, [...(candidateFields.get(name) ?? []), ...fields]);
      }
    }
    const actionRoot: WorldSymbol = {
      kind: 'root',
      name: 'action',
      signature: `action: ${actionTypeNames.join(' | ') || 'candidate'}`,
      detail: `the candidate action being filtered and scored; a field only some action types have may be absent`,
      members: () => candidateFields,
    };
    const actionIdRoot: WorldSymbol = { kind: 'root', name: 'action_id', signature: 'action_id: string', detail: 'the id of the candidate action' };
    const flat = (table: SymbolTable) => [...table.values()].map((s) => s[0]!);
    const stateScope = scopeOf([...flat(signals), ...flat(state)]);
    const scope = scopeOf([...flat(signals), ...flat(state), actionRoot, actionIdRoot]);
    if (id !== '' && !this.scenarios.has(id)) this.scenarios.set(id, { symbol, scope, signals, actionTypes, actionTypeFields, candidateFields });

    return () => {
      for (const field of signalFields) if (field.defaultValue !== undefined) this.literalsNamingMembers(field.defaultValue, [signalSymbol(field)]);
      for (const field of stateFields) if (field.defaultValue !== undefined) this.walk(field.defaultValue, stateScope);
      for (const m of decl.members) {
        switch (m.kind) {
          case 'ActionTypeDecl':
            if (m.skill !== undefined) this.refer(m.skill, this.skills.get(m.skill.name)?.symbol);
            break;
          case 'GuardrailDecl':
            this.walk(m.when, scope);
            if (m.effect.kind === 'BlockEffect') this.walk(m.effect.predicate, scope);
            else if (m.effect.kind === 'ForceEffect') this.refer(m.effect.actionType, actionTypes.get(m.effect.actionType.name));
            else {
              this.walk(m.effect.field, scope);
              this.walk(m.effect.limit, scope);
            }
            break;
          case 'ObjectiveDecl':
            this.declare({
              kind: 'objective',
              name: m.name.name,
              span: m.name.span,
              declaration: m.span,
              signature: `objective ${m.name.name} weight ${m.weight.value}`,
              detail: `objective of scenario \`${id}\``,
            });
            this.walk(m.score, scope);
            break;
          case 'TieBreakDecl':
            for (const key of m.keys) this.walk(key.key, scope);
            break;
          default:
            break;
        }
      }
    };
  }

  // ── Tests ─────────────────────────────────────────────────────────────────

  private indexTest(decl: TestDecl): void {
    const name = decl.name.value;
    this.declare({ kind: 'test', name, span: decl.name.span, declaration: decl.span, signature: `test ${JSON.stringify(name)}`, detail: 'golden test' });
    const actionRef = decl.members.find((m) => m.kind === 'TestAction');
    const scenarioRef = decl.members.find((m) => m.kind === 'TestScenario');
    const action = actionRef?.kind === 'TestAction' ? this.actions.get(actionRef.action.name) : undefined;
    const scenario = scenarioRef?.kind === 'TestScenario' ? this.scenarios.get(scenarioRef.scenario.name) : undefined;
    const candidates = new Map<string, WorldSymbol>();

    for (const m of decl.members) {
      switch (m.kind) {
        case 'TestAction':
          this.refer(m.action, action?.symbol);
          break;
        case 'TestScenario':
          this.refer(m.scenario, scenario?.symbol);
          break;
        case 'TestContext':
          for (const entry of m.value.entries) {
            const attribute = action?.scope.lookup(entry.key.name);
            this.refer(entry.key, attribute);
            if (attribute !== undefined) this.valueNamingMembers(entry.value, attribute.typeExpr, attribute.name);
          }
          break;
        case 'TestSystem':
          for (const entry of m.value.entries) {
            const declared = action?.scope.lookup(entry.key.name);
            this.refer(entry.key, declared ?? builtinSystemAttribute(entry.key.name));
          }
          break;
        case 'TestSignals':
          for (const entry of m.value.entries) {
            const signal = scenario?.signals.get(entry.key.name)?.[0];
            this.refer(entry.key, signal);
            if (signal !== undefined) this.valueNamingMembers(entry.value, signal.typeExpr, signal.name);
          }
          break;
        case 'TestActions':
          for (const item of m.value.items) if (item.kind === 'ValueRecord') this.indexCandidate(item, scenario, candidates, name);
          break;
        case 'TestExpectStatus':
          if (m.rule !== undefined) this.refer(m.rule, action?.rules.get(m.rule.name));
          break;
        case 'TestExpectMissingEvidence':
          for (const attribute of m.attributes) this.refer(attribute, action?.scope.lookup(attribute.name));
          break;
        case 'TestExpectSelected':
          this.record(m.actionId.span, [candidates.get(m.actionId.value)].filter((c) => c !== undefined));
          break;
        default:
          break;
      }
    }
  }

  /** One `{ action_id: "a1", type: "workout_session", … }` of a selection test. */
  private indexCandidate(record: Extract<Value, { kind: 'ValueRecord' }>, scenario: ScenarioEntry | undefined, candidates: Map<string, WorldSymbol>, test: string): void {
    const typeValue = record.entries.find((e) => e.key.name === 'type')?.value;
    const typeName = typeValue?.kind === 'ValueScalar' ? typeValue.value : undefined;
    const actionType = typeof typeName === 'string' ? scenario?.actionTypes.get(typeName) : undefined;
    for (const entry of record.entries) {
      const key = entry.key.name;
      if (key === 'action_id') {
        this.refer(entry.key, scenario?.candidateFields.get('action_id')?.[0]);
        if (entry.value.kind === 'ValueScalar' && typeof entry.value.value === 'string' && !candidates.has(entry.value.value)) {
          const id = entry.value.value;
          candidates.set(id, this.declare({ kind: 'test-action', name: id, span: entry.value.span, declaration: record.span, signature: `action_id ${JSON.stringify(id)}`, detail: `candidate action of test ${JSON.stringify(test)}` }));
        }
        continue;
      }
      if (key === 'type') {
        this.refer(entry.key, scenario?.candidateFields.get('type')?.[0]);
        if (actionType !== undefined && typeValue !== undefined) this.record(typeValue.span, [actionType]);
        continue;
      }
      const ofType = actionType === undefined ? undefined : scenario?.actionTypeFields.get(actionType.name)?.get(key);
      const targets = ofType ?? scenario?.candidateFields.get(key) ?? [];
      this.record(entry.key.span, targets);
      if (targets[0] !== undefined) this.valueNamingMembers(entry.value, targets[0].typeExpr, key);
    }
  }

  /** Enum members and record fields named inside a test value of a declared type. */
  private valueNamingMembers(value: Value, type: TypeExpr | undefined, owner: string): void {
    const stack: { value: Value; type: TypeExpr | undefined; owner: string }[] = [{ value, type, owner }];
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const { value: v, type: t, owner: o } = item;
      if (t === undefined) continue;
      if (v.kind === 'ValueScalar' && typeof v.value === 'string') {
        const member = this.types.enumOf(t, o)?.get(v.value);
        if (member !== undefined) this.record(v.span, member);
      } else if (v.kind === 'ValueList') {
        const element = listElement(t);
        for (const entry of v.items) stack.push({ value: entry, type: element, owner: o });
      } else if (v.kind === 'ValueRecord') {
        const fields = this.types.recordFields(t, o);
        for (const entry of v.entries) {
          const field = fields?.get(entry.key.name);
          if (field === undefined) continue;
          this.record(entry.key.span, field);
          stack.push({ value: entry.value, type: field[0]!.typeExpr, owner: entry.key.name });
        }
      }
    }
  }

  // ── Expressions ───────────────────────────────────────────────────────────

  private refer(identifier: Identifier, target: WorldSymbol | undefined): void {
    if (target !== undefined && identifier.name !== '') this.record(identifier.span, [target]);
  }

  private walkTemplate(template: TemplateString, scope: NameScope): void {
    for (const part of template.parts) if (part.kind !== 'TemplateText') this.walk(part, scope);
  }

  private walk(root: Expr, scope: NameScope): void {
    const stack: Expr[] = [root];
    for (let expr = stack.pop(); expr !== undefined; expr = stack.pop()) {
      switch (expr.kind) {
        case 'NameExpr':
          this.record(expr.span, this.resolve(expr, scope));
          break;
        case 'MemberExpr': {
          // The whole chain `a.b.c` at once; its base, if not a name, is walked on its own.
          this.resolve(expr, scope);
          let current: Expr = expr;
          while (current.kind === 'MemberExpr') {
            this.record(current.property.span, this.resolved.get(current) ?? []);
            current = current.object;
          }
          if (current.kind === 'NameExpr') this.record(current.span, this.resolved.get(current) ?? []);
          else stack.push(current);
          break;
        }
        case 'CallExpr': {
          const fn = builtinFunction(expr.callee.name);
          if (fn !== undefined) this.record(expr.callee.span, [fn]);
          stack.push(...expr.args);
          break;
        }
        case 'ListExpr':
          stack.push(...expr.items);
          break;
        case 'UnaryExpr':
          stack.push(expr.operand);
          break;
        case 'NullCheckExpr':
          stack.push(expr.operand);
          break;
        case 'LengthExpr':
          stack.push(expr.operand, expr.limit);
          break;
        case 'ConditionalExpr':
          stack.push(expr.condition, expr.consequent);
          if (expr.alternate !== undefined) stack.push(expr.alternate);
          break;
        case 'BinaryExpr':
          this.enumLiteralsOf(expr, scope);
          stack.push(expr.left, expr.right);
          break;
        default:
          break;
      }
    }
  }

  /** What a name or a member chain refers to (memoized per node). */
  private resolve(expr: Expr, scope: NameScope): readonly WorldSymbol[] {
    const known = this.resolved.get(expr);
    if (known !== undefined) return known;
    if (expr.kind === 'NameExpr') {
      const symbol = expr.name === '' ? undefined : scope.lookup(expr.name);
      const result = symbol === undefined ? [] : [symbol];
      this.resolved.set(expr, result);
      return result;
    }
    if (expr.kind === 'BinaryExpr' && expr.operator === '??') return this.resolve(expr.left, scope);
    if (expr.kind !== 'MemberExpr') return [];
    const chain: Extract<Expr, { kind: 'MemberExpr' }>[] = [];
    let base: Expr = expr;
    while (base.kind === 'MemberExpr') {
      chain.push(base);
      base = base.object;
    }
    let targets = base.kind === 'NameExpr' ? this.resolve(base, scope) : [];
    for (const member of chain.reverse()) {
      targets = member.property.name === '' ? [] : (this.membersOf(targets).get(member.property.name) ?? []);
      this.resolved.set(member, targets);
    }
    return targets;
  }

  membersOf(symbols: readonly WorldSymbol[]): SymbolTable {
    if (symbols.length === 1) return this.membersOfOne(symbols[0]!);
    const merged = new Map<string, WorldSymbol[]>();
    for (const symbol of symbols) {
      for (const [name, targets] of this.membersOfOne(symbol)) merged.set(name, [...(merged.get(name) ?? []), ...targets]);
    }
    return merged;
  }

  private membersOfOne(symbol: WorldSymbol): SymbolTable {
    return symbol.members?.() ?? this.types.recordFields(symbol.typeExpr, symbol.name) ?? EMPTY_TABLE;
  }

  enumMembersOf(symbols: readonly WorldSymbol[], listElements = false): SymbolTable {
    const merged = new Map<string, WorldSymbol[]>();
    for (const symbol of symbols) {
      const type = listElements ? listElement(symbol.typeExpr) : symbol.typeExpr;
      const members = (listElements ? undefined : symbol.enumMembers?.()) ?? this.types.enumOf(type, symbol.name) ?? EMPTY_TABLE;
      for (const [value, targets] of members) merged.set(value, [...(merged.get(value) ?? []), ...targets]);
    }
    return merged;
  }

  /**
   * String literals that name an enum member: compared with an enum (`==`, `!=`, `EQUALS`,
   * `??`), tested for membership (`in`), or looked for in a list of an enum (`CONTAINS`).
   */
  private enumLiteralsOf(expr: Extract<Expr, { kind: 'BinaryExpr' }>, scope: NameScope): void {
    const left = () => this.resolve(expr.left, scope);
    const right = () => this.resolve(expr.right, scope);
    switch (expr.operator) {
      case '==':
      case '!=':
      case 'EQUALS':
        this.literalsNamingMembers(expr.right, left());
        this.literalsNamingMembers(expr.left, right());
        break;
      case '??':
        this.literalsNamingMembers(expr.right, left());
        break;
      case 'in':
        if (expr.right.kind === 'ListExpr') for (const item of expr.right.items) this.literalsNamingMembers(item, left());
        this.literalsNamingMembers(expr.left, right(), true);
        break;
      case 'CONTAINS':
      case 'NOT CONTAINS':
        this.literalsNamingMembers(expr.right, left(), true);
        break;
      case 'CONTAINS_ANY':
      case 'NOT CONTAINS_ANY':
        if (expr.right.kind === 'ListExpr') for (const item of expr.right.items) this.literalsNamingMembers(item, left(), true);
        break;
      default:
        break;
    }
  }

  /** The string literals `value` is made of (itself, or the branches of an `if`) that are members of the enum `symbols` hold. */
  private literalsNamingMembers(value: Expr, symbols: readonly WorldSymbol[], listElements = false): void {
    if (symbols.length === 0) return;
    const members = this.enumMembersOf(symbols, listElements);
    if (members.size === 0) return;
    const stack: Expr[] = [value];
    for (let expr = stack.pop(); expr !== undefined; expr = stack.pop()) {
      if (expr.kind === 'StringLiteral') this.record(expr.span, members.get(expr.value) ?? []);
      else if (expr.kind === 'ConditionalExpr') stack.push(expr.consequent, ...(expr.alternate === undefined ? [] : [expr.alternate]));
    }
  }

  // ── Result ────────────────────────────────────────────────────────────────

  private result(): WorldIndex {
    const byFile = new Map<string, SymbolOccurrence[]>();
    for (const [file, list] of this.occurrences) {
      // One occurrence per span: the first resolution recorded wins.
      const unique = new Map<string, SymbolOccurrence>();
      for (const occurrence of list) {
        const key = `${occurrence.span.offset}:${occurrence.span.endOffset}`;
        if (!unique.has(key)) unique.set(key, occurrence);
      }
      byFile.set(file, [...unique.values()].sort((a, b) => a.span.offset - b.span.offset || b.span.endOffset - a.span.endOffset));
    }
    const all = [...byFile.values()].flat();
    const texts = this.texts;
    return {
      sharedScope: this.sharedScope,
      actions: this.actions,
      skills: this.skills,
      scenarios: this.scenarios,
      occurrenceAt: (file, offset) => occurrenceAt(byFile.get(file) ?? [], offset),
      occurrencesOf: (symbol) => all.filter((o) => o.targets.includes(symbol)),
      docOf: (symbol) => {
        const span = symbol.declaration ?? symbol.span;
        const text = span === undefined ? undefined : texts.get(span.file);
        return span === undefined || text === undefined ? undefined : docComment(text, span);
      },
      membersOf: (symbols) => this.membersOf(symbols),
      enumMembersOf: (symbols, listElements) => this.enumMembersOf(symbols, listElements),
    };
  }
}

/**
 * The occurrence under `offset`: the narrowest span containing it; a cursor right after a
 * name (where an editor puts it after a double-click or while typing) counts as on it.
 */
function occurrenceAt(occurrences: readonly SymbolOccurrence[], offset: number): SymbolOccurrence | undefined {
  let best: SymbolOccurrence | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const occurrence of occurrences) {
    const { offset: start, endOffset: end } = occurrence.span;
    if (start > offset) break;
    if (offset > end) continue;
    const score = (end - start) * 2 + (offset === end ? 1 : 0);
    if (score < bestScore) {
      best = occurrence;
      bestScore = score;
    }
  }
  return best;
}

/** The span of the first `length` characters of `span` (a keyword starting a block). */
function keywordSpan(span: Span, length: number): Span {
  return { ...span, endOffset: span.offset + length, endLine: span.line, endColumn: span.column + length };
}

function optionalSpan(span: Span | undefined): { span?: Span } {
  return span === undefined ? {} : { span };
}

