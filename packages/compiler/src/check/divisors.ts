/**
 * ADEC3013: a divisor (of `/` or `%`) that may be 0. Division by 0 has no value in the
 * language (docs/language-guide.md §3): at run time it fails the predicate, so a world must
 * show each divisor is never 0, as it must show an optional value is present (ADEC3007).
 *
 * A divisor is accepted when its bounds exclude 0: a number literal other than 0, a declared
 * range (`int(1..10)`), what the guards around it prove (sign-facts.ts: `count > 0 and …`,
 * `if count != 0 then … else …`, a rule's `when` for its reason), and the arithmetic and
 * built-ins over those (`count + 1` for a `count` not negative, `max(count, 1)`, `abs(delta)`
 * when `delta != 0`). Anything not understood has no bounds, so it is reported: the error says
 * how to guard it, and the guard is one comparison.
 */
import { formatExpr, pathOf, type Expr } from '@adec/grammar';
import { formatType, type CheckedExpr, type Type } from '../model/index.js';
import type { ExprChecker } from './check-expr.js';
import { presentWhenFalse, presentWhenTrue, union, type Narrowed } from './narrowing.js';
import { isSignFact, signFact, type SignRelation } from './sign-facts.js';
import { isError, unwrapOptional } from './type-relations.js';

/** The values an expression can have: a closed interval (bounds may be infinite), and whether 0 is left out of it. */
interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly nonZero: boolean;
}

const UNBOUNDED: Bounds = { min: -Infinity, max: Infinity, nonZero: false };

/** Deeper divisors are not followed (no claim, so reported); a guard on the whole still counts. */
const MAX_DEPTH = 64;

/** Reports ADEC3013 at `ast` unless the divisor `checked` is proven never 0 where it is read. */
export function checkDivisor(checker: ExprChecker, ast: Expr, checked: CheckedExpr, narrowed: Narrowed): void {
  const type = checked.type;
  // An optional divisor is ADEC3007 already; a poisoned or non-numeric one another error.
  if (isError(type) || type.kind === 'optional' || (type.kind !== 'int' && type.kind !== 'float')) return;
  const facts = hasSignFacts(narrowed) ? narrowed : undefined;
  const bounds = boundsOf(ast, checked, facts, 0);
  if (excludesZero(bounds)) return;
  const divisor = formatExpr(ast);
  const always = bounds.min === 0 && bounds.max === 0;
  const path = pathOf(ast);
  checker.sink.report(
    'ADEC3013',
    ast.span,
    { divisor, problem: always ? 'is always 0' : 'may be 0' },
    {
      ...(always ? { label: 'this is 0' } : path !== undefined && { label: `this is ${formatType(type)}` }),
      ...(!always && { help: `check it first: \`${divisor} != 0 and …\`, or \`if ${divisor} > 0 then … else …\`; a rule's reason may divide by what its \`when\` proves non-zero` }),
      notes: ['at run time a division by 0 fails the rule, and the decision is at least YELLOW'],
    },
  );
}

function hasSignFacts(narrowed: Narrowed): boolean {
  for (const entry of narrowed) if (isSignFact(entry)) return true;
  return false;
}

function excludesZero(bounds: Bounds): boolean {
  return bounds.nonZero || bounds.min > 0 || bounds.max < 0;
}

/**
 * The bounds of `checked` (whose source is `ast`), under the sign facts `facts` (undefined when
 * there are none: nothing is formatted then).
 */
function boundsOf(ast: Expr, checked: CheckedExpr, facts: Narrowed | undefined, depth: number): Bounds {
  const structural = depth > MAX_DEPTH ? UNBOUNDED : structuralBounds(ast, checked, facts, depth + 1);
  return facts === undefined ? structural : withFacts(structural, formatExpr(ast), facts, isInt(checked.type));
}

function structuralBounds(ast: Expr, checked: CheckedExpr, facts: Narrowed | undefined, depth: number): Bounds {
  const of = (a: Expr, c: CheckedExpr, extra?: Narrowed): Bounds => boundsOf(a, c, extra === undefined || extra.size === 0 ? facts : union(facts ?? new Set(), extra), depth);
  if (checked.kind === 'literal') return typeof checked.value === 'number' ? { min: checked.value, max: checked.value, nonZero: checked.value !== 0 } : UNBOUNDED;
  if (ast.kind === 'UnaryExpr' && ast.operator === '-' && checked.kind === 'negate') return negate(of(ast.operand, checked.operand));
  if (ast.kind === 'BinaryExpr' && ast.operator === '??' && checked.kind === 'coalesce') return either(of(ast.left, checked.left), of(ast.right, checked.right));
  if (ast.kind === 'BinaryExpr' && checked.kind === 'arithmetic' && ast.operator === checked.operator) {
    const left = of(ast.left, checked.left);
    const right = of(ast.right, checked.right);
    switch (checked.operator) {
      case '+':
        return add(left, right);
      case '-':
        return add(left, negate(right));
      case '*':
        return multiply(left, right, isInt(checked.type));
      default:
        return UNBOUNDED;
    }
  }
  if (ast.kind === 'ConditionalExpr' && ast.alternate !== undefined && checked.kind === 'if') {
    return either(of(ast.consequent, checked.consequent, presentWhenTrue(ast.condition)), of(ast.alternate, checked.alternate, presentWhenFalse(ast.condition)));
  }
  if (ast.kind === 'CallExpr' && checked.kind === 'call' && ast.args.length === checked.args.length) {
    const args = checked.args.map((arg, i) => of(ast.args[i]!, arg));
    return callBounds(checked.name, args);
  }
  return declaredBounds(checked.type);
}

