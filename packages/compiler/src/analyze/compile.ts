/**
 * The interpreter of evaluate.ts, compiled: a condition becomes a tree of closures reading
 * the model's variables from an array of *slots* (variable index → value), built once per
 * finite model and then run on every assignment. Same semantics as `evaluate` with the
 * model's environment, node for node:
 * - a node the model binds (an attribute, an opaque condition) reads its slot; a node bound
 *   to a derivation runs the derivation's compiled closure (compiled lazily, once);
 * - every other node computes what `evaluate` computes, with the helpers exported by
 *   evaluate.ts; comparisons with a literal are specialised (`x >= 4034` is one `typeof`
 *   and one comparison), with the same `UNKNOWN` results as `compare`.
 * Evaluation is pure, so a closure may stop early where `evaluate` would compute a value it
 * then ignores (a list with an `UNKNOWN` item is `UNKNOWN` whatever the other items are).
 * test/analyze/compile.test.ts checks the two agree on generated conditions and models.
 */
import type { CheckedExpr } from '../model/index.js';
import {
  arithmetic,
  callBuiltin,
  compare,
  contains,
  fieldOf,
  isChainLink,
  isScalar,
  lengthOf,
  matches,
  membership,
  UNKNOWN,
  type ChainLink,
  type Value,
} from './evaluate.js';

/** A compiled condition or term: its value on the assignment held in `slots`. */
export type Evaluator = (slots: readonly Value[]) => Value;

/** How a finite model binds a node: to a variable slot, or to a derivation to inline. */
export type Binding = { readonly variable: number } | { readonly definition: CheckedExpr };

/**
 * Compiles `expr` against `bindings`; `derivations` caches compiled derivations and may be
 * shared by the conditions compiled for one model.
 */
