/**
 * What the formatter needs to know about a file's structure, read from its AST and expressed
 * in token indices: which `{ … }` are statement blocks (always one item per line) and which
 * tokens start their items; which items align a column; where a token is glued to its
 * neighbour (`clamp(`, `list<string>`, unary `-`); which tokens are binary operators (where a
 * line may break); which expressions may be broken when their line is too long; and the
 * invariant checks, whose text the compiler records and which are therefore kept as written.
 */
import type * as A from '@adec/grammar';
import type { SourceToken } from '@adec/grammar';
import type { Span } from '@adec/diagnostics';

/** Finds tokens by offset, and each bracket's partner. */
export class TokenIndex {
  private readonly byStart = new Map<number, number>();
  private readonly byEnd = new Map<number, number>();
  /** The index of the matching bracket of `(`, `[`, `{`, `)`, `]`, `}`; -1 for other tokens. */
  readonly match: Int32Array;

  constructor(readonly tokens: readonly SourceToken[]) {
    this.match = new Int32Array(tokens.length).fill(-1);
    const open: number[] = [];
    tokens.forEach((token, i) => {
      this.byStart.set(token.offset, i);
      this.byEnd.set(token.offset + token.image.length, i);
      if (token.type === 'LParen' || token.type === 'LBracket' || token.type === 'LCurly') open.push(i);
      else if (token.type === 'RParen' || token.type === 'RBracket' || token.type === 'RCurly') {
        const opener = open.pop();
        if (opener !== undefined) {
          this.match[opener] = i;
          this.match[i] = opener;
        }
      }
    });
  }

  /** The token that starts at `offset`. */
  at(offset: number): number | undefined {
    return this.byStart.get(offset);
  }

  /** The token that ends at `endOffset`. */
  endingAt(endOffset: number): number | undefined {
    return this.byEnd.get(endOffset);
  }

  type(index: number): string | undefined {
    return this.tokens[index]?.type;
  }
}

/** Items of one block whose `target` tokens start in one column. */
export interface AlignGroup {
  /**
   * Names (`fit`) align only in items written on one line (an item that continues on the next
   * lines keeps one space, and does not widen the column). Clause keywords always align.
   */
  readonly fit: boolean;
  readonly entries: readonly { readonly item: number; readonly target: number }[];
}

/** An expression that may be broken when the one line of its item is too long. */
export interface WidthCandidate {
  readonly item: number;
  /** The item's last token on its first line, when the item goes on in a block (`template … {`). */
  readonly end?: number;
  /** The `=` before the expression (computed attributes, defaults, objectives): break after it first. */
  readonly assign?: number;
  /** The operators of its top-level `and` / `or` chain: break before each. */
  readonly chain: readonly number[];
}

export interface LayoutHints {
  readonly blockOpen: Set<number>;
  readonly blockClose: Set<number>;
  readonly itemStart: Set<number>;
  /** The last token of each item (up to the next item or the block's `}`). */
  readonly itemEnd: Map<number, number>;
  /** Item starts of top-level declarations. */
  readonly topLevel: Set<number>;
  readonly groups: AlignGroup[];
  readonly glueBefore: Set<number>;
  readonly glueAfter: Set<number>;
  /** Binary operators: first and last token (`NOT` and `CONTAINS` of `NOT CONTAINS`). */
  readonly operatorFirst: Set<number>;
  readonly operatorLast: Set<number>;
  /** An invariant's `:` → the invariant's last token: the check between is kept as written. */
  readonly verbatim: Map<number, number>;
  readonly width: WidthCandidate[];
}

interface Spanned {
  readonly span: Span;
}

/**
 * The members of a statement block's node: the elements of its array properties (`clauses`,
 * `members`, `fields`, `rules`, …). Read generically, so a clause kind added to the grammar
 * later still starts its own line.
 */
function members(node: Spanned): Spanned[] {
  const found: Spanned[] = [];
  for (const value of Object.values(node)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) if (item !== null && typeof item === 'object' && 'span' in item) found.push(item as Spanned);
  }
  return found;
}

const SIMPLE_SKILL_CLAUSES = new Set(['SkillVersion', 'SkillType', 'SkillDescription', 'SkillPrompt', 'SkillTimeout', 'SkillFallback']);

