/**
 * Type-checks one expression against a scope and returns it resolved and typed, the form
 * codegen consumes. Every problem becomes a diagnostic; a node whose type cannot be known
 * gets the poison `error` type, and nothing is reported about a poisoned operand again.
 */
import { formatExpr, pathOf, type ConditionalExpr, type Expr, type ListExpr, type MemberExpr, type NameExpr, type UnaryExpr } from '@adec/grammar';
import { formatType, type CheckedExpr, type Type } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import { checkBinary } from './check-operators.js';
import { checkBuiltinCall } from './check-builtins.js';
import { NOTHING_NARROWED, presentWhenFalse, presentWhenTrue, union, type Narrowed } from './narrowing.js';
import type { ExprScope } from './scope.js';
import { didYouMeanName, didYouMeanNameOrKeyword } from './suggestions.js';
import { BOOL, DURATION, ERROR, FLOAT, INT, NULL, STRING, isError, isNumeric, joinTypes, optionalOf, unwrapOptional } from './type-relations.js';
import { checkEnumLiterals, enumOf } from './enum-literals.js';

/** What the operator and built-in rules need from the expression checker. */
export interface ExprChecker {
  readonly sink: DiagnosticSink;
  readonly scope: ExprScope;
  check(expr: Expr, narrowed: Narrowed): CheckedExpr;
  /**
   * The type of a value used where absence is not allowed (arithmetic, ordering, calls,
   * conditions…): an optional value there is ADEC3007, and checking goes on with the inner type.
   */
  presentType(checked: CheckedExpr, ast: Expr): Type;
  /** Reports ADEC3001 unless `checked` is bool (or poisoned). */
  expectBool(checked: CheckedExpr, ast: Expr): void;
}

/** Checks `expr` in `scope`, reporting into `sink`. */
export function checkExpression(expr: Expr, scope: ExprScope, sink: DiagnosticSink, narrowed: Narrowed = NOTHING_NARROWED): CheckedExpr {
  return createExprChecker(scope, sink).check(expr, narrowed);
}

/**
 * Checks a condition (`when`, `applies_when`, invariants, guardrails): it must be bool.
 * `clause` names it in ADEC3002; `narrowed` is what holds wherever it is evaluated.
 */
export function checkCondition(expr: Expr, clause: string, scope: ExprScope, sink: DiagnosticSink, narrowed: Narrowed = NOTHING_NARROWED): CheckedExpr {
  const checker = createExprChecker(scope, sink);
  const checked = checker.check(expr, narrowed);
  if (expr.kind === 'MissingExpr' || isError(checked.type)) return checked;
  if (checked.type.kind === 'optional' && checked.type.inner.kind === 'bool') {
    checker.presentType(checked, expr);
  } else if (checked.type.kind !== 'bool') {
    sink.report('ADEC3002', expr.span, { clause, found: formatType(checked.type) }, { label: `this is ${formatType(checked.type)}` });
  }
  return checked;
}

export function createExprChecker(scope: ExprScope, sink: DiagnosticSink): ExprChecker {
  const checker: ExprChecker = {
    sink,
    scope,
    check: (expr, narrowed) => checkNode(checker, expr, narrowed),
    presentType: (checked, ast) => presentType(sink, checked, ast),
    expectBool: (checked, ast) => {
      const type = checker.presentType(checked, ast);
      if (type.kind !== 'bool' && !isError(type)) {
        sink.report('ADEC3001', ast.span, { expected: 'bool', found: formatType(type) }, { label: `this is ${formatType(type)}` });
      }
    },
  };
  return checker;
}

/** A placeholder for an expression that could not be checked. */
export function poisoned(expr: Expr): CheckedExpr {
  return { kind: 'literal', value: null, type: ERROR, span: expr.span };
}

function presentType(sink: DiagnosticSink, checked: CheckedExpr, ast: Expr): Type {
  if (checked.type.kind !== 'optional') return checked.type;
  // A candidate's field is absent for the action types that lack it: say which.
  const notes = checked.kind === 'field' && checked.absentFrom !== undefined ? [`a candidate of action type ${checked.absentFrom.map((name) => `\`${name}\``).join(' or ')} has no \`${checked.name}\``] : [];
  sink.report('ADEC3007', ast.span, { name: formatExpr(ast), type: formatType(checked.type) }, { label: `this is ${formatType(checked.type)}`, ...(notes.length > 0 && { notes }) });
  return checked.type.inner;
}

