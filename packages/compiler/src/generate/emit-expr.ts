/**
 * Translates checked expressions to TypeScript expression text.
 *
 * Semantics the translation guarantees (LANGUAGE.md, expr.ts):
 * - absent is one value: `undefined` (a missing JSON property) and `null` are both normalised
 *   to `null` before equality, so "absent equals only absent";
 * - equality is `===`/`!==` on scalars and structural on lists and records;
 * - `/` is float division, `%` the JavaScript remainder; a divisor that is 0 has no value, so
 *   every divisor but a number literal goes through `nonZeroDivisor`, which throws on 0 and
 *   fails the predicate (docs/language-guide.md §3); timestamps and durations are ms numbers;
 * - regular expressions are hoisted to module-level constants (`RE_0`) so each compiles once;
 * - built-ins are written as their registry entry lowers them (model/builtins.ts): `Math.*`,
 *   string methods, or a few local helpers (see runtime-helpers.ts); nothing reads a global
 *   beyond Math/String/Array/RegExp/Object/JSON/Number.
 *
 * Precedence is tracked so the output carries only the parentheses JavaScript needs, which
 * keeps a predicate readable next to its source.
 */
import { builtin, childExpressions, type BuiltinName, type CheckedExpr, type CheckedTemplate, type RefRoot } from '../model/index.js';
import { memberAccess, regexLiteralSource, stringLiteral, templateText } from './naming.js';
import type { HelperName } from './runtime-helpers.js';
import { isOptionalType } from './ts-type.js';

/**
 * Where each reference root lives in the function being generated, e.g. `{ context: 'ctx' }`;
 * `foldText` names a function `(text: string) => string` that the text operators (`CONTAINS`,
 * `CONTAINS_ANY` on text, `MATCHES`) apply to both of their sides, and then `MATCHES` ignores
 * case. A skill's invariants are emitted once without it and once with it: the host folds text
 * to what a reader sees, so a disguised word is the word (docs/skill-text.md).
 */
export type ExprScope = Readonly<Partial<Record<RefRoot, string>>> & { readonly foldText?: string };

/** JavaScript operator precedence, loosest first (only the levels codegen produces). */
const enum Prec {
  Conditional = 1,
  Coalesce = 2,
  Or = 3,
  And = 4,
  Equality = 5,
  Relational = 6,
  Additive = 7,
  Multiplicative = 8,
  Unary = 9,
  Postfix = 10,
  Primary = 11,
}

interface Emitted {
  readonly code: string;
  readonly prec: Prec;
}

/** A hoisted regular expression: `const RE_<index> = /source/flags;`. */
export interface HoistedRegex {
  readonly name: string;
  readonly literal: string;
}

/**
 * Emits expressions for one module, collecting the regexes and helpers they need. One instance
 * per generated module: regex constants are numbered in the order they are first met.
 */
export class ExprEmitter {
  private readonly regexes = new Map<string, HoistedRegex>();
  private readonly helpers = new Set<HelperName>();
  /** Above 0 while writing a block of a long chain (see `links`). */
  private asserting = 0;

  /** Regex constants in first-use order. */
  hoistedRegexes(): readonly HoistedRegex[] {
    return [...this.regexes.values()];
  }

  /** Helpers used so far (the caller emits them in a fixed order). */
  usedHelpers(): ReadonlySet<HelperName> {
    return this.helpers;
  }

  /** The expression as TypeScript text. */
  emit(expr: CheckedExpr, scope: ExprScope): string {
    return this.expr(expr, scope).code;
  }

  /** The expression with `undefined` normalised to `null` when it may be absent. */
  emitValue(expr: CheckedExpr, scope: ExprScope): string {
    return this.normalised(expr, scope).code;
  }