export function layoutHints(file: A.SourceFile, index: TokenIndex): LayoutHints {
  return new HintBuilder(index).build(file);
}

class HintBuilder {
  private readonly hints: LayoutHints = {
    blockOpen: new Set(),
    blockClose: new Set(),
    itemStart: new Set(),
    itemEnd: new Map(),
    topLevel: new Set(),
    groups: [],
    glueBefore: new Set(),
    glueAfter: new Set(),
    operatorFirst: new Set(),
    operatorLast: new Set(),
    verbatim: new Map(),
    width: [],
  };

  constructor(private readonly ix: TokenIndex) {}

  build(file: A.SourceFile): LayoutHints {
    const starts = this.items(file.declarations.map((d) => this.first(d)), this.ix.tokens.length);
    for (const start of starts) this.hints.topLevel.add(start);
    for (const declaration of file.declarations) this.declaration(declaration);
    this.expressions(file);
    return this.hints;
  }

  // ── Tokens of nodes ─────────────────────────────────────────────────────

  private first(node: Spanned): number | undefined {
    return this.ix.at(node.span.offset);
  }

  private last(node: Spanned): number | undefined {
    return this.ix.endingAt(node.span.endOffset);
  }

  /** `index` if that token has type `type`. */
  private expect(index: number | undefined, type: string): number | undefined {
    return index !== undefined && this.ix.type(index) === type ? index : undefined;
  }

  // ── Blocks and items ────────────────────────────────────────────────────

  /**
   * Registers items starting at `starts` (sorted, de-duplicated), each running to the next one
   * or to `end` (exclusive). Returns the starts.
   */
  private items(starts: readonly (number | undefined)[], end: number): number[] {
    const sorted = [...new Set(starts.filter((s): s is number => s !== undefined && s < end))].sort((a, b) => a - b);
    sorted.forEach((start, k) => {
      this.hints.itemStart.add(start);
      this.hints.itemEnd.set(start, (sorted[k + 1] ?? end) - 1);
    });
    return sorted;
  }

  /**
   * A statement block: `node` ends with the `}` of a block whose items start at the first
   * tokens of its members (see `members`) and at `extra`. Returns the block's `{` or undefined.
   */
  private block(node: Spanned, extra: readonly (number | undefined)[] = []): number | undefined {
    const close = this.expect(this.last(node), 'RCurly');
    if (close === undefined) return undefined;
    const open = this.ix.match[close]!;
    if (open < 0) return undefined;
    this.hints.blockOpen.add(open);
    this.hints.blockClose.add(close);
    const starts = [...members(node).map((m) => this.first(m)), ...extra].filter((s) => s !== undefined && s > open);
    this.items(starts, close);
    return open;
  }

  /** Aligns the token after each item's first token (`outcome  RED`, `org     "acme"`). */
  private alignKeywords(members: readonly Spanned[]): void {
    this.group(false, members.map((m) => this.first(m)).map((item) => [item, item === undefined ? undefined : item + 1]));
  }

  private group(fit: boolean, pairs: readonly (readonly [number | undefined, number | undefined])[]): void {
    const entries = pairs
      .filter((p): p is readonly [number, number] => p[0] !== undefined && p[1] !== undefined)
      .filter(([item, target]) => target > item && target <= (this.hints.itemEnd.get(item) ?? -1))
      .map(([item, target]) => ({ item, target }));
    if (entries.length > 1) this.hints.groups.push({ fit, entries });
  }

  /** Fields `name: type [= value]`: the types align. */
  private fields(fields: readonly A.FieldDecl[]): void {
    this.group(true, fields.map((f) => [this.first(f), this.first(f.type)]));
    for (const field of fields) {
      if (field.defaultValue) this.widthCandidate(this.first(field), field.defaultValue, this.assignAfter(field.type));
    }
  }

  private declaration(node: A.Declaration): void {
    switch (node.kind) {
      case 'WorldHeader':
        this.block(node);
        this.alignKeywords(node.settings);
        return;
      case 'ContextBlock':
        this.contextBlock(node);
        return;
      case 'ActionDecl': {
        this.block(node);
        for (const context of node.contexts) this.contextBlock(context);
        for (const rule of node.rules) this.rule(rule);
        for (const frame of node.workFrames) {
          this.block(frame);
          this.alignKeywords(frame.fields);
        }
        return;
      }
      case 'SkillDecl':
        this.skill(node);
        return;
      case 'ScenarioDecl':
        this.scenario(node);
        return;
      case 'TestDecl':
        this.block(node);
        this.alignKeywords(node.members);
        return;
      default:
        return; // a declaration this formatter does not know: its braces keep the author's lines
    }
  }