function checkNode(checker: ExprChecker, expr: Expr, narrowed: Narrowed): CheckedExpr {
  switch (expr.kind) {
    case 'NumberLiteral':
      return { kind: 'literal', value: expr.value, type: expr.isInteger ? INT : FLOAT, span: expr.span };
    case 'StringLiteral':
      return { kind: 'literal', value: expr.value, type: STRING, span: expr.span };
    case 'DurationLiteral':
      return { kind: 'literal', value: expr.milliseconds, type: DURATION, span: expr.span };
    case 'BooleanLiteral':
      return { kind: 'literal', value: expr.value, type: BOOL, span: expr.span };
    case 'NullLiteral':
      return { kind: 'literal', value: null, type: NULL, span: expr.span };
    case 'NameExpr':
      return checkName(checker, expr, narrowed);
    case 'MemberExpr':
      return checkMember(checker, expr, narrowed);
    case 'CallExpr':
      return checkBuiltinCall(checker, expr, narrowed);
    case 'ListExpr':
      return checkList(checker, expr, narrowed);
    case 'UnaryExpr':
      return checkUnary(checker, expr, narrowed);
    case 'BinaryExpr':
      return checkBinary(checker, expr, narrowed);
    case 'NullCheckExpr': {
      const operand = checker.check(expr.operand, narrowed);
      warnIfNeverAbsent(checker, operand, expr.operand, expr.negated ? 'IS NOT NULL' : 'IS NULL');
      return { kind: 'isNull', negated: expr.negated, operand, type: BOOL, span: expr.span };
    }
    case 'LengthExpr':
      return checkLength(checker, expr, narrowed);
    case 'ConditionalExpr':
      return checkConditional(checker, expr, narrowed);
    case 'MissingExpr':
      // The parser already reported what is missing. Names in a part cut for being nested
      // too deep count as read: that part is not checked, but it does use them.
      for (const name of expr.names ?? []) {
        const binding = checker.scope.lookup(name);
        if (binding !== undefined) checker.scope.onReference?.(binding);
      }
      return poisoned(expr);
  }
}

/** ADEC5005: `IS NULL`, `IS NOT NULL` or `??` on a value that is never absent. */
export function warnIfNeverAbsent(checker: ExprChecker, checked: CheckedExpr, ast: Expr, op: string): void {
  const type = checked.type;
  if (type.kind === 'optional' || type.kind === 'null' || isError(type)) return;
  checker.sink.report('ADEC5005', ast.span, { name: formatExpr(ast), type: formatType(type), op });
}

function checkName(checker: ExprChecker, expr: NameExpr, narrowed: Narrowed): CheckedExpr {
  const binding = checker.scope.lookup(expr.name);
  if (binding === undefined) {
    if (expr.name !== '') checker.sink.report('ADEC2001', expr.span, { name: expr.name }, didYouMeanNameOrKeyword(expr.name, checker.scope.names));
    return poisoned(expr);
  }
  checker.scope.onReference?.(binding);
  checker.sink.recorder?.refer(expr.span, binding.target);
  const type = narrowed.has(expr.name) ? unwrapOptional(binding.type) : binding.type;
  return { kind: 'ref', root: binding.root, name: binding.name, type, span: expr.span };
}

function checkMember(checker: ExprChecker, expr: MemberExpr, narrowed: Narrowed): CheckedExpr {
  const object = checker.check(expr.object, narrowed);
  const name = expr.property.name;
  // Shallow on purpose: a record with one field of an unknown type still has its other fields.
  if (object.type.kind === 'error' || name === '') return poisoned(expr);
  const objectMayBeAbsent = object.type.kind === 'optional';
  const record = unwrapOptional(object.type);
  const owner = pathOf(expr.object) ?? formatType(record);
  if (record.kind !== 'record') {
    checker.sink.report('ADEC2002', expr.property.span, { type: owner, name }, { label: `this is ${formatType(object.type)}` });
    return poisoned(expr);
  }
  const field = record.fields.find((f) => f.name === name);
  if (field === undefined) {
    const help = didYouMeanName(name, record.fields.map((f) => f.name));
    const invariant = checker.scope.invariant;
    if (invariant !== undefined && expr.object.kind === 'NameExpr' && expr.object.name === 'payload') {
      checker.sink.report('ADEC2012', expr.property.span, { invariant: invariant.id, name, skill: invariant.skill }, help);
    } else {
      checker.sink.report('ADEC2002', expr.property.span, { type: owner, name }, help);
    }
    return poisoned(expr);
  }
  const recorder = checker.sink.recorder;
  recorder?.refer(expr.property.span, recorder.fieldTargets(field));
  const path = pathOf(expr);
  const fieldType = objectMayBeAbsent ? optionalOf(field.type) : field.type;
  const type = path !== undefined && narrowed.has(path) ? unwrapOptional(fieldType) : fieldType;
  return { kind: 'field', object, name, optional: objectMayBeAbsent, type, span: expr.span, ...(field.absentFrom !== undefined && { absentFrom: field.absentFrom }) };
}

/** A list's items share one type; `[]` is `list<null>`, which fits any list. */
function checkList(checker: ExprChecker, expr: ListExpr, narrowed: Narrowed): CheckedExpr {
  const items = expr.items.map((item) => checker.check(item, narrowed));
  let element: Type = NULL;
  let first: Type | undefined;
  items.forEach((item, index) => {
    const ast = expr.items[index]!;
    const type = checker.presentType(item, ast);
    if (isError(type)) return;
    if (first === undefined) {
      first = type;
      element = type;
      return;
    }
    const joined = joinTypes(element, type);
    if (joined === undefined) {
      checker.sink.report('ADEC3010', ast.span, { first: formatType(first), other: formatType(type) }, { label: `this is ${formatType(type)}` });
    } else {
      element = joined;
    }
  });
  return { kind: 'list', items, type: { kind: 'list', element }, span: expr.span };
}