  /** A template literal rendering `template`; every interpolated value goes through `String`. */
  emitTemplate(template: CheckedTemplate, scope: ExprScope): string {
    let out = '`';
    for (const part of template.parts) {
      if (typeof part === 'string') {
        out += templateText(part);
      } else if (part.type.kind === 'string' || part.type.kind === 'enum') {
        out += `\${${this.expr(part, scope).code}}`;
      } else if (part.type.kind === 'timestamp' || part.type.kind === 'duration') {
        // Shown as a person reads them (ISO 8601, `30 days`), not as milliseconds.
        const helper = this.use(part.type.kind === 'timestamp' ? 'formatTimestamp' : 'formatDuration');
        out += `\${${helper}(${this.expr(part, scope).code})}`;
      } else {
        out += `\${String(${this.normalised(part, scope).code})}`;
      }
    }
    return `${out}\``;
  }

  /** A regex constant for `source`/`flags`, shared by every use of the same pattern. */
  regex(source: string, flags: string): string {
    // `g` and `y` make `test` stateful (lastIndex), which would break purity.
    const safeFlags = [...new Set(flags.replace(/[gy]/g, ''))].sort().join('');
    const key = `${safeFlags}/${source}`;
    let hoisted = this.regexes.get(key);
    if (hoisted === undefined) {
      hoisted = { name: `RE_${this.regexes.size}`, literal: `/${regexLiteralSource(source, safeFlags)}/${safeFlags}` };
      this.regexes.set(key, hoisted);
    }
    return hoisted.name;
  }

  /**
   * Inside a block of a long chain (see `links`), a read the checker proved present gets `!`:
   * TypeScript cannot see the condition that proves it from there. `!` changes only the type.
   */
  private asserted(code: string, e: CheckedExpr): string {
    return this.asserting > 0 && !isOptionalType(e.type) ? `${code}!` : code;
  }

  private use(helper: HelperName): string {
    this.helpers.add(helper);
    return helper;
  }

  private expr(e: CheckedExpr, scope: ExprScope): Emitted {
    switch (e.kind) {
      case 'literal':
        return literal(e.value);
      case 'ref':
        return { code: this.asserted(refCode(e.root, e.name, scope), e), prec: Prec.Postfix };
      case 'field': {
        const object = wrap(this.expr(e.object, scope), Prec.Postfix);
        return { code: this.asserted(memberAccess(object, e.name, e.optional), e), prec: Prec.Postfix };
      }
      case 'list':
        return { code: `[${e.items.map((i) => this.expr(i, scope).code).join(', ')}]`, prec: Prec.Primary };
      case 'not':
        return { code: `!${wrap(this.expr(e.operand, scope), Prec.Unary)}`, prec: Prec.Unary };
      case 'negate': {
        const operand = wrap(this.expr(e.operand, scope), Prec.Unary);
        return { code: operand.startsWith('-') ? `-(${operand})` : `-${operand}`, prec: Prec.Unary };
      }
      case 'logical':
      case 'arithmetic':
        return this.chain(e, scope);
      case 'compare':
        return this.compare(e.operator, e.left, e.right, scope);
      case 'coalesce':
        return this.coalesce(e, scope, false);
      case 'if':
        return {
          code: `${wrap(this.expr(e.condition, scope), Prec.Coalesce)} ? ${this.expr(e.consequent, scope).code} : ${this.expr(e.alternate, scope).code}`,
          prec: Prec.Conditional,
        };
      case 'call':
        return this.call(e.name, e.args, scope);
      case 'contains':
        return this.contains(e, scope);
      case 'in': {
        const call = `${this.use('isIn')}(${this.normalised(e.element, scope).code}, ${this.expr(e.list, scope).code})`;
        return { code: call, prec: Prec.Postfix };
      }
      case 'matches': {
        const fold = scope.foldText;
        const subject = this.expr(e.subject, scope).code;
        const test = fold === undefined ? `${this.regex(e.source, e.flags)}.test(${subject})` : `${this.regex(e.source, `${e.flags}i`)}.test(${fold}(${subject}))`;
        return e.negated ? { code: `!${test}`, prec: Prec.Unary } : { code: test, prec: Prec.Postfix };
      }
      case 'isNull': {
        const operand = wrap(this.expr(e.operand, scope), Prec.Equality);
        return { code: `${operand} ${e.negated ? '!=' : '=='} null`, prec: Prec.Equality };
      }
      case 'length': {
        const length: Emitted = { code: this.lengthOf(e.operand, scope), prec: Prec.Postfix };
        const limit = this.expr(e.limit, scope);
        return this.relation(length, e.operator, limit);
      }
    }
  }

