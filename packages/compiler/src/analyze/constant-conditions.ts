/**
 * ADEC5001 / ADEC5002: conditions that are always true or always false, decided on the
 * finite model of the condition (finite-model.ts): true in every assignment → always true;
 * false in every assignment → always false. An assignment where the interpreter cannot
 * tell (`UNKNOWN`) counts as both, so it prevents either claim.
 *
 * A condition and its sub-conditions (operands of `and`, `or`, `not`, the parts of a
 * boolean `if`) are each judged on their own, and only the largest constant one is
 * reported: `x > 5 and x < 3` is reported once, at the `and`. A bare literal (`when true`)
 * is never reported: writing it is deliberate. Neither is `IS NULL` on a value that cannot be
 * absent: the checker reports that as ADEC5005.
 *
 * Cost: each model is enumerated with compiled closures, skipping blocks of assignments on
 * which a conjunct is false (finite-model.ts `forEachValue`). Answers are not memoized by
 * structure: keying 80,000 sub-conditions cost more than deciding them (measured).
 * test/analyze/reference-constant-conditions.ts keeps the plain version.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { CheckedExpr } from '../model/index.js';
import { buildModel, NO_DEFINITIONS, type Definitions } from './finite-model.js';

/** `true` / `false` when `condition` always has that value, else `undefined`. */
export function constantValue(condition: CheckedExpr, definitions: Definitions = NO_DEFINITIONS): boolean | undefined {
  const model = buildModel([condition], definitions);
  if (model === undefined) return undefined;
  let seenTrue = false;
  let seenFalse = false;
  model.forEachValue(condition, (_slots, value) => {
    if (value !== false) seenTrue = true;
    if (value !== true) seenFalse = true;
    return !(seenTrue && seenFalse);
  });
  if (seenTrue === seenFalse) return undefined;
  return seenTrue;
}

/** The largest constant sub-conditions of `condition`, with their value. */
export function constantSubConditions(
  condition: CheckedExpr,
  definitions: Definitions = NO_DEFINITIONS,
): { readonly expr: CheckedExpr; readonly value: boolean }[] {
  if (condition.kind !== 'literal' && !isRedundantNullCheck(condition)) {
    const value = constantValue(condition, definitions);
    if (value !== undefined) return [{ expr: condition, value }];
  }
  return subConditions(condition).flatMap((sub) => constantSubConditions(sub, definitions));
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
export function checkConstantConditions(condition: CheckedExpr, definitions: Definitions = NO_DEFINITIONS): Diagnostic[] {
  return constantSubConditions(condition, definitions).map(({ expr, value }) =>
    diagnostic(value ? 'ADEC5001' : 'ADEC5002', expr.span),
  );
}
