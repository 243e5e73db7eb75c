/**
 * The built-in functions, the only calls the language has: clamp, min, max, abs, round,
 * floor, ceil (numbers), lower, upper (strings), len (strings and lists), and the duration
 * conversions in_days, in_hours, in_minutes, in_seconds (duration → float) and days, hours,
 * minutes, seconds (number → duration; model/duration-conversions.ts).
 */
import type { CallExpr } from '@adec/grammar';
import { DURATION, formatType, type BuiltinName, type CheckedExpr, type Type } from '../model/index.js';
import type { ExprChecker } from './check-expr.js';
import { poisoned } from './check-expr.js';
import type { Narrowed } from './narrowing.js';
import { didYouMeanNameOrKeyword, KEYWORDS_BEFORE_PARENTHESIS } from './suggestions.js';
import { ERROR, FLOAT, INT, STRING, isError, isNumeric, isText } from './type-relations.js';

interface BuiltinSignature {
  readonly arity: number;
  /** What every argument must be, as the message names it. */
  readonly accepts: { readonly describe: string; readonly test: (type: Type) => boolean };
  readonly result: (args: readonly Type[]) => Type;
}

const NUMBER = { describe: 'a number', test: isNumeric };
const A_DURATION = { describe: 'a duration', test: (type: Type) => type.kind === 'duration' };
/** int when every argument is int, else float. */
const numericResult = (args: readonly Type[]): Type => (args.every((a) => a.kind === 'int') ? INT : FLOAT);

const BUILTINS: Readonly<Record<BuiltinName, BuiltinSignature>> = {
  clamp: { arity: 3, accepts: NUMBER, result: numericResult },
  min: { arity: 2, accepts: NUMBER, result: numericResult },
  max: { arity: 2, accepts: NUMBER, result: numericResult },
  abs: { arity: 1, accepts: NUMBER, result: numericResult },
  round: { arity: 1, accepts: NUMBER, result: () => INT },
  floor: { arity: 1, accepts: NUMBER, result: () => INT },
  ceil: { arity: 1, accepts: NUMBER, result: () => INT },
  lower: { arity: 1, accepts: { describe: 'string', test: isText }, result: () => STRING },
  upper: { arity: 1, accepts: { describe: 'string', test: isText }, result: () => STRING },
  len: { arity: 1, accepts: { describe: 'a string or list', test: (t) => isText(t) || t.kind === 'list' }, result: () => INT },
  in_days: { arity: 1, accepts: A_DURATION, result: () => FLOAT },
  in_hours: { arity: 1, accepts: A_DURATION, result: () => FLOAT },
  in_minutes: { arity: 1, accepts: A_DURATION, result: () => FLOAT },
  in_seconds: { arity: 1, accepts: A_DURATION, result: () => FLOAT },
  days: { arity: 1, accepts: NUMBER, result: () => DURATION },
  hours: { arity: 1, accepts: NUMBER, result: () => DURATION },
  minutes: { arity: 1, accepts: NUMBER, result: () => DURATION },
  seconds: { arity: 1, accepts: NUMBER, result: () => DURATION },
};

function isBuiltinName(name: string): name is BuiltinName {
  return Object.hasOwn(BUILTINS, name);
}

export function checkBuiltinCall(checker: ExprChecker, expr: CallExpr, narrowed: Narrowed): CheckedExpr {
  const name = expr.callee.name;
  const args = expr.args.map((arg) => checker.check(arg, narrowed));
  if (!isBuiltinName(name)) {
    if (name !== '') checker.sink.report('ADEC2008', expr.callee.span, { name }, didYouMeanNameOrKeyword(name, Object.keys(BUILTINS), KEYWORDS_BEFORE_PARENTHESIS));
    return poisoned(expr);
  }
  const signature = BUILTINS[name];
  if (args.length !== signature.arity) {
    checker.sink.report('ADEC3009', expr.span, { name, expected: signature.arity, found: args.length });
    return { kind: 'call', name, args, type: ERROR, span: expr.span };
  }
  const argTypes = args.map((arg, i) => checker.presentType(arg, expr.args[i]!));
  let poisonedArgument = false;
  argTypes.forEach((type, i) => {
    if (isError(type)) {
      poisonedArgument = true;
    } else if (!signature.accepts.test(type)) {
      poisonedArgument = true;
      checker.sink.report('ADEC3001', expr.args[i]!.span, { expected: signature.accepts.describe, found: formatType(type) }, { label: `this is ${formatType(type)}` });
    }
  });
  const type = poisonedArgument ? ERROR : signature.result(argTypes);
  return { kind: 'call', name, args, type, span: expr.span };
}
