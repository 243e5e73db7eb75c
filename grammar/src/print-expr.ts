/**
 * Prints an expression back as source text: the `source` of an invariant in the checked
 * world (audit records quote it) and the name of a value in messages. The printing is
 * canonical (single spaces, minimal parentheses), not byte-for-byte what the author typed.
 */
import type { BinaryExpr, Expr } from './ast.js';
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
    case 'BinaryExpr':
      return printBinary(expr);
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

/**
 * `??` is right-associative, the other operators left-associative or non-associative. A
 * chain (`a or b or …`, `x + 1 + 1 …`, `a ?? b ?? …`) is printed in a loop, not by
 * recursion: it can be 10,000 operands long.
 */
function printBinary(expr: BinaryExpr): string {
  const own = BINARY_PRECEDENCE[expr.operator];
  if (expr.operator === '??') {
    const parts: string[] = [];
    let node: Expr = expr;
    while (node.kind === 'BinaryExpr' && node.operator === '??') {
      parts.push(print(node.left, own + 1));
      node = node.right;
    }
    parts.push(print(node, own));
    return parts.join(' ?? ');
  }
  // The left operands that print without parentheses, from `expr` down.
  const chain: BinaryExpr[] = [expr];
  for (let node = expr.left; isChainedLeft(node, chain[chain.length - 1]!); node = node.left) chain.push(node);
  const bottom = chain[chain.length - 1]!;
  let text = print(bottom.left, BINARY_PRECEDENCE[bottom.operator]);
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i]!;
    text = `${text} ${node.operator} ${print(node.right, BINARY_PRECEDENCE[node.operator] + 1)}`;
  }
  return text;
}

function isChainedLeft(left: Expr, parent: BinaryExpr): left is BinaryExpr {
  return left.kind === 'BinaryExpr' && left.operator !== '??' && BINARY_PRECEDENCE[left.operator] >= BINARY_PRECEDENCE[parent.operator];
}
