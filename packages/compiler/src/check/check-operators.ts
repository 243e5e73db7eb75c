/**
 * Binary operators: logic, comparison, membership, `??`, arithmetic and the SEC string
 * operators (CONTAINS, CONTAINS_ANY, MATCHES and their NOT forms), each with the operand
 * types LANGUAGE.md "Types" allows.
 */
import type { BinaryExpr, Expr, StringLiteral } from '@adec/grammar';
import { editDistance, type Span } from '@adec/diagnostics';
import { formatType, type CheckedExpr, type Type } from '../model/index.js';
import { translatePattern } from '../analyze/index.js';
import type { ExprChecker } from './check-expr.js';
import { joinBranches, reportOperand, warnIfNeverAbsent } from './check-expr.js';
import { checkDivisor } from './divisors.js';
import { checkEnumListLiterals, checkEnumLiterals, enumOf } from './enum-literals.js';
import { presentWhenFalse, presentWhenTrue, union, type Narrowed } from './narrowing.js';
import { numberForDurationHelp } from './number-for-duration.js';
import { BOOL, DURATION, ERROR, FLOAT, INT, STRING, TIMESTAMP, isError, isNumeric, isText, unwrapOptional } from './type-relations.js';

/**
 * A binary expression. Chains are checked in a loop, not by recursion (a chain can be 10,000
 * operands long): the left operands of a left-associative chain (`a or b or …`,
 * `x + 1 + 1 …`) from the innermost out, the operands of `a ?? b ?? …` from the left.
 */
export function checkBinary(checker: ExprChecker, expr: BinaryExpr, narrowed: Narrowed): CheckedExpr {
  if (expr.operator === '??') return checkCoalesceChain(checker, expr, narrowed);
  const chain: BinaryExpr[] = [expr];
  for (let node = expr.left; node.kind === 'BinaryExpr' && node.operator !== '??'; node = node.left) chain.push(node);
  let left = checker.check(chain[chain.length - 1]!.left, narrowed);
  for (let i = chain.length - 1; i >= 0; i--) left = checkOperator(checker, chain[i]!, left, narrowed);
  return left;
}

/** One operator of a left-associative chain, its left operand already checked. */
function checkOperator(checker: ExprChecker, expr: BinaryExpr, left: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  switch (expr.operator) {
    case 'and':
    case 'or':
      return checkLogical(checker, expr, expr.operator, left, narrowed);
    case '==':
    case '!=':
    case 'EQUALS':
      return checkEquality(checker, expr, left, narrowed);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return checkOrdering(checker, expr, expr.operator, left, narrowed);
    case 'in':
      return checkIn(checker, expr, left, narrowed);
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return checkArithmetic(checker, expr, expr.operator, left, narrowed);
    case 'CONTAINS':
    case 'NOT CONTAINS':
      return checkContains(checker, expr, false, left, narrowed);
    case 'CONTAINS_ANY':
    case 'NOT CONTAINS_ANY':
      return checkContains(checker, expr, true, left, narrowed);
    case 'MATCHES':
    case 'NOT MATCHES':
      return checkMatches(checker, expr, left, narrowed);
    case '??':
      // Not reached from checkBinary (a `??` chain is checkCoalesceChain's): for completeness.
      return checkCoalesce(checker, expr, left, checker.check(expr.right, narrowed));
  }
}

/** `a and b` checks `b` knowing `a` holds; `a or b` checks `b` knowing `a` does not. */
function checkLogical(checker: ExprChecker, expr: BinaryExpr, operator: 'and' | 'or', left: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const proven = operator === 'and' ? presentWhenTrue(expr.left) : presentWhenFalse(expr.left);
  const right = checker.check(expr.right, union(narrowed, proven));
  checker.expectBool(left, expr.left);
  checker.expectBool(right, expr.right);
  return { kind: 'logical', operator, left, right, type: BOOL, span: expr.span };
}

/**
 * `==`, `!=`, `EQUALS`: operands of one kind (int and float mix; enums and strings mix).
 * Equality is null-safe, so optional operands are allowed here without a guard.
 */
