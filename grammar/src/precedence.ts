/**
 * How tightly each expression form binds, loosest first: the precedence table of the
 * language reference (grammar/README.md), in one place for the parser, which builds trees
 * from it, and the printer, which puts back exactly the parentheses the tree needs.
 */
import type { BinaryOperator } from './ast.js';

export const PRECEDENCE = {
  conditional: 1,
  or: 2,
  and: 3,
  not: 4,
  comparison: 5,
  coalesce: 6,
  additive: 7,
  multiplicative: 8,
  negate: 9,
  postfix: 10,
  primary: 11,
} as const;

export const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  or: PRECEDENCE.or,
  and: PRECEDENCE.and,
  '==': PRECEDENCE.comparison,
  '!=': PRECEDENCE.comparison,
  '<': PRECEDENCE.comparison,
  '<=': PRECEDENCE.comparison,
  '>': PRECEDENCE.comparison,
  '>=': PRECEDENCE.comparison,
  EQUALS: PRECEDENCE.comparison,
  in: PRECEDENCE.comparison,
  CONTAINS: PRECEDENCE.comparison,
  'NOT CONTAINS': PRECEDENCE.comparison,
  CONTAINS_ANY: PRECEDENCE.comparison,
  'NOT CONTAINS_ANY': PRECEDENCE.comparison,
  MATCHES: PRECEDENCE.comparison,
  'NOT MATCHES': PRECEDENCE.comparison,
  '??': PRECEDENCE.coalesce,
  '+': PRECEDENCE.additive,
  '-': PRECEDENCE.additive,
  '*': PRECEDENCE.multiplicative,
  '/': PRECEDENCE.multiplicative,
  '%': PRECEDENCE.multiplicative,
};

/** `??` groups to the right (`a ?? b ?? c` is `a ?? (b ?? c)`); the others to the left. */
export const RIGHT_ASSOCIATIVE: ReadonlySet<BinaryOperator> = new Set(['??']);
