/**
 * Completion: the names in scope where the cursor is (attributes, signals, state, the SEC
 * envelope, fields after a `.`), enum members where a string is compared with an enum or
 * given for one in a test, rule names after `suppresses` and `by`, skills after `fallback`,
 * action types after `force`, types after `:`, the spellings of outcomes, severities and
 * modes, and the keywords that may start a clause in the enclosing block.
 */
import { CompletionItemKind, type CompletionItem, type Range } from 'vscode-languageserver';
import type { NameScope, WorldIndex } from '../symbols/world-index.js';
import type { WorldSymbol } from '../symbols/world-symbol.js';
import { BUILTIN_FUNCTIONS, SYSTEM_ATTRIBUTE_NAMES } from '../symbols/builtins.js';
import { cursorContext, type CursorContext, type Frame } from './cursor-context.js';
import {
  AGGREGATION_MODES,
  CLAUSE_KEYWORDS,
  DEFAULT_MODES,
  EXPRESSION_KEYWORDS,
  OUTCOMES,
  SEVERITIES,
  SKILL_TYPES,
  TYPE_NAMES,
} from './keywords.js';

export interface CompletionInput {
  readonly text: string;
  readonly offset: number;
  /** The world's index, if it could be built. */
  readonly index: WorldIndex | undefined;
  /** The range of `[offset - length, offset)`, which an item replaces. */
  readonly rangeBefore: (length: number) => Range;
}

const PATH = String.raw`[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*`;
const DOT_PATH = new RegExp(String.raw`(${PATH})\s*\.\s*$`);
const COMPARED_WITH = new RegExp(String.raw`(${PATH})\s*(?:==|!=|EQUALS|\?\?)\s*$`);
const IN_LIST = new RegExp(String.raw`(${PATH})\s+(?:in|CONTAINS_ANY|NOT\s+CONTAINS_ANY)\s*$`);
const CONTAINS = new RegExp(String.raw`(${PATH})\s+(?:NOT\s+)?CONTAINS\s*$`);
const RECORD_KEY = /([A-Za-z_]\w*)\s*:\s*$/;