  private contextBlock(context: A.ContextBlock): void {
    this.block(context);
    const attributes = context.attributes;
    // `supplied`/`system`/`computed`, then the names, then the types: two columns.
    this.group(false, attributes.map((a) => [this.first(a), this.first(a.name)]));
    this.group(true, attributes.map((a) => [this.first(a), this.first(a.type)]));
    for (const attribute of attributes) {
      if (attribute.value) this.widthCandidate(this.first(attribute), attribute.value, this.assignAfter(attribute.type));
    }
  }

  private rule(rule: A.RuleDecl): void {
    this.block(rule);
    this.alignKeywords(rule.clauses);
    for (const clause of rule.clauses) {
      if (clause.kind === 'WhenClause' || clause.kind === 'AppliesWhenClause') this.widthCandidate(this.first(clause), clause.condition);
    }
  }

  private skill(skill: A.SkillDecl): void {
    this.block(skill);
    this.alignKeywords(skill.members.filter((m) => SIMPLE_SKILL_CLAUSES.has(m.kind)));
    for (const member of skill.members) {
      switch (member.kind) {
        case 'SkillActionMetadata':
        case 'SkillUserState':
        case 'SkillOutput':
          this.block(member);
          this.fields(member.fields);
          break;
        case 'SkillTemplateDecl': {
          const open = this.block(member);
          this.group(true, member.fields.map((f) => [this.first(f), this.first(f.template)]));
          if (member.when && open !== undefined) this.widthCandidate(this.first(member), member.when, undefined, open);
          break;
        }
        default:
          break;
      }
    }
  }

  private scenario(scenario: A.ScenarioDecl): void {
    this.block(scenario);
    // `objective completion weight 0.6` / `objective momentum   weight 0.4`
    const objectives = scenario.members.filter((m): m is A.ObjectiveDecl => m.kind === 'ObjectiveDecl');
    this.group(false, objectives.map((o) => {
      const start = this.first(o);
      return [start, start === undefined ? undefined : this.expect(start + 2, 'Weight')];
    }));
    for (const member of scenario.members) {
      switch (member.kind) {
        case 'SignalsBlock':
        case 'StateBlock':
          this.block(member);
          this.fields(member.fields);
          break;
        case 'ActionTypeDecl': {
          const skillKeyword = member.skill ? this.expect((this.first(member.skill) ?? 0) - 1, 'Skill') : undefined;
          this.block(member, [skillKeyword]);
          this.fields(member.fields);
          break;
        }
        case 'GuardrailDecl': {
          const close = this.expect(this.last(member), 'RCurly');
          const open = close === undefined ? -1 : this.ix.match[close]!;
          if (open < 0) break;
          const when = this.expect(open + 1, 'When');
          const effect = this.first(member.effect);
          this.block(member, [when, effect]);
          this.group(false, [when, effect].map((item) => [item, item === undefined ? undefined : item + 1]));
          this.widthCandidate(when, member.when);
          if (member.effect.kind === 'BlockEffect') this.widthCandidate(effect, member.effect.predicate);
          break;
        }
        case 'ObjectiveDecl':
          this.widthCandidate(this.first(member), member.score, this.assignAfter(member.weight));
          break;
        default:
          break;
      }
    }
  }

  /** The `=` right after `node` (a type, an objective's weight). */
  private assignAfter(node: Spanned): number | undefined {
    const last = this.last(node);
    return last === undefined ? undefined : this.expect(last + 1, 'Assign');
  }

  // ── Long expressions ────────────────────────────────────────────────────

  private widthCandidate(item: number | undefined, expr: A.Expr, assign?: number, end?: number): void {
    if (item === undefined) return;
    const chain = this.chainOperators(expr);
    if (chain.length === 0 && assign === undefined) return;
    this.hints.width.push({ item, ...(end !== undefined && { end }), ...(assign !== undefined && { assign }), chain });
  }