export function compileExpr(
  expr: CheckedExpr,
  bindings: ReadonlyMap<CheckedExpr, Binding>,
  derivations: Map<CheckedExpr, Evaluator> = new Map(),
): Evaluator {
  const isLiteral = (e: CheckedExpr): e is Extract<CheckedExpr, { kind: 'literal' }> =>
    e.kind === 'literal' && !bindings.has(e);

  const derivation = (definition: CheckedExpr): Evaluator => {
    let compiled = derivations.get(definition);
    if (compiled === undefined) {
      // Lazy, so that compiling never recurses through a derivation into itself.
      let inner: Evaluator | undefined;
      compiled = (slots) => (inner ??= go(definition))(slots);
      derivations.set(definition, compiled);
    }
    return compiled;
  };

  const go = (e: CheckedExpr): Evaluator => {
    const binding = bindings.get(e);
    if (binding !== undefined) {
      if ('definition' in binding) return derivation(binding.definition);
      const slot = binding.variable;
      return (slots) => slots[slot]!;
    }
    switch (e.kind) {
      case 'literal': {
        const value = e.value as Value;
        return () => value;
      }
      case 'ref':
        return () => UNKNOWN;
      case 'field': {
        const object = go(e.object);
        const name = e.name;
        return (slots) => fieldOf(object(slots), name);
      }
      case 'call': {
        const args = e.args.map(go);
        const name = e.name;
        return (slots) => callBuiltin(name, args.map((arg) => arg(slots)));
      }
      case 'list': {
        const items = e.items.map(go);
        return (slots) => {
          const values: Value[] = [];
          for (const item of items) {
            const value = item(slots);
            if (value === UNKNOWN) return UNKNOWN;
            values.push(value);
          }
          return values;
        };
      }
      case 'not': {
        const operand = go(e.operand);
        return (slots) => {
          const value = operand(slots);
          return typeof value === 'boolean' ? !value : UNKNOWN;
        };
      }
      case 'negate': {
        const operand = go(e.operand);
        return (slots) => {
          const value = operand(slots);
          return typeof value === 'number' ? -value : UNKNOWN;
        };
      }
      case 'logical': {
        if (isLongChain(e)) return compileChain(e);
        const left = go(e.left);
        const right = go(e.right);
        if (e.operator === 'and') {
          return (slots) => {
            const l = left(slots);
            if (l === false) return false;
            const r = right(slots);
            if (r === false) return false;
            return typeof l === 'boolean' && typeof r === 'boolean' ? true : UNKNOWN;
          };
        }
        return (slots) => {
          const l = left(slots);
          if (l === true) return true;
          const r = right(slots);
          if (r === true) return true;
          return typeof l === 'boolean' && typeof r === 'boolean' ? false : UNKNOWN;
        };
      }
      case 'compare':
        if (isLongChain(e)) return compileChain(e);
        return compileCompare(e.operator, e.left, e.right);
      case 'arithmetic': {
        if (isLongChain(e)) return compileChain(e);
        const left = go(e.left);
        const right = go(e.right);
        const operator = e.operator;
        return (slots) => arithmetic(operator, left(slots), right(slots));
      }
      case 'coalesce': {
        if (e.right.kind === 'coalesce') return compileCoalesceChain(e);
        const left = go(e.left);
        const right = go(e.right);
        return (slots) => {
          const value = left(slots);
          return value === null ? right(slots) : value;
        };
      }
      case 'contains': {
        const subject = go(e.subject);
        const needle = go(e.needle);
        const { mode, any, negated } = e;
        return (slots) => negate(negated, contains(mode, any, subject(slots), needle(slots)));
      }
      case 'in': {
        const element = go(e.element);
        const list = go(e.list);
        return (slots) => membership(element(slots), list(slots));
      }
      case 'matches': {
        const subject = go(e.subject);
        const { source, flags, negated } = e;
        return (slots) => negate(negated, matches(subject(slots), source, flags));
      }
      case 'isNull': {
        const operand = go(e.operand);
        const negated = e.negated;
        return (slots) => {
          const value = operand(slots);
          return value === UNKNOWN ? UNKNOWN : negated ? value !== null : value === null;
        };
      }
      case 'length': {
        const operand = go(e.operand);
        const limit = go(e.limit);
        const operator = e.operator;
        return (slots) => {
          const length = lengthOf(operand(slots));
          return length === UNKNOWN ? UNKNOWN : compare(operator, length, limit(slots));
        };
      }
      case 'if': {
        const condition = go(e.condition);
        const consequent = go(e.consequent);
        const alternate = go(e.alternate);
        return (slots) => {
          const c = condition(slots);
          if (c === true) return consequent(slots);
          if (c === false) return alternate(slots);
          const then = consequent(slots);
          const otherwise = alternate(slots);
          return c === UNKNOWN && isScalar(then) && then === otherwise ? then : UNKNOWN;
        };
      }
    }
  };

  /** Whether `e` heads a chain of at least LONG_CHAIN links the model does not bind. */
  const isLongChain = (e: ChainLink): boolean => {
    let links = 1;
    for (let node = e.left; isChainLink(node) && !bindings.has(node); node = node.left) {
      if (++links >= LONG_CHAIN) return true;
    }
    return false;
  };

  /**
   * A long chain (`a or b or …`, `x + 1 + 1 …`) as one closure that runs its links in a loop
   * from the innermost left operand out: nested closures would recurse once per link when
   * run, and a chain can be 10,000 operands long.
   */
  const compileChain = (e: ChainLink): Evaluator => {
    const chain: ChainLink[] = [e];
    for (let node = e.left; isChainLink(node) && !bindings.has(node); node = node.left) chain.push(node);
    const first = go(chain[chain.length - 1]!.left);
    const links: Link[] = [];
    for (let i = chain.length - 1; i >= 0; i--) links.push(compileLink(chain[i]!));
    return (slots) => {
      let value = first(slots);
      for (let i = 0; i < links.length; i++) value = links[i]!(value, slots);
      return value;
    };
  };

  /** One link of a chain: the same semantics as the `logical`, `compare` and `arithmetic` cases. */
  const compileLink = (e: ChainLink): Link => {
    const right = go(e.right);
    switch (e.kind) {
      case 'logical':
        if (e.operator === 'and') {
          return (l, slots) => {
            if (l === false) return false;
            const r = right(slots);
            if (r === false) return false;
            return typeof l === 'boolean' && typeof r === 'boolean' ? true : UNKNOWN;
          };
        }
        return (l, slots) => {
          if (l === true) return true;
          const r = right(slots);
          if (r === true) return true;
          return typeof l === 'boolean' && typeof r === 'boolean' ? false : UNKNOWN;
        };
      case 'compare': {
        const operator = e.operator;
        return (l, slots) => compare(operator, l, right(slots));
      }
      case 'arithmetic': {
        const operator = e.operator;
        return (l, slots) => arithmetic(operator, l, right(slots));
      }
    }
  };

  /** `a ?? b ?? …` (nested to the right) as one closure trying the operands in a loop. */
  const compileCoalesceChain = (e: Extract<CheckedExpr, { kind: 'coalesce' }>): Evaluator => {
    const operands: Evaluator[] = [];
    let node: CheckedExpr = e;
    for (; node.kind === 'coalesce' && (node === e || !bindings.has(node)); node = node.right) operands.push(go(node.left));
    const last = go(node);
    return (slots) => {
      for (let i = 0; i < operands.length; i++) {
        const value = operands[i]!(slots);
        if (value !== null) return value;
      }
      return last(slots);
    };
  };

  /** `compare(operator, left, right)`, specialised when the right side is a scalar literal. */
  const compileCompare = (
    operator: '==' | '!=' | '<' | '<=' | '>' | '>=',
    leftExpr: CheckedExpr,
    rightExpr: CheckedExpr,
  ): Evaluator => {
    const left = go(leftExpr);
    if (isLiteral(rightExpr)) {
      const c = rightExpr.value as Value;
      // equals(l, c) for a scalar c: UNKNOWN if l is, else l === c.
      if (operator === '==' && isScalar(c)) return (slots) => { const l = left(slots); return l === UNKNOWN ? UNKNOWN : l === c; };
      if (operator === '!=' && isScalar(c)) return (slots) => { const l = left(slots); return l === UNKNOWN ? UNKNOWN : l !== c; };
      // An ordering is defined on two numbers or two strings, else UNKNOWN.
      if (typeof c === 'number' || typeof c === 'string') {
        const type = typeof c;
        switch (operator) {
          case '<':
            return (slots) => { const l = left(slots); return typeof l === type ? (l as number) < (c as number) : UNKNOWN; };
          case '<=':
            return (slots) => { const l = left(slots); return typeof l === type ? (l as number) <= (c as number) : UNKNOWN; };
          case '>':
            return (slots) => { const l = left(slots); return typeof l === type ? (l as number) > (c as number) : UNKNOWN; };
          case '>=':
            return (slots) => { const l = left(slots); return typeof l === type ? (l as number) >= (c as number) : UNKNOWN; };
        }
      }
    }
    const right = go(rightExpr);
    return (slots) => compare(operator, left(slots), right(slots));
  };

  return go(expr);
}

/** A chain of at least this many links is compiled into a loop (below, nested closures are a little faster). */
const LONG_CHAIN = 32;

/** One link of a compiled chain: the value so far → the value with this link applied. */
type Link = (left: Value, slots: readonly Value[]) => Value;

function negate(negated: boolean, value: Value): Value {
  if (!negated) return value;
  return typeof value === 'boolean' ? !value : UNKNOWN;
}
