/**
 * A checked value used where a declared type is expected: computed attributes and state
 * derivations against their declared type.
 */
import type { Expr } from '@adec/grammar';
import { formatType, type CheckedExpr, type Type } from '../model/index.js';
import type { ExprChecker } from './check-expr.js';
import { checkEnumLiterals, enumOf } from './enum-literals.js';
import { durationExpectedHelp } from './number-for-duration.js';
import { isAssignable, isError, unwrapOptional } from './type-relations.js';

/**
 * Reports why `value` does not fit `expected`: ADEC3006 for a string literal outside an
 * enum, ADEC3007 for a value that may be absent where it may not, ADEC3001 otherwise.
 */
export function checkAssignable(checker: ExprChecker, value: CheckedExpr, ast: Expr, expected: Type): void {
  if (isError(value.type) || isError(expected)) return;
  const expectedEnum = enumOf(expected);
  if (expectedEnum !== undefined && unwrapOptional(value.type).kind === 'string' && checkEnumLiterals(checker.sink, value, expectedEnum)) return;
  if (isAssignable(value.type, expected)) return;
  if (value.type.kind === 'optional' && isAssignable(value.type.inner, expected)) {
    checker.presentType(value, ast);
    return;
  }
  const found = formatType(value.type);
  checker.sink.report('ADEC3001', ast.span, { expected: formatType(expected), found }, { label: `this is ${found}`, ...durationExpectedHelp(expected, value.type, ast) });
}