  /**
   * `a && b && …`, `x + 1 + 1 …`: the links of a left-associative chain, in a loop from the
   * innermost left operand out (a chain can be 10,000 operands long). JavaScript groups the
   * output the same way; `&&` and `||` are associative, so a right operand of the same
   * operator needs no parentheses either.
   */
  private chain(e: Extract<CheckedExpr, { kind: 'logical' | 'arithmetic' }>, scope: ExprScope): Emitted {
    const nodes = [e];
    for (let node = e.left; node.kind === 'logical' || node.kind === 'arithmetic'; node = node.left) nodes.push(node);
    const links: Link[] = [];
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i]!;
      if (node.kind === 'logical') {
        const prec = node.operator === 'and' ? Prec.And : Prec.Or;
        links.push({ op: node.operator === 'and' ? '&&' : '||', prec, rightMin: prec, right: node.right, normalised: false, divisor: false });
      } else {
        const prec = node.operator === '+' || node.operator === '-' ? Prec.Additive : Prec.Multiplicative;
        const divisor = (node.operator === '/' || node.operator === '%') && !isNonZeroNumber(node.right);
        links.push({ op: node.operator, prec, rightMin: prec + 1, right: node.right, normalised: false, divisor });
      }
    }
    return this.links(this.expr(nodes[nodes.length - 1]!.left, scope), links, scope);
  }

  /**
   * `a ?? b ?? …`, nested to the right in the model, written as JavaScript's `??`, which groups
   * to the left: the value is the same (the first operand that is not absent). `??` cannot be
   * mixed with `&&`/`||` without parentheses: operands must bind tighter. With `normalised`,
   * the last operand is normalised (`?? null`).
   */
  private coalesce(e: Extract<CheckedExpr, { kind: 'coalesce' }>, scope: ExprScope, normalised: boolean): Emitted {
    const operands: CheckedExpr[] = [];
    let node: CheckedExpr = e;
    for (; node.kind === 'coalesce'; node = node.right) operands.push(node.left);
    operands.push(node);
    const links: Link[] = operands.slice(1).map((right, i) => ({
      op: '??',
      prec: Prec.Coalesce,
      rightMin: Prec.Equality,
      right,
      normalised: normalised && i === operands.length - 2,
      divisor: false,
    }));
    return this.links(this.expr(operands[0]!, scope), links, scope);
  }

  /**
   * `first` followed by `links`. Up to CHAIN_BLOCK links are written in a row. A longer chain is
   * cut into blocks, each an immediately called arrow function taking the value so far:
   * `((ctx, left) => left || … || …)(ctx, …)`. TypeScript analyses control flow once per
   * function, following every condition (`||`, `??`, `? :`) on the way back from a name to the
   * start of its function, and gives up after 2,000 (TS2563, "too large for control flow
   * analysis"); a block starts afresh. Inside a block TypeScript no longer sees the conditions
   * before it, so the reads the checker proved present are asserted (`!`, see `asserting`).
   */
  private links(first: Emitted, links: readonly Link[], scope: ExprScope): Emitted {
    const apply = (left: Emitted, link: Link): Emitted => {
      const right = link.normalised ? this.normalised(link.right, scope) : link.divisor ? this.divisor(link.right, scope) : this.expr(link.right, scope);
      return { code: `${operand(left, link.prec, link)} ${link.op} ${operand(right, link.rightMin, link)}`, prec: link.prec };
    };
    if (links.length <= CHAIN_BLOCK) return links.reduce(apply, first);
    const params = blockParameters(scope, links);
    const call = (body: string, value: string): string => `((${[...params, 'left'].join(', ')}) => ${body})(${[...params, value].join(', ')})`;
    this.asserting++;
    // Each block applies its links to the value so far. Blocks are grouped (and groups
    // grouped) so calls nest a few dozen deep, not once per block.
    let units: ((value: string) => string)[] = [];
    for (let start = 0; start < links.length; start += CHAIN_BLOCK) {
      const block = links.slice(start, start + CHAIN_BLOCK).reduce(apply, { code: 'left', prec: Prec.Primary });
      units.push((value) => call(block.code, value));
    }
    this.asserting--;
    while (units.length > CHAIN_GROUP) {
      const groups: ((value: string) => string)[] = [];
      for (let start = 0; start < units.length; start += CHAIN_GROUP) {
        const body = units.slice(start, start + CHAIN_GROUP).reduce((value, unit) => unit(value), 'left');
        groups.push((value) => call(body, value));
      }
      units = groups;
    }
    return { code: units.reduce((value, unit) => unit(value), first.code), prec: Prec.Postfix };
  }

  private compare(operator: '==' | '!=' | '<' | '<=' | '>' | '>=', left: CheckedExpr, right: CheckedExpr, scope: ExprScope): Emitted {
    if (operator !== '==' && operator !== '!=') {
      return this.relation(this.expr(left, scope), operator, this.expr(right, scope));
    }
    const negated = operator === '!=';
    // `x == null`: loose equality with null is exactly "absent" (null or undefined).
    if (isNullLiteral(right) || isNullLiteral(left)) {
      const other = isNullLiteral(right) ? left : right;
      return { code: `${wrap(this.expr(other, scope), Prec.Equality)} ${negated ? '!=' : '=='} null`, prec: Prec.Equality };
    }
    if (isStructured(left) || isStructured(right)) {
      const call = `${this.use('deepEqual')}(${this.normalised(left, scope).code}, ${this.normalised(right, scope).code})`;
      return negated ? { code: `!${call}`, prec: Prec.Unary } : { code: call, prec: Prec.Postfix };
    }
    const l = wrap(this.normalised(left, scope), Prec.Equality);
    const r = wrap(this.normalised(right, scope), Prec.Relational);
    return { code: `${l} ${negated ? '!==' : '==='} ${r}`, prec: Prec.Equality };
  }

  private relation(left: Emitted, operator: '==' | '!=' | '<' | '<=' | '>' | '>=', right: Emitted): Emitted {
    const op = operator === '==' ? '===' : operator === '!=' ? '!==' : operator;
    const prec = op === '===' || op === '!==' ? Prec.Equality : Prec.Relational;
    return { code: `${wrap(left, prec)} ${op} ${wrap(right, prec + 1)}`, prec };
  }

  /** `nonZeroDivisor(ctx.count, "\`count\`")`: the divisor, or a fault naming it when it is 0. */
  private divisor(e: CheckedExpr, scope: ExprScope): Emitted {
    const path = pathText(e);
    const written = path === undefined ? 'the divisor' : `\`${path}\``;
    return { code: `${this.use('nonZeroDivisor')}(${this.expr(e, scope).code}, ${stringLiteral(written)})`, prec: Prec.Postfix };
  }

  /** The value with a possibly-absent operand normalised: `ctx.x ?? null`. */
  private normalised(e: CheckedExpr, scope: ExprScope): Emitted {
    // `a ?? b` is absent only when `b` is: normalise `b` (never `(a ?? b) ?? null`).
    if (e.kind === 'coalesce') return this.coalesce(e, scope, true);
    const emitted = this.expr(e, scope);
    if (!mayBeUndefined(e)) return emitted;
    return { code: `${wrap(emitted, Prec.Equality)} ?? null`, prec: Prec.Coalesce };
  }

  private lengthOf(operand: CheckedExpr, scope: ExprScope): string {
    if (operand.type.kind === 'string') return `${this.use('charLength')}(${this.expr(operand, scope).code})`;
    return `${wrap(this.expr(operand, scope), Prec.Postfix)}.length`;
  }

  /** A built-in call, as its registry entry lowers it (model/builtins.ts). */
  private call(name: BuiltinName, args: readonly CheckedExpr[], scope: ExprScope): Emitted {
    const lowering = builtin(name).lowering;
    const argumentList = (): string => args.map((a) => this.expr(a, scope).code).join(', ');
    const only = (): CheckedExpr => {
      if (args.length !== 1) throw new Error(`adec bug: built-in \`${name}\` with ${args.length} argument(s) reached code generation`);
      return args[0]!;
    };
    const postfix = (code: string): Emitted => ({ code, prec: Prec.Postfix });
    switch (lowering.kind) {
      case 'helper':
        return postfix(`${this.use(lowering.helper)}(${argumentList()})`);
      case 'math':
        return postfix(`Math.${lowering.function}(${argumentList()})`);
      case 'method':
        return postfix(`${wrap(this.expr(only(), scope), Prec.Postfix)}.${lowering.method}()`);
      case 'length':
        return postfix(this.lengthOf(only(), scope));
      case 'duration-read':
        return { code: `${wrap(this.expr(only(), scope), Prec.Multiplicative + 1)} / ${lowering.unitMs}`, prec: Prec.Multiplicative };
      case 'duration-make':
        // Durations are whole milliseconds: a made one is rounded to the nearest.
        return postfix(`Math.round(${wrap(this.expr(only(), scope), Prec.Multiplicative + 1)} * ${lowering.unitMs})`);
    }
  }

  private contains(e: Extract<CheckedExpr, { kind: 'contains' }>, scope: ExprScope): Emitted {
    const fold = e.mode === 'substring' ? scope.foldText : undefined;
    const subject = this.expr(e.subject, scope);
    const needle = this.expr(e.needle, scope);
    let call: string;
    if (fold !== undefined) {
      const folded = `${fold}(${subject.code})`;
      call = e.any ? `${this.use('containsAny')}(${folded}, ${wrap(needle, Prec.Postfix)}.map(${fold}))` : `${folded}.includes(${fold}(${needle.code}))`;
    } else if (e.mode === 'substring' && !e.any) {
      call = `${wrap(subject, Prec.Postfix)}.includes(${needle.code})`;
    } else {
      const helper: HelperName = e.mode === 'substring' ? 'containsAny' : e.any ? 'hasAnyElement' : 'hasElement';
      const needleCode = e.mode === 'element' && !e.any ? this.normalised(e.needle, scope).code : needle.code;
      call = `${this.use(helper)}(${subject.code}, ${needleCode})`;
    }
    return e.negated ? { code: `!${call}`, prec: Prec.Unary } : { code: call, prec: Prec.Postfix };
  }
}