function callBounds(name: Extract<CheckedExpr, { kind: 'call' }>['name'], args: readonly Bounds[]): Bounds {
  const [a = UNBOUNDED, b = UNBOUNDED, c = UNBOUNDED] = args;
  switch (name) {
    case 'abs':
      return absolute(a);
    case 'min':
      return smaller(a, b);
    case 'max':
      return larger(a, b);
    case 'clamp':
      return smaller(larger(a, b), c);
    case 'round':
      return { min: Math.round(a.min), max: Math.round(a.max), nonZero: false };
    case 'floor':
      return { min: Math.floor(a.min), max: Math.floor(a.max), nonZero: false };
    case 'ceil':
      return { min: Math.ceil(a.min), max: Math.ceil(a.max), nonZero: false };
    case 'len':
      return { min: 0, max: Infinity, nonZero: false };
    default:
      return UNBOUNDED;
  }
}

/** A declared range (`int(1..10)`, `float(0.5..)`), or no bounds. */
function declaredBounds(type: Type): Bounds {
  const inner = unwrapOptional(type);
  if ((inner.kind !== 'int' && inner.kind !== 'float') || inner.range === undefined) return UNBOUNDED;
  return { min: inner.range.min ?? -Infinity, max: inner.range.max ?? Infinity, nonZero: false };
}

const RELATIONS: readonly SignRelation[] = ['positive', 'negative', 'non-negative', 'non-positive', 'non-zero'];

/** `bounds` narrowed by the sign facts on `text`; an int proven positive is at least 1. */
function withFacts(bounds: Bounds, text: string, facts: Narrowed, int: boolean): Bounds {
  let { min, max, nonZero } = bounds;
  for (const relation of RELATIONS) {
    if (!facts.has(signFact(relation, text))) continue;
    if (relation === 'positive' || relation === 'non-negative') min = Math.max(min, relation === 'positive' && int ? 1 : 0);
    if (relation === 'negative' || relation === 'non-positive') max = Math.min(max, relation === 'negative' && int ? -1 : 0);
    if (relation === 'positive' || relation === 'negative' || relation === 'non-zero') nonZero = true;
  }
  return { min, max, nonZero };
}

function negate(a: Bounds): Bounds {
  return { min: -a.max, max: -a.min, nonZero: a.nonZero };
}

/** A sum of two values of one sign, one of them never 0, is never 0 (no float addition rounds it to 0). */
function add(a: Bounds, b: Bounds): Bounds {
  const oneNonZero = excludesZero(a) || excludesZero(b);
  const sameSign = (a.min >= 0 && b.min >= 0) || (a.max <= 0 && b.max <= 0);
  return { min: sum(a.min, b.min, -Infinity), max: sum(a.max, b.max, Infinity), nonZero: oneNonZero && sameSign };
}

/** `x + y`, or `unbounded` for ∞ − ∞. */
function sum(x: number, y: number, unbounded: number): number {
  const total = x + y;
  return Number.isNaN(total) ? unbounded : total;
}

/**
 * The corners of the product; a product of ints that are not 0 is not 0, but one of floats
 * can round to 0 (1e-200 * 1e-200), which the corners show.
 */
function multiply(a: Bounds, b: Bounds, int: boolean): Bounds {
  const corners = [a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max].map((corner) => (Number.isNaN(corner) ? 0 : corner));
  return { min: Math.min(...corners), max: Math.max(...corners), nonZero: int && excludesZero(a) && excludesZero(b) };
}

function absolute(a: Bounds): Bounds {
  const min = a.min > 0 ? a.min : a.max < 0 ? -a.max : 0;
  return { min, max: Math.max(Math.abs(a.min), Math.abs(a.max)), nonZero: excludesZero(a) };
}

/** `min(a, b)` is one of them: never 0 when neither is. */
function smaller(a: Bounds, b: Bounds): Bounds {
  return { min: Math.min(a.min, b.min), max: Math.min(a.max, b.max), nonZero: excludesZero(a) && excludesZero(b) };
}

function larger(a: Bounds, b: Bounds): Bounds {
  return { min: Math.max(a.min, b.min), max: Math.max(a.max, b.max), nonZero: excludesZero(a) && excludesZero(b) };
}

/** One of two values (`if`, `??`). */
function either(a: Bounds, b: Bounds): Bounds {
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max), nonZero: excludesZero(a) && excludesZero(b) };
}

function isInt(type: Type): boolean {
  return unwrapOptional(type).kind === 'int';
}
