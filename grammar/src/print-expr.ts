/**
 * Prints an expression back as source text: the `source` of an invariant in the checked
 * world (audit records quote it) and the name of a value in messages. The printing is
 * canonical (single spaces, minimal parentheses), not byte-for-byte what the author typed.
 */
import type { Expr } from './ast.js';
import { BINARY_PRECEDENCE, PRECEDENCE } from './precedence.js';


export function formatExpr(expr: Expr): string {
  return print(expr, 0);
}

/** `payload.rationale` for a name or a chain of fields, else undefined. */
export function pathOf(expr: Expr): string | undefined {
  if (expr.kind === 'NameExpr') return expr.name;
  if (expr.kind === 'MemberExpr') {
    const object = pathOf(expr.object);
    return object === undefined ? undefined : `${object}.${expr.property.name}`;
  }
  return undefined;
}

function precedenceOf(expr: Expr): number {
  switch (expr.kind) {
    case 'ConditionalExpr':
      return PRECEDENCE.conditional;
    case 'BinaryExpr':
      return BINARY_PRECEDENCE[expr.operator];
    case 'UnaryExpr':
      return expr.operator === 'not' ? PRECEDENCE.not : PRECEDENCE.negate;
    case 'NullCheckExpr':
    case 'LengthExpr':
      return PRECEDENCE.comparison;
    default:
      return PRECEDENCE.primary;
  }
}

function print(expr: Expr, context: number): string {
  const text = printBare(expr);
  return precedenceOf(expr) < context ? `(${text})` : text;
}

function printBare(expr: Expr): string {
  switch (expr.kind) {
    case 'NumberLiteral':
      return String(expr.value);
    case 'StringLiteral':
      return `"${expr.value.replace(/"/g, '\\"')}"`;
    case 'DurationLiteral':
      return expr.text;
    case 'BooleanLiteral':
      return String(expr.value);
    case 'NullLiteral':
      return 'null';
    case 'NameExpr':
      return expr.name;
    case 'MemberExpr':
      return `${print(expr.object, PRECEDENCE.postfix)}.${expr.property.name}`;
    case 'CallExpr':
      return `${expr.callee.name}(${expr.args.map((a) => print(a, 0)).join(', ')})`;
    case 'ListExpr':
      return `[${expr.items.map((i) => print(i, 0)).join(', ')}]`;
    case 'UnaryExpr':
      return expr.operator === 'not' ? `not ${print(expr.operand, PRECEDENCE.not)}` : `-${print(expr.operand, PRECEDENCE.negate)}`;
    case 'BinaryExpr': {
      const own = BINARY_PRECEDENCE[expr.operator];
      // `??` is right-associative, the rest left-associative or non-associative.
      const leftContext = expr.operator === '??' ? own + 1 : own;
      const rightContext = expr.operator === '??' ? own : own + 1;
      return `${print(expr.left, leftContext)} ${expr.operator} ${print(expr.right, rightContext)}`;
    }
    case 'NullCheckExpr':
      return `${print(expr.operand, PRECEDENCE.coalesce)} ${expr.negated ? 'IS NOT NULL' : 'IS NULL'}`;
    case 'LengthExpr':
      return `${print(expr.operand, PRECEDENCE.coalesce)} LENGTH ${expr.operator} ${print(expr.limit, PRECEDENCE.coalesce)}`;
    case 'ConditionalExpr': {
      const head = `if ${print(expr.condition, PRECEDENCE.or)} then ${print(expr.consequent, PRECEDENCE.or)}`;
      return expr.alternate === undefined ? head : `${head} else ${print(expr.alternate, PRECEDENCE.conditional)}`;
    }
    case 'MissingExpr':
      return '<missing>';
  }
}