function checkUnary(checker: ExprChecker, expr: UnaryExpr, narrowed: Narrowed): CheckedExpr {
  const operand = checker.check(expr.operand, narrowed);
  if (expr.operator === 'not') {
    checker.expectBool(operand, expr.operand);
    return { kind: 'not', operand, type: BOOL, span: expr.span };
  }
  const type = checker.presentType(operand, expr.operand);
  if (!isError(type) && !isNumeric(type) && type.kind !== 'duration') {
    checker.sink.report('ADEC3001', expr.operand.span, { expected: 'a number or duration', found: formatType(type) }, { label: `this is ${formatType(type)}` });
    return { kind: 'negate', operand, type: ERROR, span: expr.span };
  }
  return { kind: 'negate', operand, type: isError(type) ? ERROR : type.kind === 'int' ? INT : type.kind === 'float' ? FLOAT : DURATION, span: expr.span };
}

function checkLength(checker: ExprChecker, expr: Extract<Expr, { kind: 'LengthExpr' }>, narrowed: Narrowed): CheckedExpr {
  const operand = checker.check(expr.operand, narrowed);
  const limit = checker.check(expr.limit, narrowed);
  const operandType = checker.presentType(operand, expr.operand);
  const limitType = checker.presentType(limit, expr.limit);
  const op = `LENGTH ${expr.operator}`;
  if (!isError(operandType) && operandType.kind !== 'string' && operandType.kind !== 'enum' && operandType.kind !== 'list') {
    reportOperand(checker, op, 'a string or list', 'left', operandType, expr.operand);
  }
  if (!isError(limitType) && !isNumeric(limitType)) reportOperand(checker, op, 'a number', 'right', limitType, expr.limit);
  return { kind: 'length', operator: expr.operator, operand, limit, type: BOOL, span: expr.span };
}

/** ADEC3004 at the offending operand, labelled with its type. */
export function reportOperand(checker: ExprChecker, op: string, expected: string, side: 'left' | 'right', found: Type, ast: Expr, help?: string): void {
  checker.sink.report(
    'ADEC3004',
    ast.span,
    { op, expected, side, found: formatType(found) },
    { label: `this is ${formatType(found)}`, ...(help !== undefined && { help }) },
  );
}

/**
 * `if c then a else b`: one type for both branches (int and float join to float). Without
 * `else` it is the SEC implication `IF c THEN b`, i.e. `not c or b`.
 */
function checkConditional(checker: ExprChecker, expr: ConditionalExpr, narrowed: Narrowed): CheckedExpr {
  const condition = checker.check(expr.condition, narrowed);
  checker.expectBool(condition, expr.condition);
  const consequent = checker.check(expr.consequent, union(narrowed, presentWhenTrue(expr.condition)));
  if (expr.alternate === undefined) {
    checker.expectBool(consequent, expr.consequent);
    const notCondition: CheckedExpr = { kind: 'not', operand: condition, type: BOOL, span: expr.condition.span };
    return { kind: 'logical', operator: 'or', left: notCondition, right: consequent, type: BOOL, span: expr.span };
  }
  const alternate = checker.check(expr.alternate, union(narrowed, presentWhenFalse(expr.condition)));
  const type = joinBranches(checker, consequent, alternate, expr.alternate);
  return { kind: 'if', condition, consequent, alternate, type, span: expr.span };
}

/**
 * The type two alternatives share (branches of `if`, sides of `??`). A string literal next
 * to an enum must be one of its members, and the result keeps the enum type.
 */
export function joinBranches(checker: ExprChecker, a: CheckedExpr, b: CheckedExpr, bAst: Expr): Type {
  const enumA = enumOf(a.type);
  const enumB = enumOf(b.type);
  if (enumA !== undefined && b.type.kind === 'string' && checkEnumLiterals(checker.sink, b, enumA)) {
    return a.type.kind === 'optional' ? a.type : optionalIfAbsent(enumA, b.type);
  }
  if (enumB !== undefined && a.type.kind === 'string' && checkEnumLiterals(checker.sink, a, enumB)) {
    return optionalIfAbsent(b.type, a.type);
  }
  const joined = joinTypes(a.type, b.type);
  if (joined !== undefined) return joined;
  checker.sink.report('ADEC3001', bAst.span, { expected: formatType(a.type), found: formatType(b.type) }, { label: `this is ${formatType(b.type)}` });
  return ERROR;
}

function optionalIfAbsent(type: Type, other: Type): Type {
  return other.kind === 'optional' ? optionalOf(type) : type;
}