function checkEquality(checker: ExprChecker, expr: BinaryExpr, left: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const right = checker.check(expr.right, narrowed);
  const operator = expr.operator === '!=' ? '!=' : '==';
  const node: CheckedExpr = { kind: 'compare', operator, left, right, type: BOOL, span: expr.span };
  if (isError(left.type) || isError(right.type)) return node;
  if (left.type.kind === 'null' || right.type.kind === 'null') {
    const [value, valueAst] = left.type.kind === 'null' ? [right, expr.right] : [left, expr.left];
    warnIfNeverAbsent(checker, value, valueAst, `${operator} null`);
    return node;
  }
  const leftEnum = enumOf(left.type);
  const rightEnum = enumOf(right.type);
  if (leftEnum !== undefined) checkEnumLiterals(checker.sink, right, leftEnum);
  if (rightEnum !== undefined) checkEnumLiterals(checker.sink, left, rightEnum);
  if (!areEqualityComparable(unwrapOptional(left.type), unwrapOptional(right.type))) {
    checker.sink.report('ADEC3005', expr.span, { left: formatType(left.type), right: formatType(right.type) }, numberForDurationHelp(left.type, expr.left, right.type, expr.right));
  }
  return node;
}

function areEqualityComparable(a: Type, b: Type): boolean {
  if (isNumeric(a) && isNumeric(b)) return true;
  if (isText(a) && isText(b)) return true;
  // Lists compare element-wise; `[]` (list<null>) compares with any list.
  if (a.kind === 'list' && b.kind === 'list') {
    return a.element.kind === 'null' || b.element.kind === 'null' || areEqualityComparable(a.element, b.element);
  }
  return a.kind === b.kind && (a.kind === 'bool' || a.kind === 'timestamp' || a.kind === 'duration');
}

/** `< <= > >=` order numbers, timestamps, durations and strings; absent values have no order. */
function checkOrdering(checker: ExprChecker, expr: BinaryExpr, operator: '<' | '<=' | '>' | '>=', left: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const right = checker.check(expr.right, narrowed);
  const leftType = checker.presentType(left, expr.left);
  const rightType = checker.presentType(right, expr.right);
  const node: CheckedExpr = { kind: 'compare', operator, left, right, type: BOOL, span: expr.span };
  if (isError(leftType) || isError(rightType)) return node;
  const orderable =
    (isNumeric(leftType) && isNumeric(rightType)) ||
    (leftType.kind === 'string' && rightType.kind === 'string') ||
    (leftType.kind === rightType.kind && (leftType.kind === 'timestamp' || leftType.kind === 'duration'));
  if (!orderable) checker.sink.report('ADEC3005', expr.span, { left: formatType(leftType), right: formatType(rightType) }, numberForDurationHelp(leftType, expr.left, rightType, expr.right));
  return node;
}

/** `x in list`: `x` is a T and the list a list<T>. */
function checkIn(checker: ExprChecker, expr: BinaryExpr, element: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const list = checker.check(expr.right, narrowed);
  const elementType = checker.presentType(element, expr.left);
  const listType = checker.presentType(list, expr.right);
  const node: CheckedExpr = { kind: 'in', element, list, type: BOOL, span: expr.span };
  if (isError(elementType) || isError(listType)) return node;
  const expected = `list<${formatType(elementType)}>`;
  if (listType.kind !== 'list') {
    reportOperand(checker, 'in', expected, 'right', listType, expr.right);
    return node;
  }
  const itemType = listType.element;
  if (elementType.kind === 'enum') checkEnumListLiterals(checker.sink, list, elementType);
  if (itemType.kind === 'enum') checkEnumLiterals(checker.sink, element, itemType);
  if (itemType.kind !== 'null' && !isError(itemType) && !areEqualityComparable(elementType, itemType)) {
    reportOperand(checker, 'in', expected, 'right', listType, expr.right);
  }
  return node;
}

/**
 * `a ?? b ?? …` (right-associative): the operands from the left, then each `??` from the
 * innermost (rightmost) out.
 */
function checkCoalesceChain(checker: ExprChecker, expr: BinaryExpr, narrowed: Narrowed): CheckedExpr {
  const chain: BinaryExpr[] = [];
  let node: Expr = expr;
  for (; node.kind === 'BinaryExpr' && node.operator === '??'; node = node.right) chain.push(node);
  const lefts = chain.map((link) => checker.check(link.left, narrowed));
  let right = checker.check(node, narrowed);
  for (let i = chain.length - 1; i >= 0; i--) right = checkCoalesce(checker, chain[i]!, lefts[i]!, right);
  return right;
}

