/**
 * The symbol index of a world: every declared name and every name that refers to one, with
 * spans. What a name refers to is the checker's answer (`bindWorld` of @adec/compiler), so
 * the editor and the compiler never disagree about it; this index adds what the editor
 * shows: the symbols with their hover text, and the names each place offers for
 * completion. Where the world has errors, what the checker still resolves is, so hover and
 * go to definition keep working while the author types.
 */
import { bindWorld, type BoundTarget, type ScopeKind, type WorldBindings } from '@adec/compiler';
import type { Span } from '@adec/diagnostics';
import type { ActionDecl, ActionTypeDecl, ContextBlock, FieldDecl, ScenarioDecl, SkillDecl, SourceFile, TestDecl, TypeExpr } from '@adec/grammar';
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
  return new IndexBuilder(texts, bindWorld(files)).build(files);
}

function scopeOf(bindings: readonly WorldSymbol[]): NameScope {
  const byName = new Map<string, WorldSymbol>();
  for (const binding of bindings) if (!byName.has(binding.name)) byName.set(binding.name, binding);
  return { lookup: (name) => byName.get(name), names: () => [...byName.values()] };
}

/** A scope made when it is first used: after every symbol it names is declared. */
function lazyScope(symbols: () => readonly WorldSymbol[]): NameScope {
  let scope: NameScope | undefined;
  const made = () => (scope ??= scopeOf(symbols()));
  return { lookup: (name) => made().lookup(name), names: () => made().names() };
}

const EMPTY_TABLE: SymbolTable = new Map();

class IndexBuilder {
  private readonly types = new TypeMembers();
  private readonly occurrences = new Map<string, SymbolOccurrence[]>();
  /** Declared symbols by the span of their name: what the checker's bindings point at. */
  private readonly declared = new Map<string, WorldSymbol>();
  /** `payload`, `action`, … by the span of the skill's or scenario's id and their name. */
  private readonly roots = new Map<string, WorldSymbol>();

  private readonly sharedScope: NameScope;
  private readonly actions = new Map<string, ActionEntry>();
  private readonly skills = new Map<string, SkillEntry>();
  private readonly scenarios = new Map<string, ScenarioEntry>();

  constructor(
    private readonly texts: ReadonlyMap<string, string>,
    private readonly bindings: WorldBindings,
  ) {
    this.sharedScope = this.scopeOfChecker('shared-context');
  }

  build(files: readonly SourceFile[]): WorldIndex {
    const declarations = files.flatMap((f) => f.declarations);
    const of = <K extends (typeof declarations)[number]['kind']>(kind: K) =>
      declarations.filter((d): d is Extract<(typeof declarations)[number], { kind: K }> => d.kind === kind);

    this.declareAttributes(of('ContextBlock'), 'shared context attribute');
    for (const decl of of('ActionDecl')) this.declareAction(decl);
    for (const decl of of('SkillDecl')) this.declareSkill(decl);
    for (const decl of of('ScenarioDecl')) this.declareScenario(decl);
    for (const decl of of('TestDecl')) this.declareTest(decl);

    for (const reference of this.bindings.references) {
      this.record(reference.span, reference.targets.flatMap((target) => this.symbolOf(target) ?? []));
    }
    return this.result();
  }

  /** The names the checker makes visible at one kind of place of `owner` (its name's span). */
  private scopeOfChecker(kind: ScopeKind, owner?: Span): NameScope {
    const ownerKey = owner === undefined ? undefined : spanKey(owner);
    return lazyScope(() => {
      const scope = this.bindings.scopes.find((s) => s.kind === kind && (s.owner === undefined ? undefined : spanKey(s.owner)) === ownerKey);
      return scope?.names.flatMap((n) => this.symbolOf(n.target) ?? []) ?? [];
    });
  }

  private declareRoot(owner: Span, root: WorldSymbol): WorldSymbol {
    this.roots.set(`${spanKey(owner)}\u0000${root.name}`, root);
    return root;
  }

  /** The symbol the checker bound a name to. */
  private symbolOf(target: BoundTarget): WorldSymbol | undefined {
    switch (target.kind) {
      case 'declaration':
        return this.declared.get(spanKey(target.span));
      case 'root':
        return this.roots.get(`${spanKey(target.owner)}\u0000${target.name}`);
      case 'root-field': {
        const root = this.roots.get(`${spanKey(target.owner)}\u0000${target.root}`);
        return root === undefined ? undefined : this.membersOf([root]).get(target.name)?.[0];
      }
      case 'function':
        return builtinFunction(target.name);
      case 'system-attribute':
        return builtinSystemAttribute(target.name);
    }
  }

  // ── Occurrences ───────────────────────────────────────────────────────────

