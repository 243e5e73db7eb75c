/**
 * A number written where a duration is meant (`request_time - filed_at < 180`, `timeout: 5`):
 * the help names the units, with the number as written, since the unit is the one thing the
 * checker cannot guess.
 */
import { durationUnitsHelp, type Expr } from '@adec/grammar';
import type { Type } from '../model/index.js';
import { isNumeric, unwrapOptional } from './type-relations.js';

/** The help for two operands of which one is a duration or timestamp and the other a number. */
export function numberForDurationHelp(left: Type, leftAst: Expr, right: Type, rightAst: Expr): { help?: string } {
  const isTime = (type: Type) => ['duration', 'timestamp'].includes(unwrapOptional(type).kind);
  const isNumber = (type: Type) => isNumeric(unwrapOptional(type));
  if (isTime(left) && isNumber(right)) return unitsFor(rightAst);
  if (isTime(right) && isNumber(left)) return unitsFor(leftAst);
  return {};
}

/** The help for a number where a duration is expected. */
export function durationExpectedHelp(expected: Type, found: Type, ast: Expr): { help?: string } {
  return unwrapOptional(expected).kind === 'duration' && isNumeric(unwrapOptional(found)) ? unitsFor(ast) : {};
}

function unitsFor(ast: Expr): { help: string } {
  return { help: durationUnitsHelp(ast.kind === 'NumberLiteral' ? String(ast.value) : '30') };
}