export function completions(input: CompletionInput): CompletionItem[] {
  const context = cursorContext(input.text, input.offset);
  if (context.inComment) return [];
  const frames = context.frames.filter((f) => f.bracket !== '(');
  const items = new Items(input);
  const where = new Place(frames, context, input);

  if (context.inString) {
    where.stringValues(items);
    return items.list();
  }

  // What decides a completion is near the cursor; a 10,000-term line need not be matched whole.
  const statement = context.statement.slice(-4_000);
  const prefix = /[A-Za-z_][A-Za-z0-9_]*$/.exec(statement)?.[0] ?? '';
  const before = statement.slice(0, statement.length - prefix.length);
  // `GREEN-SK`: outcomes and statuses are the only words with a hyphen.
  const hyphenated = /[A-Za-z_][A-Za-z0-9_]*-[A-Za-z0-9_]*$/.exec(statement)?.[0];
  const previous = /([A-Za-z_]\w*)\s+$/.exec(hyphenated === undefined ? before : statement.slice(0, statement.length - hyphenated.length))?.[1];
  const kind = where.innermost?.keyword ?? '';
  items.replacing(prefix.length);

  const dotted = DOT_PATH.exec(before);
  if (dotted !== null) {
    for (const [name, targets] of where.members(dotted[1]!)) items.symbol(name, targets);
    return items.list();
  }

  if (/\bsuppresses\s+(?:[A-Za-z_]\w*\s*,\s*)*$/.test(before)) {
    const action = where.action;
    const self = where.frame('rule')?.name;
    for (const [name, rule] of action?.rules ?? []) if (name !== self) items.symbol(name, [rule]);
    return items.list();
  }

  const words = (list: readonly string[], itemKind: CompletionItemKind, detail?: string) => {
    for (const word of list) items.word(word, itemKind, detail);
  };
  switch (previous) {
    case 'outcome':
      items.replacing(/[A-Za-z_-]*$/.exec(statement)?.[0]?.length ?? prefix.length);
      words(OUTCOMES, CompletionItemKind.EnumMember, 'outcome');
      return items.list();
    case 'severity':
      words(SEVERITIES, CompletionItemKind.EnumMember, 'severity tier');
      return items.list();
    case 'aggregate':
      words(AGGREGATION_MODES, CompletionItemKind.EnumMember, 'aggregation mode');
      return items.list();
    case 'default_mode':
      words(DEFAULT_MODES, CompletionItemKind.EnumMember, 'default mode');
      return items.list();
    case 'fallback':
      for (const [name, skill] of input.index?.skills ?? []) items.symbol(name, [skill.symbol]);
      return items.list();
    case 'force':
      for (const [name, type] of where.scenario?.actionTypes ?? []) items.symbol(name, [type]);
      return items.list();
    default:
      break;
  }
  if (previous === 'on' && kind === 'action') {
    items.replacing(/[A-Za-z_-]*$/.exec(statement)?.[0]?.length ?? prefix.length);
    words(OUTCOMES, CompletionItemKind.EnumMember, 'status');
    return items.list();
  }
  if (previous === 'type' && kind === 'skill') {
    words(SKILL_TYPES, CompletionItemKind.EnumMember, 'skill type');
    return items.list();
  }
  if (previous === 'skill' && kind === 'action_type') {
    for (const [name, skill] of input.index?.skills ?? []) items.symbol(name, [skill.symbol]);
    return items.list();
  }
  if (previous === 'system' && kind === 'context' && !where.inTest) {
    words(SYSTEM_ATTRIBUTE_NAMES, CompletionItemKind.Variable, 'system attribute');
    return items.list();
  }
  if (kind === 'test') {
    if (previous === 'action') {
      for (const [name, action] of input.index?.actions ?? []) items.symbol(name, [action.symbol]);
      return items.list();
    }
    if (previous === 'scenario') {
      for (const [name, scenario] of input.index?.scenarios ?? []) items.symbol(name, [scenario.symbol]);
      return items.list();
    }
    if (previous === 'by') {
      for (const [name, rule] of where.testAction?.rules ?? []) items.symbol(name, [rule]);
      return items.list();
    }
    if (previous === 'expect') {
      items.replacing(/[A-Za-z_-]*$/.exec(statement)?.[0]?.length ?? prefix.length);
      words([...OUTCOMES, 'selected', 'NO_ELIGIBLE_ACTIONS', 'skill'], CompletionItemKind.EnumMember, 'expected result');
      return items.list();
    }
    // `expect skill output { … }` and `expect skill validation passed | failed "…"`.
    const skillWords = previous === 'skill' ? ['output', 'validation'] : previous === 'validation' ? ['passed', 'failed'] : undefined;
    if (skillWords !== undefined) {
      words(skillWords, CompletionItemKind.Keyword, 'skill expectation');
      return items.list();
    }
  }

  if (where.inTest) {
    if (where.testRecordValues(before, items)) return items.list();
    if (where.testRecordKeys(before, items)) return items.list();
  } else if (where.declaresTypes && /(?::|<)\s*$/.test(before)) {
    words(TYPE_NAMES, CompletionItemKind.TypeParameter, 'type');
    return items.list();
  }

  // An enum compared with nothing yet: offer its members, quoted.
  const compared = COMPARED_WITH.exec(before) ?? (where.innermost?.bracket === '[' && lastEntry(before).trim() === '' ? IN_LIST.exec(where.innermost.before) : null);
  if (compared !== null && where.scope !== undefined) {
    const listElements = compared[0].includes('CONTAINS_ANY');
    for (const [value, targets] of where.enumMembers(compared[1]!, listElements)) items.quoted(value, targets);
  }
  const contained = CONTAINS.exec(before);
  if (contained !== null) for (const [value, targets] of where.enumMembers(contained[1]!, true)) items.quoted(value, targets);

  if (before.trim() === '' && !context.inInterpolation) {
    if (kind === 'template' && where.skill !== undefined) {
      for (const [name, fields] of where.skill.outputFields) items.symbol(name, fields);
    }
    words(Object.hasOwn(CLAUSE_KEYWORDS, kind) ? CLAUSE_KEYWORDS[kind]! : [], CompletionItemKind.Keyword);
  }
  if (where.scope !== undefined) {
    for (const symbol of where.scope.names()) items.symbol(symbol.name, [symbol], '1');
    for (const [name, fn] of BUILTIN_FUNCTIONS) items.symbol(name, [fn], '2');
    words(EXPRESSION_KEYWORDS, CompletionItemKind.Keyword);
  }
  return items.list();
}

/** Blocks whose lines are never expressions (their strings may interpolate). */
const WITHOUT_EXPRESSIONS = ['world', 'on', 'output', 'action_metadata', 'user_state', 'action_type', 'field', 'template'];

/** What the enclosing blocks say about the cursor's position. */
class Place {
  readonly innermost: Frame | undefined;
  readonly inTest: boolean;
  /** Inside a block that declares typed names (`context`, `output`, `signals`, a record type, …). */
  readonly declaresTypes: boolean;

  constructor(
    private readonly frames: readonly Frame[],
    private readonly context: CursorContext,
    private readonly input: CompletionInput,
  ) {
    this.innermost = frames[frames.length - 1];
    this.inTest = frames[0]?.keyword === 'test';
    const typed = ['context', 'output', 'action_metadata', 'user_state', 'signals', 'state', 'action_type', 'field'];
    this.declaresTypes = !this.inTest && typed.includes(this.innermost?.keyword ?? '');
  }