/**
 * Links of a chain written in a row; a longer chain is cut into blocks of this many (see
 * `links`). TypeScript's narrowing costs each name the conditions before it in its function,
 * so smaller blocks check faster; but each block is also a function the sandbox compiles on
 * first use, within a predicate's time limit. At 25 a 10,000-operand `or` of comparisons
 * checks in about 0.2 s and its first evaluation stays within the default 5 ms.
 */
const CHAIN_BLOCK = 25;

/** Blocks (and groups of blocks) per group: calls nest a few dozen deep at most. */
const CHAIN_GROUP = 20;

/** One operator of a chain and its right operand. */
interface Link {
  readonly op: string;
  readonly prec: Prec;
  /** Below this precedence the right operand is parenthesized (a `MinPrec`). */
  readonly rightMin: MinPrec;
  readonly right: CheckedExpr;
  /** Normalise the right operand (`?? null`): the last operand of a normalised `??`. */
  readonly normalised: boolean;
  /** The right operand divides and may be 0: it goes through `nonZeroDivisor`. */
  readonly divisor: boolean;
}

/**
 * An operand of a link, parenthesized below `min`. Next to `??` the operands must bind tighter
 * than `||` (JavaScript rejects `a || b ?? c`), except another `??`, which may stay unwrapped:
 * `??` is associative.
 */