/** `a ?? b`: `a` may be absent, `b` is a value of `a`'s type. */
function checkCoalesce(checker: ExprChecker, expr: BinaryExpr, left: CheckedExpr, right: CheckedExpr): CheckedExpr {
  warnIfNeverAbsent(checker, left, expr.left, '??');
  const present = { ...left, type: unwrapOptional(left.type) } as CheckedExpr;
  const type = isError(left.type) || isError(right.type) ? ERROR : joinBranches(checker, present, right, expr.right);
  return { kind: 'coalesce', left, right, type, span: expr.span };
}

/**
 * Arithmetic on numbers (int op int is int, except `/` which is float), on timestamps and
 * durations (`timestamp - timestamp` is a duration, `timestamp ± duration` a timestamp) and
 * string concatenation with `+`. A divisor must be proven never 0 (divisors.ts).
 */
function checkArithmetic(checker: ExprChecker, expr: BinaryExpr, operator: '+' | '-' | '*' | '/' | '%', left: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const right = checker.check(expr.right, narrowed);
  const leftType = checker.presentType(left, expr.left);
  const rightType = checker.presentType(right, expr.right);
  let type: Type | undefined;
  if (isError(leftType) || isError(rightType)) type = ERROR;
  else type = arithmeticResult(operator, leftType, rightType);
  if (type === undefined) {
    checker.sink.report('ADEC3003', expr.operatorSpan, { op: operator, left: formatType(leftType), right: formatType(rightType) }, operator === '+' || operator === '-' ? numberForDurationHelp(leftType, expr.left, rightType, expr.right) : {});
    type = ERROR;
  }
  if ((operator === '/' || operator === '%') && !isError(type)) checkDivisor(checker, expr.right, right, narrowed);
  return { kind: 'arithmetic', operator, left, right, type, span: expr.span };
}

function arithmeticResult(operator: '+' | '-' | '*' | '/' | '%', left: Type, right: Type): Type | undefined {
  if (isNumeric(left) && isNumeric(right)) {
    if (operator === '/') return FLOAT;
    return left.kind === 'int' && right.kind === 'int' ? INT : FLOAT;
  }
  if (operator === '+' && isText(left) && isText(right)) return STRING;
  if (operator !== '+' && operator !== '-') return undefined;
  const kinds = `${left.kind} ${operator} ${right.kind}`;
  switch (kinds) {
    case 'timestamp - timestamp':
    case 'duration + duration':
    case 'duration - duration':
      return DURATION;
    case 'timestamp + duration':
    case 'timestamp - duration':
    case 'duration + timestamp':
      return TIMESTAMP;
    default:
      return undefined;
  }
}

/**
 * SEC `CONTAINS`: a substring of a string, or an element of a list. `CONTAINS_ANY`: any of
 * a list of substrings, or any element of another list.
 */
function checkContains(checker: ExprChecker, expr: BinaryExpr, any: boolean, subject: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const needle = checker.check(expr.right, narrowed);
  const subjectType = checker.presentType(subject, expr.left);
  const needleType = checker.presentType(needle, expr.right);
  const negated = expr.operator.startsWith('NOT ');
  const op = expr.operator;
  const node = (mode: 'substring' | 'element'): CheckedExpr => ({ kind: 'contains', mode, any, negated, subject, needle, type: BOOL, span: expr.span });
  if (isError(subjectType)) return node('substring');
  if (isText(subjectType)) {
    const fits = (t: Type) => (any ? t.kind === 'list' && (isText(t.element) || t.element.kind === 'null') : isText(t));
    if (!isError(needleType) && !fits(needleType)) {
      const help = siblingFieldHelp(needle, any ? (t) => fits(t) || isText(t) : fits);
      reportOperand(checker, op, any ? 'list<string>' : 'string', 'right', needleType, expr.right, help);
    }
    return node('substring');
  }
  if (subjectType.kind === 'list') {
    const elementType = subjectType.element;
    const needleElement = any ? (needleType.kind === 'list' ? needleType.element : undefined) : needleType;
    const expected = any ? formatType(subjectType) : formatType(elementType);
    if (isError(needleType) || elementType.kind === 'null') return node('element');
    if (needleElement === undefined || (needleElement.kind !== 'null' && !isError(needleElement) && !areEqualityComparable(elementType, needleElement))) {
      reportOperand(checker, op, expected, 'right', needleType, expr.right);
    } else if (elementType.kind === 'enum') {
      if (any) checkEnumListLiterals(checker.sink, needle, elementType);
      else checkEnumLiterals(checker.sink, needle, elementType);
    }
    return node('element');
  }
  reportOperand(checker, op, 'a string or list', 'left', subjectType, expr.left);
  return node('substring');
}