  frame(keyword: string): Frame | undefined {
    return this.frames.find((f) => f.keyword === keyword);
  }

  private get index(): WorldIndex | undefined {
    return this.input.index;
  }

  get action() {
    const name = this.frame('action')?.name;
    return name === undefined ? undefined : this.index?.actions.get(name);
  }

  get skill() {
    const name = this.frame('skill')?.name;
    return name === undefined ? undefined : this.index?.skills.get(name);
  }

  get scenario() {
    const name = this.frame('scenario')?.name;
    return name === undefined ? undefined : this.index?.scenarios.get(name);
  }

  /** The action a test names (`action x` anywhere in the test block). */
  get testAction() {
    const name = this.testClause('action');
    return name === undefined ? undefined : this.index?.actions.get(name);
  }

  get testScenario() {
    const name = this.testClause('scenario');
    return name === undefined ? undefined : this.index?.scenarios.get(name);
  }

  private testClause(word: 'action' | 'scenario'): string | undefined {
    const test = this.frame('test');
    if (test === undefined) return undefined;
    const text = this.input.text;
    const next = text.slice(test.start).search(/\n[ \t]*test\b/);
    const block = text.slice(test.start, next < 0 ? undefined : test.start + next);
    return new RegExp(String.raw`(?:^|[\s{])${word}\s+([A-Za-z_]\w*)`).exec(block)?.[1];
  }

  /** The names an expression at the cursor sees. */
  get scope(): NameScope | undefined {
    if (this.inTest || (!this.context.inInterpolation && WITHOUT_EXPRESSIONS.includes(this.innermost?.keyword ?? ''))) return undefined;
    const top = this.frames[0];
    if (top === undefined) return undefined;
    switch (top.keyword) {
      case 'context':
        return this.index?.sharedScope;
      case 'action':
        return this.action?.scope;
      case 'skill': {
        const skill = this.skill;
        const producesPayload = this.frame('template') !== undefined || /^\s*prompt\b/.test(this.context.statement);
        return producesPayload ? skill?.inputScope : skill?.invariantScope;
      }
      case 'scenario':
        return this.scenario?.scope;
      default:
        return undefined;
    }
  }

  /** What follows `path.`: the fields of whatever `path` holds. */
  members(path: string): ReadonlyMap<string, readonly WorldSymbol[]> {
    const index = this.index;
    const targets = this.resolve(path);
    return index === undefined || targets.length === 0 ? new Map() : index.membersOf(targets);
  }

  enumMembers(path: string, listElements = false): ReadonlyMap<string, readonly WorldSymbol[]> {
    const index = this.index;
    const targets = this.resolve(path);
    return index === undefined || targets.length === 0 ? new Map() : index.enumMembersOf(targets, listElements);
  }

  private resolve(path: string): readonly WorldSymbol[] {
    const [first, ...rest] = path.split(/\s*\.\s*/);
    const root = first === undefined ? undefined : this.scope?.lookup(first);
    let targets: readonly WorldSymbol[] = root === undefined ? [] : [root];
    for (const name of rest) targets = this.index?.membersOf(targets).get(name) ?? [];
    return targets;
  }

  /** Inside a string: the members of the enum it is compared with or given for. */
  stringValues(items: Items): void {
    const text = this.context.stringText;
    items.replacing(text.length);
    const before = this.context.beforeString;
    const compared = COMPARED_WITH.exec(before);
    if (compared !== null) {
      for (const [value, targets] of this.enumMembers(compared[1]!)) items.symbol(value, targets);
      return;
    }
    const contained = CONTAINS.exec(before);
    if (contained !== null) {
      for (const [value, targets] of this.enumMembers(contained[1]!, true)) items.symbol(value, targets);
      return;
    }
    if (this.innermost?.bracket === '[') {
      const inList = IN_LIST.exec(this.innermost.before);
      if (inList !== null) {
        for (const [value, targets] of this.enumMembers(inList[1]!, inList[0].includes('CONTAINS_ANY'))) items.symbol(value, targets);
        return;
      }
    }
    if (this.inTest) this.testValueMembers(lastEntry(before), (value, targets) => items.symbol(value, targets));
  }

  /** `key: ` in a test record: the members of the enum the key's attribute, signal or field holds. */
  testRecordValues(before: string, items: Items): boolean {
    const entry = lastEntry(before);
    if (!RECORD_KEY.test(entry)) return false;
    this.testValueMembers(entry, (value, targets) => items.quoted(value, targets));
    return true;
  }

