/**
 * Small builders for checked expressions and worlds, so analysis tests read like the
 * conditions they check: `and(cmp('>', ref('age', INT), lit(5)), …)`. Every node gets a
 * distinct span (a running offset) so tests can tell which node a warning points at.
 */
import type { Span } from '@adec/diagnostics';
import {
  BOOL,
  FLOAT,
  INT,
  STRING,
  type Aggregation,
  type BuiltinName,
  type CheckedAction,
  type CheckedExpr,
  type CheckedRule,
  type CheckedWorld,
  type CompareExpr,
  type ContextAttribute,
  type RefRoot,
  type RuleOutcome,
  type SeverityTier,
  type Type,
} from '../../src/model/index.js';

let nextOffset = 0;

export function span(file = 'world/rules.adec'): Span {
  const offset = (nextOffset += 10);
  return { file, offset, endOffset: offset + 5, line: offset / 10, column: 3, endLine: offset / 10, endColumn: 8 };
}

export const enumType = (...members: string[]): Type => ({ kind: 'enum', members });
export const optional = (inner: Type): Type => ({ kind: 'optional', inner });
export const intRange = (min?: number, max?: number): Type => ({
  kind: 'int',
  range: { ...(min !== undefined && { min }), ...(max !== undefined && { max }) },
});
export const floatRange = (min?: number, max?: number): Type => ({
  kind: 'float',
  range: { ...(min !== undefined && { min }), ...(max !== undefined && { max }) },
});
export const listOf = (element: Type): Type => ({ kind: 'list', element });

export function lit(value: boolean | number | string | null, type?: Type): CheckedExpr {
  const inferred: Type =
    type ??
    (typeof value === 'boolean'
      ? BOOL
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? INT
          : FLOAT
        : typeof value === 'string'
          ? STRING
          : { kind: 'null' });
  return { kind: 'literal', value, type: inferred, span: span() };
}

export const TRUE = (): CheckedExpr => lit(true);
export const FALSE = (): CheckedExpr => lit(false);

export function ref(name: string, type: Type, root: RefRoot = 'context'): CheckedExpr {
  return { kind: 'ref', root, name, type, span: span() };
}

export function field(object: CheckedExpr, name: string, type: Type, isOptional = false): CheckedExpr {
  return { kind: 'field', object, name, type, optional: isOptional, span: span() };
}

export function cmp(operator: CompareExpr['operator'], left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  return { kind: 'compare', operator, left, right, type: BOOL, span: span() };
}

export function and(left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  return { kind: 'logical', operator: 'and', left, right, type: BOOL, span: span() };
}

export function or(left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  return { kind: 'logical', operator: 'or', left, right, type: BOOL, span: span() };
}

export function not(operand: CheckedExpr): CheckedExpr {
  return { kind: 'not', operand, type: BOOL, span: span() };
}

export function coalesce(left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  const type = left.type.kind === 'optional' ? left.type.inner : left.type;
  return { kind: 'coalesce', left, right, type, span: span() };
}

export function isNull(operand: CheckedExpr, negated = false): CheckedExpr {
  return { kind: 'isNull', operand, negated, type: BOOL, span: span() };
}

export function arith(operator: '+' | '-' | '*' | '/' | '%', left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  const type = operator === '/' || left.type.kind === 'float' || right.type.kind === 'float' ? FLOAT : left.type;
  return { kind: 'arithmetic', operator, left, right, type, span: span() };
}

export function call(name: BuiltinName, type: Type, ...args: CheckedExpr[]): CheckedExpr {
  return { kind: 'call', name, args, type, span: span() };
}

export function list(...items: CheckedExpr[]): CheckedExpr {
  return { kind: 'list', items, type: listOf(items[0]?.type ?? { kind: 'null' }), span: span() };
}

export function inList(element: CheckedExpr, listExpr: CheckedExpr): CheckedExpr {
  return { kind: 'in', element, list: listExpr, type: BOOL, span: span() };
}

export function contains(subject: CheckedExpr, needle: CheckedExpr, options: { any?: boolean; negated?: boolean } = {}): CheckedExpr {
  return {
    kind: 'contains',
    mode: subject.type.kind === 'list' ? 'element' : 'substring',
    any: options.any ?? false,
    negated: options.negated ?? false,
    subject,
    needle,
    type: BOOL,
    span: span(),
  };
}

export function matches(subject: CheckedExpr, source: string, flags = '', negated = false): CheckedExpr {
  return { kind: 'matches', subject, source, flags, negated, type: BOOL, span: span() };
}

export function length(operator: CompareExpr['operator'], operand: CheckedExpr, limit: CheckedExpr): CheckedExpr {
  return { kind: 'length', operator, operand, limit, type: BOOL, span: span() };
}

export function ifThen(condition: CheckedExpr, consequent: CheckedExpr, alternate: CheckedExpr): CheckedExpr {
  return { kind: 'if', condition, consequent, alternate, type: consequent.type, span: span() };
}

export function rule(
  id: string,
  outcome: RuleOutcome,
  severity: SeverityTier,
  when: CheckedExpr,
  options: { appliesWhen?: CheckedExpr; suppresses?: string[] } = {},
): CheckedRule {
  return {
    id,
    action: 'act',
    outcome,
    severity,
    when,
    ...(options.appliesWhen && { appliesWhen: options.appliesWhen }),
    // Every rule explains itself, as a RED or YELLOW one without a reason is a warning (ADEC5010).
    reason: { parts: [`${id} decided`], span: span() },
    suppresses: options.suppresses ?? [],
    reads: [],
    span: span(),
  };
}

export function attribute(name: string, type: Type, derivation?: CheckedExpr): ContextAttribute {
  return { name, type, source: derivation ? 'computed' : 'supplied', ...(derivation && { derivation }), span: span() };
}

export function action(
  rules: CheckedRule[],
  options: { context?: ContextAttribute[]; aggregation?: Aggregation; name?: string } = {},
): CheckedAction {
  return {
    name: options.name ?? 'act',
    context: options.context ?? [],
    aggregation: options.aggregation ?? { mode: 'winner_takes_all' },
    rules,
    workFrames: {},
    span: span(),
  };
}

export function world(parts: Partial<Pick<CheckedWorld, 'actions' | 'skills' | 'scenarios'>>): CheckedWorld {
  return {
    header: { org: 'acme', domain: 'test', world: 'test', version: '1.0.0' },
    predicateTimeoutMs: 100,
    actions: parts.actions ?? [],
    skills: parts.skills ?? [],
    scenarios: parts.scenarios ?? [],
    tests: [],
  };
}