/** `subject MATCHES "pattern"`: the pattern is a literal, compiled and validated at build time. */
function checkMatches(checker: ExprChecker, expr: BinaryExpr, subject: CheckedExpr, narrowed: Narrowed): CheckedExpr {
  const subjectType = checker.presentType(subject, expr.left);
  const negated = expr.operator === 'NOT MATCHES';
  if (!isError(subjectType) && !isText(subjectType)) reportOperand(checker, expr.operator, 'string', 'left', subjectType, expr.left);
  if (expr.right.kind !== 'StringLiteral') {
    const pattern = checker.check(expr.right, narrowed);
    if (!isError(pattern.type)) reportOperand(checker, expr.operator, 'a string literal pattern', 'right', pattern.type, expr.right);
    return { kind: 'matches', negated, subject, source: '', flags: '', type: BOOL, span: expr.span };
  }
  const compiled = compilePattern(checker, expr.right);
  return { kind: 'matches', negated, subject, source: compiled?.source ?? '', flags: compiled?.flags ?? '', type: BOOL, span: expr.span };
}

/**
 * Translates an SEC pattern (`(?i)…`) to a JavaScript one, reporting ADEC3008 if it does not
 * compile, at the offending characters when the translation knows them.
 */
export function compilePattern(checker: Pick<ExprChecker, 'sink'>, pattern: Extract<Expr, { kind: 'StringLiteral' }>): { source: string; flags: string } | undefined {
  const translated = translatePattern(pattern.value);
  if ('problem' in translated) {
    checker.sink.report('ADEC3008', translated.at === undefined ? pattern.span : spanInString(pattern, translated.at), { problem: translated.problem });
    return undefined;
  }
  return translated;
}

/**
 * The span of `value[index, index + length)` in the source of the string literal. A string
 * holds its text on one line, shifted by the opening quote; where an escaped quote (`\"`) makes
 * the text longer than the value, the whole literal is the span.
 */
function spanInString(literal: StringLiteral, at: { readonly index: number; readonly length: number }): Span {
  const span = literal.span;
  if (span.endOffset - span.offset !== literal.value.length + 2 || span.line !== span.endLine) return span;
  const start = 1 + at.index;
  return { ...span, offset: span.offset + start, endOffset: span.offset + start + at.length, column: span.column + start, endColumn: span.column + start + at.length };
}

/**
 * For a mistyped `record.field` operand: the sibling field of a fitting type closest in
 * spelling (LANGUAGE.md's `action_metadata.duration_minutes` → `action_metadata.session_type`).
 */
function siblingFieldHelp(operand: CheckedExpr, fits: (type: Type) => boolean): string | undefined {
  if (operand.kind !== 'field') return undefined;
  const record = unwrapOptional(operand.object.type);
  if (record.kind !== 'record') return undefined;
  const candidates = record.fields.filter((f) => f.name !== operand.name && fits(unwrapOptional(f.type)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(operand.name, candidate.name);
    if (distance < bestDistance) [best, bestDistance] = [candidate.name, distance];
  }
  const objectPath = describeObject(operand.object);
  return best === undefined || objectPath === undefined ? undefined : `did you mean \`${objectPath}.${best}\`?`;
}

function describeObject(expr: CheckedExpr): string | undefined {
  if (expr.kind === 'ref') return expr.name;
  if (expr.kind === 'field') {
    const object = describeObject(expr.object);
    return object === undefined ? undefined : `${object}.${expr.name}`;
  }
  return undefined;
}