  private testValueMembers(entry: string, offer: (value: string, targets: readonly WorldSymbol[]) => void): void {
    const key = RECORD_KEY.exec(entry)?.[1];
    if (key === undefined) return;
    const target = this.testKeyTargets().get(key);
    if (target === undefined || this.index === undefined) return;
    for (const [value, targets] of this.index.enumMembersOf(target)) offer(value, targets);
  }

  /** At the start of an entry of a test record: the keys it may have. */
  testRecordKeys(before: string, items: Items): boolean {
    const entry = lastEntry(before);
    if (entry.trim() !== '') return false;
    const keys = this.testKeyTargets();
    if (keys.size === 0) return false;
    for (const [name, targets] of keys) items.symbol(name, targets);
    return true;
  }

  /** The names a test record at the cursor may use as keys. */
  private testKeyTargets(): ReadonlyMap<string, readonly WorldSymbol[]> {
    const frame = this.innermost;
    const parent = this.frames[this.frames.length - 2];
    if (frame === undefined || frame.bracket !== '{') return new Map();
    const table = new Map<string, readonly WorldSymbol[]>();
    if (frame.keyword === 'context') {
      for (const symbol of this.testAction?.scope.names() ?? []) if (symbol.signature.startsWith('supplied ')) table.set(symbol.name, [symbol]);
    } else if (frame.keyword === 'system') {
      for (const name of SYSTEM_ATTRIBUTE_NAMES) {
        const declared = this.testAction?.scope.lookup(name);
        table.set(name, declared === undefined ? [] : [declared]);
      }
    } else if (frame.keyword === 'signals') {
      for (const [name, signals] of this.testScenario?.signals ?? []) table.set(name, signals);
    } else if (frame.keyword === undefined && parent?.bracket === '[' && parent.keyword === 'actions') {
      for (const [name, fields] of this.testScenario?.candidateFields ?? []) table.set(name, fields);
    }
    return table;
  }
}

/** The text of the last entry of a record or list: after its last `,`. */
function lastEntry(before: string): string {
  return before.slice(before.lastIndexOf(',') + 1);
}

const SYMBOL_KINDS: Readonly<Record<WorldSymbol['kind'], CompletionItemKind>> = {
  attribute: CompletionItemKind.Variable,
  'system-attribute': CompletionItemKind.Variable,
  signal: CompletionItemKind.Variable,
  state: CompletionItemKind.Variable,
  field: CompletionItemKind.Field,
  'enum-member': CompletionItemKind.EnumMember,
  rule: CompletionItemKind.Reference,
  action: CompletionItemKind.Module,
  skill: CompletionItemKind.Class,
  scenario: CompletionItemKind.Module,
  'action-type': CompletionItemKind.Struct,
  objective: CompletionItemKind.Property,
  template: CompletionItemKind.Snippet,
  test: CompletionItemKind.Event,
  'test-action': CompletionItemKind.Value,
  root: CompletionItemKind.Variable,
  function: CompletionItemKind.Function,
};

/** The items of one completion, each label once, each replacing the partial word. */
class Items {
  private readonly items = new Map<string, CompletionItem>();
  private replaced = 0;

  constructor(private readonly input: CompletionInput) {}

  replacing(length: number): void {
    this.replaced = length;
  }

  symbol(label: string, targets: readonly WorldSymbol[], rank = '0'): void {
    const first = targets[0];
    const doc = first === undefined ? undefined : [first.detail, this.input.index?.docOf(first)].filter((d) => d !== undefined).join('\n\n');
    const kind = first === undefined ? CompletionItemKind.Variable : SYMBOL_KINDS[first.kind];
    this.add(label, label, kind, rank, first?.signature, doc);
  }

  /** An enum member where code is expected: the string literal, with its quotes. */
  quoted(value: string, targets: readonly WorldSymbol[]): void {
    const first = targets[0];
    this.add(JSON.stringify(value), JSON.stringify(value), CompletionItemKind.EnumMember, '0', first?.detail);
  }

  word(word: string, kind: CompletionItemKind, detail?: string): void {
    this.add(word, word, kind, kind === CompletionItemKind.Keyword ? '3' : '0', detail);
  }

  private add(label: string, insert: string, kind: CompletionItemKind, rank: string, detail?: string, documentation?: string): void {
    if (this.items.has(label)) return;
    this.items.set(label, {
      label,
      kind,
      sortText: `${rank}${label}`,
      textEdit: { range: this.input.rangeBefore(this.replaced), newText: insert },
      ...(detail !== undefined && { detail }),
      ...(documentation !== undefined && documentation !== '' && { documentation: { kind: 'markdown', value: documentation } }),
    });
  }

  list(): CompletionItem[] {
    return [...this.items.values()];
  }
}