function operand(e: Emitted, min: MinPrec, link: Link): string {
  if (link.op !== '??') return wrap(e, min);
  return e.prec === Prec.Coalesce ? e.code : wrap(e, Prec.Equality);
}

/**
 * A block's parameters: the variables that hold the roots its operands read (`ctx`;
 * `env, action`; `input`), in the scope's order. Only those: a guardrail's `when` has no
 * `action` in scope.
 */
function blockParameters(scope: ExprScope, links: readonly Link[]): string[] {
  const roots = new Set<RefRoot>();
  const pending: CheckedExpr[] = links.map((link) => link.right);
  while (pending.length > 0) {
    const e = pending.pop()!;
    if (e.kind === 'ref') roots.add(e.root);
    else pending.push(...childExpressions(e));
  }
  const variables = (Object.entries(scope) as [RefRoot, string][])
    .filter(([root]) => roots.has(root))
    .map(([, base]) => /^[A-Za-z_$][\w$]*/.exec(base)?.[0] ?? base);
  return [...new Set(variables)];
}

function refCode(root: RefRoot, name: string, scope: ExprScope): string {
  const base = scope[root];
  if (base === undefined) throw new Error(`adec bug: \`${root}\` reference \`${name}\` outside a scope that defines it`);
  if (root !== 'context' && root !== 'signal' && root !== 'state' && name === root) return base;
  return memberAccess(base, name);
}