  private record(span: Span, targets: readonly WorldSymbol[], isDeclaration = false): void {
    if (targets.length === 0 || span.endOffset <= span.offset) return;
    let list = this.occurrences.get(span.file);
    if (list === undefined) this.occurrences.set(span.file, (list = []));
    list.push({ span, targets, isDeclaration });
  }

  private declare(symbol: WorldSymbol): WorldSymbol {
    if (symbol.span !== undefined) {
      this.record(symbol.span, [symbol], true);
      const key = spanKey(symbol.span);
      if (!this.declared.has(key)) this.declared.set(key, symbol);
    }
    return symbol;
  }

  // ── Context attributes ────────────────────────────────────────────────────

  private declareAttributes(blocks: readonly ContextBlock[], detail: string): void {
    for (const decl of blocks.flatMap((b) => b.attributes)) {
      const name = decl.name.name;
      if (name === '') continue;
      this.declareType(decl.type, name);
      const type = typeText(decl.type);
      this.declare({
        kind: 'attribute',
        name,
        span: decl.name.span,
        declaration: decl.span,
        signature: `${decl.source} ${name}: ${type}`,
        detail,
        typeText: type,
        typeExpr: decl.type,
      });
    }
  }

  // ── Actions and rules ─────────────────────────────────────────────────────

  private declareAction(decl: ActionDecl): void {
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
    this.declareAttributes(decl.contexts, `context attribute of action \`${name}\``);
    const scope = this.scopeOfChecker('action', decl.name.span);
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
    }
    if (name !== '' && !this.actions.has(name)) this.actions.set(name, { symbol, scope, rules });
  }

  // ── Skills ────────────────────────────────────────────────────────────────

  private declareSkill(decl: SkillDecl): void {
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
    for (const root of [payloadRoot, actionMetadataRoot, userStateRoot, decisionContextRoot]) this.declareRoot(decl.id.span, root);
    const inputScope = this.scopeOfChecker('skill-input', decl.id.span);
    const invariantScope = this.scopeOfChecker('skill-invariant', decl.id.span);
    if (id !== '' && !this.skills.has(id)) this.skills.set(id, { symbol, inputScope, invariantScope, outputFields: output });

    for (const m of decl.members) {
      if (m.kind !== 'SkillTemplateDecl') continue;
      this.declare({
        kind: 'template',
        name: m.name.name,
        span: m.name.span,
        declaration: m.span,
        signature: `template ${m.name.name}${m.when === undefined ? '' : ' when …'}`,
        detail: `template of skill \`${id}\`${m.when === undefined ? ', used when no earlier template applies' : ''}`,
      });
    }
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

  private declareScenario(decl: ScenarioDecl): void {
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
    for (const root of [actionRoot, actionIdRoot]) this.declareRoot(decl.id.span, root);
    const scope = this.scopeOfChecker('scenario', decl.id.span);
    if (id !== '' && !this.scenarios.has(id)) this.scenarios.set(id, { symbol, scope, signals, actionTypes, actionTypeFields, candidateFields });

    for (const m of decl.members) {
      if (m.kind !== 'ObjectiveDecl') continue;
      this.declare({
        kind: 'objective',
        name: m.name.name,
        span: m.name.span,
        declaration: m.span,
        signature: `objective ${m.name.name} weight ${m.weight.value}`,
        detail: `objective of scenario \`${id}\``,
      });
    }
  }

  // ── Tests ─────────────────────────────────────────────────────────────────

  /** A test, and the candidate actions a selection test declares by their `action_id` (the first of each id). */
  private declareTest(decl: TestDecl): void {
    const name = decl.name.value;
    this.declare({ kind: 'test', name, span: decl.name.span, declaration: decl.span, signature: `test ${JSON.stringify(name)}`, detail: 'golden test' });
    const ids = new Set<string>();
    for (const record of decl.members.flatMap((m) => (m.kind === 'TestActions' ? m.value.items : []))) {
      if (record.kind !== 'ValueRecord') continue;
      const id = record.entries.find((e) => e.key.name === 'action_id')?.value;
      if (id?.kind !== 'ValueScalar' || typeof id.value !== 'string' || ids.has(id.value)) continue;
      ids.add(id.value);
      this.declare({ kind: 'test-action', name: id.value, span: id.span, declaration: record.span, signature: `action_id ${JSON.stringify(id.value)}`, detail: `candidate action of test ${JSON.stringify(name)}` });
    }
  }

  // ── What follows a name ───────────────────────────────────────────────────

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

function spanKey(span: Span): string {
  return `${span.file}\u0000${span.offset}:${span.endOffset}`;
}

function optionalSpan(span: Span | undefined): { span?: Span } {
  return span === undefined ? {} : { span };
}

