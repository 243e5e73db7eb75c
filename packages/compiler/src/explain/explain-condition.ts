/**
 * Why a condition had the value it had: re-evaluated from the values it read, with the
 * reference interpreter the analyses use (analyze/evaluate.ts), outside the decision path, so
 * deciding never pays for explaining. A chain of `and` is decided by its first false part (or
 * held because every part did), a chain of `or` by its first true part (or failed because every
 * part did); `not` of such a chain by the chain; `if` by its condition and the branch it took.
 * Anything else is a leaf, explained by the attributes it reads.
 *
 * A division by a divisor that is 0 has no value (docs/language-guide.md §3): the predicate
 * fails there, so the explanation stops there too, at that divisor, even where the
 * interpreter's three-valued logic could decide past an unknown part (`x / 0 > 1 or true`).
 */
import type { Span } from '@adec/diagnostics';
import { arithmetic, evaluate, UNKNOWN, type Environment, type Value } from '../analyze/evaluate.js';
import { childExpressions, type CheckedExpr, type JsonValue } from '../model/index.js';

export interface ConditionExplanation {
  /** Where the (sub-)condition is written: its text is the source under this span. */
  readonly span: Span;
  /** Its value; undefined when it could not be re-evaluated from the values given. */
  readonly value: JsonValue | undefined;
  /** How its parts decided it; `leaf` when it has none to show. */
  readonly decided: 'leaf' | 'every_part' | 'first_part' | 'negation' | 'branch';
  /** The parts that decided the value, in evaluation order. */
  readonly parts: readonly ConditionExplanation[];
  /** A leaf's context attributes, each once, in the order it reads them. */
  readonly reads: readonly string[];
  /** The divisor that was 0 where re-evaluation stopped, as the predicate did: the condition has no value. */
  readonly zeroDivisor?: Span;
}

/** A value, or the first divisor that was 0 on the way to it. */
interface Evaluated {
  readonly value: Value;
  readonly zeroDivisor?: CheckedExpr;
}

/**
 * `attribute` gives each context attribute's value as the module computes with it (durations in
 * ms); undefined when it is not known.
 */
export function explainCondition(expr: CheckedExpr, attribute: (name: string) => JsonValue | undefined): ConditionExplanation {
  const known = (value: JsonValue | undefined): Value => (value === undefined ? UNKNOWN : value);
  return explain(expr, (e) => evaluateToZeroDivisor(e, (ref) => (ref.kind === 'ref' && ref.root === 'context' ? known(attribute(ref.name)) : undefined)));
}

/**
 * `expr` evaluated as the predicate evaluates it, noting the first divisor that is 0. The
 * interpreter takes operands in the predicate's order up to its first unknown value, and on
 * known input only a division by 0 is unknown, so the first one it meets is the one the
 * predicate failed at.
 */
function evaluateToZeroDivisor(expr: CheckedExpr, bound: (e: CheckedExpr) => Value | undefined): Evaluated {
  let zeroDivisor: CheckedExpr | undefined;
  const env: Environment = {
    lookup: (e) => {
      const value = bound(e);
      if (value !== undefined || e.kind !== 'arithmetic' || (e.operator !== '/' && e.operator !== '%')) return value;
      const dividend = evaluate(e.left, env);
      const divisor = evaluate(e.right, env);
      if (divisor === 0) zeroDivisor ??= e.right;
      return arithmetic(e.operator, dividend, divisor);
    },
  };
  const value = evaluate(expr, env);
  return zeroDivisor === undefined ? { value } : { value: UNKNOWN, zeroDivisor };
}

function explain(expr: CheckedExpr, valueOf: (e: CheckedExpr) => Evaluated): ConditionExplanation {
  if (expr.kind === 'logical') return explainChain(expr, valueOf);
  if (expr.kind === 'not' && expr.operand.kind === 'logical') {
    const operand = explainChain(expr.operand, valueOf);
    return node(expr, typeof operand.value === 'boolean' ? !operand.value : undefined, 'negation', [operand]);
  }
  if (expr.kind === 'if') {
    const condition = explain(expr.condition, valueOf);
    if (condition.zeroDivisor !== undefined) return node(expr, undefined, 'branch', [condition]);
    if (typeof condition.value !== 'boolean') return node(expr, json(valueOf(expr).value), 'branch', [condition]);
    const branch = explain(condition.value ? expr.consequent : expr.alternate, valueOf);
    return node(expr, branch.value, 'branch', [condition, branch]);
  }
  const { value, zeroDivisor } = valueOf(expr);
  return { span: expr.span, value: json(value), decided: 'leaf', parts: [], reads: contextReads(expr), ...(zeroDivisor !== undefined && { zeroDivisor: zeroDivisor.span }) };
}

/**
 * `a and b and …` (or `or`): its parts in order, up to the first decisive one, as the predicate
 * evaluates them. A chain is walked in a loop: it can be thousands of operands long.
 */
function explainChain(expr: Extract<CheckedExpr, { kind: 'logical' }>, valueOf: (e: CheckedExpr) => Evaluated): ConditionExplanation {
  const operands: CheckedExpr[] = [expr.right];
  let left: CheckedExpr = expr.left;
  for (; left.kind === 'logical' && left.operator === expr.operator; left = left.left) operands.push(left.right);
  operands.push(left);
  operands.reverse();
  const decisive = expr.operator === 'or';
  const parts: ConditionExplanation[] = [];
  let known = true;
  for (const operand of operands) {
    const part = explain(operand, valueOf);
    if (part.zeroDivisor !== undefined) return node(expr, undefined, 'first_part', [part]);
    if (part.value === decisive) return node(expr, decisive, 'first_part', [part]);
    if (typeof part.value !== 'boolean') known = false;
    parts.push(part);
  }
  return node(expr, known ? !decisive : undefined, 'every_part', parts);
}

/** A node decided by `parts`; a part that stopped at a zero divisor stops it too. */
function node(expr: CheckedExpr, value: JsonValue | undefined, decided: ConditionExplanation['decided'], parts: readonly ConditionExplanation[]): ConditionExplanation {
  const zeroDivisor = parts.find((part) => part.zeroDivisor !== undefined)?.zeroDivisor;
  return { span: expr.span, value: zeroDivisor === undefined ? value : undefined, decided, parts, reads: [], ...(zeroDivisor !== undefined && { zeroDivisor }) };
}

function json(value: Value): JsonValue | undefined {
  return value === UNKNOWN ? undefined : (value as JsonValue);
}

/** The context attributes an expression reads, each once, in reading order. */
function contextReads(expr: CheckedExpr): string[] {
  const names = new Set<string>();
  const pending = [expr];
  while (pending.length > 0) {
    const e = pending.shift()!;
    if (e.kind === 'ref' && e.root === 'context') names.add(e.name);
    pending.unshift(...childExpressions(e));
  }
  return [...names];
}
