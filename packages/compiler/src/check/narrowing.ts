/**
 * Flow narrowing of optional values: which names and field paths a condition proves
 * present. `x IS NOT NULL and <rhs>` checks `rhs` with `x` present; `x IS NULL or <rhs>`
 * too; `if x IS NOT NULL then a else b` checks `a` with `x` present. The language has no
 * assignment, so a path proven present stays present for the rest of the expression.
 */
import { pathOf, type Expr } from '@adec/grammar';

export type Narrowed = ReadonlySet<string>;

export const NOTHING_NARROWED: Narrowed = new Set();

/** Paths that are present whenever `condition` is true. */
export function presentWhenTrue(condition: Expr): Narrowed {
  switch (condition.kind) {
    case 'NullCheckExpr':
      return condition.negated ? pathSet(condition.operand) : NOTHING_NARROWED;
    case 'UnaryExpr':
      return condition.operator === 'not' ? presentWhenFalse(condition.operand) : NOTHING_NARROWED;
    case 'BinaryExpr':
      switch (condition.operator) {
        case 'and':
          return union(presentWhenTrue(condition.left), presentWhenTrue(condition.right));
        case 'or':
          return intersection(presentWhenTrue(condition.left), presentWhenTrue(condition.right));
        case '!=':
          return comparedWithNull(condition.left, condition.right);
        default:
          return NOTHING_NARROWED;
      }
    default:
      return NOTHING_NARROWED;
  }
}

/** Paths that are present whenever `condition` is false. */
export function presentWhenFalse(condition: Expr): Narrowed {
  switch (condition.kind) {
    case 'NullCheckExpr':
      return condition.negated ? NOTHING_NARROWED : pathSet(condition.operand);
    case 'UnaryExpr':
      return condition.operator === 'not' ? presentWhenTrue(condition.operand) : NOTHING_NARROWED;
    case 'BinaryExpr':
      switch (condition.operator) {
        case 'or':
          return union(presentWhenFalse(condition.left), presentWhenFalse(condition.right));
        case 'and':
          return intersection(presentWhenFalse(condition.left), presentWhenFalse(condition.right));
        case '==':
        case 'EQUALS':
          return comparedWithNull(condition.left, condition.right);
        default:
          return NOTHING_NARROWED;
      }
    default:
      return NOTHING_NARROWED;
  }
}

export function union(a: Narrowed, b: Narrowed): Narrowed {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  return new Set([...a, ...b]);
}

function intersection(a: Narrowed, b: Narrowed): Narrowed {
  return new Set([...a].filter((path) => b.has(path)));
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
