/**
 * Checks a call of a built-in function against its entry in the registry (model/builtins.ts):
 * the name, the number of arguments, what each argument must be, and the result type.
 */
import type { CallExpr } from '@adec/grammar';
import { BUILTIN_NAMES, builtin, formatType, isBuiltinName, type CheckedExpr, type ParameterKind, type ResultRule, type Type } from '../model/index.js';
import type { ExprChecker } from './check-expr.js';
import { poisoned } from './check-expr.js';
import type { Narrowed } from './narrowing.js';
import { didYouMeanNameOrKeyword, KEYWORDS_BEFORE_PARENTHESIS } from './suggestions.js';
import { ERROR, FLOAT, INT, isError, isNumeric, isText } from './type-relations.js';

/** What an argument of each kind must be, as the message names it. */
const ACCEPTS: Readonly<Record<ParameterKind, { readonly describe: string; readonly test: (type: Type) => boolean }>> = {
  number: { describe: 'a number', test: isNumeric },
  text: { describe: 'string', test: isText },
  'text-or-list': { describe: 'a string or list', test: (type) => isText(type) || type.kind === 'list' },
  duration: { describe: 'a duration', test: (type) => type.kind === 'duration' },
};

function resultType(rule: ResultRule, args: readonly Type[]): Type {
  if (rule.kind === 'fixed') return rule.type;
  return args.every((a) => a.kind === 'int') ? INT : FLOAT;
}

export function checkBuiltinCall(checker: ExprChecker, expr: CallExpr, narrowed: Narrowed): CheckedExpr {
  const name = expr.callee.name;
  const args = expr.args.map((arg) => checker.check(arg, narrowed));
  if (!isBuiltinName(name)) {
    if (name !== '') checker.sink.report('ADEC2008', expr.callee.span, { name }, didYouMeanNameOrKeyword(name, BUILTIN_NAMES, KEYWORDS_BEFORE_PARENTHESIS));
    return poisoned(expr);
  }
  checker.sink.recorder?.refer(expr.callee.span, { kind: 'function', name });
  const signature = builtin(name);
  const accepts = ACCEPTS[signature.accepts];
  if (args.length !== signature.parameters.length) {
    checker.sink.report('ADEC3009', expr.span, { name, expected: signature.parameters.length, found: args.length });
    return { kind: 'call', name, args, type: ERROR, span: expr.span };
  }
  const argTypes = args.map((arg, i) => checker.presentType(arg, expr.args[i]!));
  let poisonedArgument = false;
  for (const [i, type] of argTypes.entries()) {
    if (isError(type)) {
      poisonedArgument = true;
    } else if (!accepts.test(type)) {
      poisonedArgument = true;
      checker.sink.report('ADEC3001', expr.args[i]!.span, { expected: accepts.describe, found: formatType(type) }, { label: `this is ${formatType(type)}` });
    }
  }
  const type = poisonedArgument ? ERROR : resultType(signature.result, argTypes);
  return { kind: 'call', name, args, type, span: expr.span };
}
