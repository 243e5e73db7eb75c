/**
 * Flow narrowing of optional values: which names and field paths a condition proves
 * present. `x IS NOT NULL and <rhs>` checks `rhs` with `x` present; `x IS NULL or <rhs>`
 * too; `if x IS NOT NULL then a else b` checks `a` with `x` present. The language has no
 * assignment, so a path proven present stays present for the rest of the expression.
 * The same flow carries what a comparison with a number proves about a value's sign
 * (sign-facts.ts), which the divisor check reads: `count > 0 and amount / count > 2`.
 */
import { pathOf, type BinaryExpr, type Expr } from '@adec/grammar';
import { signFactsOfComparison } from './sign-facts.js';

/** Paths proven present, and sign facts (sign-facts.ts). */
export type Narrowed = ReadonlySet<string>;

export const NOTHING_NARROWED: Narrowed = new Set();

/** Paths that are present whenever `condition` is true. */
export function presentWhenTrue(condition: Expr): Narrowed {
  return presentWhen(condition, true);
}

/** Paths that are present whenever `condition` is false. */
export function presentWhenFalse(condition: Expr): Narrowed {
  return presentWhen(condition, false);
}

/**
 * The answers for `and` / `or` nodes, by the value the condition has: the checker asks about
 * each left operand of a chain `a and b and …` in turn, and each answer extends the previous.
 */
const answers = { true: new WeakMap<Expr, Narrowed>(), false: new WeakMap<Expr, Narrowed>() };

function presentWhen(condition: Expr, value: boolean): Narrowed {
  switch (condition.kind) {
    case 'NullCheckExpr':
      return condition.negated === value ? pathSet(condition.operand) : NOTHING_NARROWED;
    case 'UnaryExpr':
      return condition.operator === 'not' ? presentWhen(condition.operand, !value) : NOTHING_NARROWED;
    case 'BinaryExpr':
      switch (condition.operator) {
        case 'and':
        case 'or':
          return presentWhenLogical(condition, value);
        case '!=':
          return withSignFacts(value ? comparedWithNull(condition.left, condition.right) : NOTHING_NARROWED, '!=', condition, value);
        case '==':
        case 'EQUALS':
          return withSignFacts(value ? NOTHING_NARROWED : comparedWithNull(condition.left, condition.right), '==', condition, value);
        case '<':
        case '<=':
        case '>':
        case '>=':
          return withSignFacts(NOTHING_NARROWED, condition.operator, condition, value);
        default:
          return NOTHING_NARROWED;
      }
    default:
      return NOTHING_NARROWED;
  }
}

/**
 * `a and b` is true when both are (the union of what each proves), false when either is
 * (what both prove); `or` the other way round. A chain is walked in a loop (it can be 10,000
 * operands long), from its innermost left operand out.
 */
function presentWhenLogical(condition: BinaryExpr, value: boolean): Narrowed {
  const cache = answers[value ? 'true' : 'false'];
  const known = cache.get(condition);
  if (known !== undefined) return known;
  const chain: BinaryExpr[] = [condition];
  for (let node = condition.left; isLogical(node) && !cache.has(node); node = node.left) chain.push(node);
  const bottom = chain[chain.length - 1]!.left;
  let result = isLogical(bottom) ? cache.get(bottom)! : presentWhen(bottom, value);
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i]!;
    const right = presentWhen(node.right, value);
    result = (node.operator === 'and') === value ? union(result, right) : intersection(result, right);
    cache.set(node, result);
  }
  return result;
}

function isLogical(expr: Expr): expr is BinaryExpr {
  return expr.kind === 'BinaryExpr' && (expr.operator === 'and' || expr.operator === 'or');
}

export function union(a: Narrowed, b: Narrowed): Narrowed {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  let grows = false;
  for (const path of b) if (!a.has(path)) grows = true;
  return grows ? new Set([...a, ...b]) : a;
}

function intersection(a: Narrowed, b: Narrowed): Narrowed {
  if (a.size === 0 || b.size === 0) return NOTHING_NARROWED;
  return new Set([...a].filter((path) => b.has(path)));
}

function withSignFacts(present: Narrowed, operator: '==' | '!=' | '<' | '<=' | '>' | '>=', condition: BinaryExpr, value: boolean): Narrowed {
  const facts = signFactsOfComparison(operator, condition.left, condition.right, value);
  return facts.length === 0 ? present : union(present, new Set(facts));
}

/** `x != null` / `null != x`: the path compared with the null literal. */
function comparedWithNull(left: Expr, right: Expr): Narrowed {
  if (right.kind === 'NullLiteral') return pathSet(left);
  if (left.kind === 'NullLiteral') return pathSet(right);
  return NOTHING_NARROWED;
}

function pathSet(expr: Expr): Narrowed {
  const path = pathOf(expr);
  return path === undefined ? NOTHING_NARROWED : new Set([path]);
}
