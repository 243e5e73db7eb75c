/**
 * The reference for ADEC5001 / ADEC5002: constant-conditions.ts as it was before the fast
 * path, deciding every (sub-)condition on its own model with the plain interpreter
 * (evaluate.ts) and no memoization. compile.test.ts checks the fast version agrees.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { CheckedExpr } from '../../src/model/index.js';
import { evaluate } from '../../src/analyze/evaluate.js';
import { buildModel, NO_DEFINITIONS, type Definitions } from '../../src/analyze/finite-model.js';

/** `true` / `false` when `condition` always has that value, else `undefined`. */
export function referenceConstantValue(condition: CheckedExpr, definitions: Definitions = NO_DEFINITIONS): boolean | undefined {
  const model = buildModel([condition], definitions);
  if (model === undefined) return undefined;
  const seen = { true: false, false: false };
  model.forEachAssignment((env) => {
    const value = evaluate(condition, env);
    if (value !== false) seen.true = true;
    if (value !== true) seen.false = true;
    return !(seen.true && seen.false);
  });
  if (seen.true === seen.false) return undefined;
  return seen.true;
}

/** The largest constant sub-conditions of `condition`, with their value. */
export function referenceConstantSubConditions(
  condition: CheckedExpr,
  definitions: Definitions = NO_DEFINITIONS,
): { readonly expr: CheckedExpr; readonly value: boolean }[] {
  if (condition.kind !== 'literal' && !isRedundantNullCheck(condition)) {
    const value = referenceConstantValue(condition, definitions);
    if (value !== undefined) return [{ expr: condition, value }];
  }
  return subConditions(condition).flatMap((sub) => referenceConstantSubConditions(sub, definitions));
}

/**
 * `x IS NULL` on a value that cannot be absent is constant, but the checker already says so
 * with a more helpful message (ADEC5005); one mistake is reported once.
 */
function isRedundantNullCheck(condition: CheckedExpr): boolean {
  if (condition.kind === 'not') return isRedundantNullCheck(condition.operand);
  return condition.kind === 'isNull' && !mayBeAbsent(condition.operand);
}

function mayBeAbsent(expr: CheckedExpr): boolean {
  if (expr.type.kind === 'optional' || expr.type.kind === 'null') return true;
  return expr.kind === 'field' && (expr.optional || mayBeAbsent(expr.object));
}

function subConditions(condition: CheckedExpr): readonly CheckedExpr[] {
  switch (condition.kind) {
    case 'logical':
      return [condition.left, condition.right];
    case 'not':
      return [condition.operand];
    case 'if':
      return condition.type.kind === 'bool'
        ? [condition.condition, condition.consequent, condition.alternate]
        : [condition.condition];
    default:
      return [];
  }
}

/** ADEC5001 / ADEC5002 for `condition` and its sub-conditions. */
export function referenceCheckConstantConditions(condition: CheckedExpr, definitions: Definitions = NO_DEFINITIONS): Diagnostic[] {
  return referenceConstantSubConditions(condition, definitions).map(({ expr, value }) =>
    diagnostic(value ? 'ADEC5001' : 'ADEC5002', expr.span),
  );
}
