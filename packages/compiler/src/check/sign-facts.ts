/**
 * What a comparison with a number proves about the sign of the compared expression, for the
 * divisor check (divisors.ts): `count > 0`, `count >= 1` and `count == 3` prove it positive,
 * `count != 0` non-zero, `count >= 0` not negative; when the comparison is false, the opposite
 * comparison's facts hold (`count <= 0 or …` proves `count` positive in the rest).
 *
 * Facts travel with the paths a condition proves present, in one `Narrowed` set (narrowing.ts),
 * so every place a guard reaches (the rest of an `and`, a branch of `if`, a rule's reason) gets
 * both. A fact is keyed by the canonical text of the expression (`formatExpr`: `(count - 1)`
 * and `count - 1` are one), behind its relation: `positive: count`. A path has no space, so a
 * fact is never taken for a path.
 */
import { formatExpr, type Expr } from '@adec/grammar';
import type { Narrowed } from './narrowing.js';

/** The sign relations a fact can state about an expression. */
export type SignRelation = 'positive' | 'negative' | 'non-negative' | 'non-positive' | 'non-zero';

export function signFact(relation: SignRelation, text: string): string {
  return `${relation}: ${text}`;
}

/** Whether an entry of a `Narrowed` set is a sign fact (else it is a path proven present). */
export function isSignFact(entry: string): boolean {
  return entry.includes(': ');
}

/** The sign facts among `narrowed` (what an `applies_when` gives its rule's `when`). */
export function signFactsOf(narrowed: Narrowed): Narrowed {
  return new Set([...narrowed].filter(isSignFact));
}

type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

const NEGATION: Readonly<Record<Comparison, Comparison>> = { '==': '!=', '!=': '==', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
/** `c < x` is `x > c`. */
const MIRROR: Readonly<Record<Comparison, Comparison>> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The sign fact `left <operator> right` proves when it has `value`, if one side is a number literal. */
export function signFactsOfComparison(operator: Comparison, left: Expr, right: Expr, value: boolean): readonly string[] {
  const rightNumber = numberLiteral(right);
  const leftNumber = rightNumber === undefined ? numberLiteral(left) : undefined;
  if (rightNumber === undefined && leftNumber === undefined) return [];
  const [subject, constant, written] = rightNumber !== undefined ? [left, rightNumber, operator] : [right, leftNumber!, MIRROR[operator]];
  const relation = signOf(value ? written : NEGATION[written], constant);
  return relation === undefined ? [] : [signFact(relation, formatExpr(subject))];
}

/** What `x <operator> constant` says about the sign of `x`. */
function signOf(operator: Comparison, constant: number): SignRelation | undefined {
  switch (operator) {
    case '>':
      return constant >= 0 ? 'positive' : undefined;
    case '>=':
      return constant > 0 ? 'positive' : constant === 0 ? 'non-negative' : undefined;
    case '<':
      return constant <= 0 ? 'negative' : undefined;
    case '<=':
      return constant < 0 ? 'negative' : constant === 0 ? 'non-positive' : undefined;
    case '==':
      return constant > 0 ? 'positive' : constant < 0 ? 'negative' : undefined;
    case '!=':
      return constant === 0 ? 'non-zero' : undefined;
  }
}

/** `3`, `-2.5`: a number written in the source. */
function numberLiteral(expr: Expr): number | undefined {
  if (expr.kind === 'NumberLiteral') return expr.value;
  if (expr.kind === 'UnaryExpr' && expr.operator === '-' && expr.operand.kind === 'NumberLiteral') return -expr.operand.value;
  return undefined;
}