function literal(value: boolean | number | string | null): Emitted {
  if (value === null || typeof value === 'boolean') return { code: String(value), prec: Prec.Primary };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`adec bug: non-finite literal ${value}`);
    const code = Object.is(value, -0) ? '-0' : String(value);
    return { code, prec: code.startsWith('-') ? Prec.Unary : Prec.Primary };
  }
  return { code: stringLiteral(value), prec: Prec.Primary };
}

/**
 * The precedence an operand needs to go without parentheses: a `Prec`, or one above it
 * (`prec + 1`) for the right operand of a left-associative operator at `prec` itself.
 */
type MinPrec = number;

function wrap(e: Emitted, min: MinPrec): string {
  const level: number = e.prec;
  return level < min ? `(${e.code})` : e.code;
}

/** `60`, `-2.5`: a divisor written as a number other than 0 needs no check at run time. */
function isNonZeroNumber(e: CheckedExpr): boolean {
  const literal = e.kind === 'negate' ? e.operand : e;
  return literal.kind === 'literal' && typeof literal.value === 'number' && literal.value !== 0;
}

/** `count`, `action.minutes`: a divisor as the author wrote it when it is a name or a field of one. */
function pathText(e: CheckedExpr): string | undefined {
  if (e.kind === 'ref') return e.name;
  if (e.kind !== 'field') return undefined;
  const object = pathText(e.object);
  return object === undefined ? undefined : `${object}.${e.name}`;
}

function isNullLiteral(e: CheckedExpr): boolean {
  return e.kind === 'literal' && e.value === null;
}

function isStructured(e: CheckedExpr): boolean {
  const type = e.type.kind === 'optional' ? e.type.inner : e.type;
  return type.kind === 'list' || type.kind === 'record';
}

/** Whether the emitted value may be `undefined` or `null` (so it needs `?? null` before `===`). */
function mayBeUndefined(e: CheckedExpr): boolean {
  if (e.kind === 'literal') return false;
  return isOptionalType(e.type) || (e.kind === 'field' && (e.optional || isCandidateActionField(e)));
}

/** `action.x` in a scenario: absent when the candidate's action type does not declare `x`. */
function isCandidateActionField(e: Extract<CheckedExpr, { kind: 'field' }>): boolean {
  return e.object.kind === 'ref' && e.object.root === 'action' && e.object.name === 'action';
}