  /** Whether `(` and `)` enclose exactly `expr` (the AST keeps no parentheses). */
  private parenthesized(expr: A.Expr): boolean {
    const first = this.first(expr);
    const last = this.last(expr);
    if (first === undefined || last === undefined || first === 0) return false;
    return this.ix.type(first - 1) === 'LParen' && this.ix.match[first - 1] === last + 1;
  }

  /** The operator tokens of `expr`'s outermost `and` or `or` chain, outside parentheses, in order. */
  private chainOperators(expr: A.Expr): number[] {
    if (expr.kind !== 'BinaryExpr' || (expr.operator !== 'and' && expr.operator !== 'or') || this.parenthesized(expr)) return [];
    const operator = expr.operator;
    const found: number[] = [];
    // In order, without recursion: a chain may have thousands of terms.
    const stack: (A.Expr | number)[] = [expr];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (typeof next === 'number') {
        found.push(next);
      } else if (next.kind === 'BinaryExpr' && next.operator === operator && (next === expr || !this.parenthesized(next))) {
        const token = this.ix.at(next.operatorSpan.offset);
        stack.push(next.right);
        if (token !== undefined) stack.push(token);
        stack.push(next.left);
      }
    }
    return found;
  }

  // ── Expressions and types: glue, operators, invariants ─────────────────

  /** Walks every node of the file (iteratively: expressions may nest thousands deep). */
  private expressions(file: A.SourceFile): void {
    const stack: unknown[] = [file];
    while (stack.length > 0) {
      const value = stack.pop();
      if (Array.isArray(value)) {
        for (const item of value) if (item !== null && typeof item === 'object') stack.push(item);
        continue;
      }
      const node = value as Record<string, unknown>;
      this.visit(node);
      for (const key in node) {
        if (key === 'span' || key === 'operatorSpan') continue;
        const child = node[key];
        if (child !== null && typeof child === 'object') stack.push(child);
      }
    }
  }

  private visit(node: Record<string, unknown>): void {
    const h = this.hints;
    switch (node['kind']) {
      case 'CallExpr': {
        const call = node as unknown as A.CallExpr;
        const open = this.expect((this.first(call.callee) ?? -2) + 1, 'LParen');
        if (open !== undefined) h.glueBefore.add(open);
        return;
      }
      case 'NamedType': {
        const named = node as unknown as A.NamedType;
        if (!named.range) return;
        const open = this.expect((this.first(named.name) ?? -2) + 1, 'LParen');
        if (open !== undefined) h.glueBefore.add(open);
        return;
      }
      case 'ListType': {
        const list = node as unknown as A.ListType;
        const less = this.expect((this.first(list) ?? -2) + 1, 'Less');
        const greater = this.expect(this.last(list), 'Greater');
        if (less === undefined || greater === undefined) return;
        h.glueBefore.add(less);
        h.glueAfter.add(less);
        h.glueBefore.add(greater);
        return;
      }
      case 'UnaryExpr':
      case 'NumberLiteral':
      case 'ValueScalar': {
        // `-x`, and the signed numbers of ranges and test values: `int(-5..5)`, `{ delta: -3 }`.
        const minus = this.expect(this.first(node as unknown as Spanned), 'Minus');
        if (minus !== undefined) h.glueAfter.add(minus);
        return;
      }
      case 'Word': {
        // A word the parser read across tokens (a mistyped `GREN-SKIP`) stays one word.
        const first = this.first(node as unknown as Spanned);
        const last = this.last(node as unknown as Spanned);
        if (first === undefined || last === undefined) return;
        for (let token = first + 1; token <= last; token++) h.glueBefore.add(token);
        return;
      }
      case 'BinaryExpr': {
        const binary = node as unknown as A.BinaryExpr;
        const first = this.ix.at(binary.operatorSpan.offset);
        const last = this.ix.endingAt(binary.operatorSpan.endOffset);
        if (first !== undefined && last !== undefined) {
          h.operatorFirst.add(first);
          h.operatorLast.add(last);
        }
        return;
      }
      case 'InvariantDecl': {
        const invariant = node as unknown as A.InvariantDecl;
        const colon = this.expect((this.last(invariant.description) ?? -2) + 1, 'Colon');
        const last = this.last(invariant);
        if (colon !== undefined && last !== undefined && last > colon) h.verbatim.set(colon, last);
        return;
      }
      default:
        return;
    }
  }
}
