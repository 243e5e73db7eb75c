/**
 * A small interpreter over checked expressions, for the static analyses (finite-model.ts).
 * Pure: no I/O, no clock, no global state beyond a cache of compiled patterns.
 *
 * It follows the run-time semantics the language defines (model/expr.ts): `and` / `or`
 * short-circuit, equality is null-safe (absent equals only absent), `??` replaces only an
 * absent value. Where the analysis cannot know what the run time would do (a value it was
 * not given, an ordering or arithmetic on an absent value the checker should have ruled
 * out, a division by zero), the result is `UNKNOWN`; logic is then Kleene's three-valued
 * logic (`false and UNKNOWN` is false), and callers treat `UNKNOWN` as "could be either",
 * which keeps every conclusion drawn from the interpreter sound.
 *
 * This interpreter is the reference semantics. The finite-model enumeration runs the same
 * semantics compiled into closures over variable slots (compile.ts, which reuses the
 * helpers exported here); test/analyze/compile.test.ts checks the two agree.
 */
import { builtin, lengthOfTextOrList, type BuiltinName, type CheckedExpr } from '../model/index.js';

export const UNKNOWN: unique symbol = Symbol('unknown');
export type Unknown = typeof UNKNOWN;

export type Value = boolean | number | string | null | readonly Value[] | { readonly [field: string]: Value } | Unknown;

/** Supplies values for the expressions the caller binds (attributes, opaque conditions). */
export interface Environment {
  /** The value of `expr` if the caller binds it, else `undefined` (evaluate it normally). */
  lookup(expr: CheckedExpr): Value | undefined;
}

export const EMPTY_ENVIRONMENT: Environment = { lookup: () => undefined };

export function evaluate(expr: CheckedExpr, env: Environment = EMPTY_ENVIRONMENT): Value {
  const bound = env.lookup(expr);
  if (bound !== undefined) return bound;
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ref':
      return UNKNOWN;
    case 'field':
      return fieldOf(evaluate(expr.object, env), expr.name);
    case 'call':
      return callBuiltin(expr.name, expr.args.map((arg) => evaluate(arg, env)));
    case 'list': {
      const items = expr.items.map((item) => evaluate(item, env));
      return items.includes(UNKNOWN) ? UNKNOWN : items;
    }
    case 'not':
      return not(evaluate(expr.operand, env));
    case 'negate': {
      const operand = evaluate(expr.operand, env);
      return typeof operand === 'number' ? -operand : UNKNOWN;
    }
    case 'logical':
    case 'compare':
    case 'arithmetic':
      return evaluateChain(expr, env);
    case 'coalesce':
      return evaluateCoalesce(expr, env);
    case 'contains':
      return negateIf(expr.negated, contains(expr.mode, expr.any, evaluate(expr.subject, env), evaluate(expr.needle, env)));
    case 'in':
      return membership(evaluate(expr.element, env), evaluate(expr.list, env));
    case 'matches':
      return negateIf(expr.negated, matches(evaluate(expr.subject, env), expr.source, expr.flags));
    case 'isNull': {
      const operand = evaluate(expr.operand, env);
      return operand === UNKNOWN ? UNKNOWN : negateIf(expr.negated, operand === null);
    }
    case 'length': {
      const length = lengthOf(evaluate(expr.operand, env));
      return length === UNKNOWN ? UNKNOWN : compare(expr.operator, length, evaluate(expr.limit, env));
    }
    case 'if': {
      const condition = evaluate(expr.condition, env);
      if (condition === true) return evaluate(expr.consequent, env);
      if (condition === false) return evaluate(expr.alternate, env);
      const consequent = evaluate(expr.consequent, env);
      const alternate = evaluate(expr.alternate, env);
      return condition === UNKNOWN && isScalar(consequent) && consequent === alternate ? consequent : UNKNOWN;
    }
  }
}

export function fieldOf(object: Value, name: string): Value {
  if (object === null) return null; // `?.` on an absent object
  if (object === UNKNOWN || typeof object !== 'object' || Array.isArray(object)) return UNKNOWN;
  const record = object as { readonly [field: string]: Value };
  return Object.hasOwn(record, name) ? record[name]! : null;
}

export function not(value: Value): Value {
  return typeof value === 'boolean' ? !value : UNKNOWN;
}

export function negateIf(negated: boolean, value: Value): Value {
  return negated ? not(value) : value;
}

/** A link of a left-associative chain: `a or b or …`, `x + 1 + 1 …`, and a comparison on top. */
export type ChainLink = Extract<CheckedExpr, { kind: 'logical' | 'compare' | 'arithmetic' }>;

export function isChainLink(expr: CheckedExpr): expr is ChainLink {
  return expr.kind === 'logical' || expr.kind === 'compare' || expr.kind === 'arithmetic';
}

/**
 * A chain, in a loop from its innermost left operand out (a chain can be 10,000 operands
 * long); a link the environment binds ends it, as it would end recursion.
 */
function evaluateChain(expr: ChainLink, env: Environment): Value {
  const chain: ChainLink[] = [expr];
  for (let node = expr.left; isChainLink(node) && env.lookup(node) === undefined; node = node.left) chain.push(node);
  let value = evaluate(chain[chain.length - 1]!.left, env);
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i]!;
    if (node.kind === 'logical') value = logical(node.operator, value, node.right, env);
    else if (node.kind === 'compare') value = compare(node.operator, value, evaluate(node.right, env));
    else value = arithmetic(node.operator, value, evaluate(node.right, env));
  }
  return value;
}

function logical(operator: 'and' | 'or', left: Value, rightExpr: CheckedExpr, env: Environment): Value {
  const decisive = operator === 'or';
  if (left === decisive) return decisive;
  const right = evaluate(rightExpr, env);
  // Kleene: `UNKNOWN or true` is true whichever value the unknown side has.
  if (right === decisive) return decisive;
  return typeof left === 'boolean' && typeof right === 'boolean' ? !decisive : UNKNOWN;
}

/** `a ?? b ?? …`: the first operand that is not absent, in a loop. */
function evaluateCoalesce(expr: Extract<CheckedExpr, { kind: 'coalesce' }>, env: Environment): Value {
  let node: CheckedExpr = expr;
  while (node.kind === 'coalesce' && (node === expr || env.lookup(node) === undefined)) {
    const left = evaluate(node.left, env);
    if (left !== null) return left;
    node = node.right;
  }
  return evaluate(node, env);
}

export function isScalar(value: Value): value is boolean | number | string | null {
  return value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string';
}

/** Null-safe structural equality; `UNKNOWN` when either side is unknown. */
function equals(left: Value, right: Value): boolean | Unknown {
  if (left === UNKNOWN || right === UNKNOWN) return UNKNOWN;
  if (isScalar(left) || isScalar(right)) return left === right;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    let result: boolean | Unknown = true;
    for (let i = 0; i < left.length; i++) {
      const item = equals(left[i] as Value, right[i] as Value);
      if (item === false) return false;
      if (item === UNKNOWN) result = UNKNOWN;
    }
    return result;
  }
  const leftRecord = left as { readonly [field: string]: Value };
  const rightRecord = right as { readonly [field: string]: Value };
  const keys = new Set([...Object.keys(leftRecord), ...Object.keys(rightRecord)]);
  let result: boolean | Unknown = true;
  for (const key of keys) {
    const item = equals(leftRecord[key] ?? null, rightRecord[key] ?? null);
    if (item === false) return false;
    if (item === UNKNOWN) result = UNKNOWN;
  }
  return result;
}

export function compare(operator: '==' | '!=' | '<' | '<=' | '>' | '>=', left: Value, right: Value): Value {
  if (operator === '==') return equals(left, right);
  if (operator === '!=') return not(equals(left, right));
  const ordered =
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!ordered) return UNKNOWN;
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
  }
}

export function arithmetic(operator: '+' | '-' | '*' | '/' | '%', left: Value, right: Value): Value {
  if (operator === '+' && typeof left === 'string' && typeof right === 'string') return left + right;
  if (typeof left !== 'number' || typeof right !== 'number') return UNKNOWN;
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return right === 0 ? UNKNOWN : left / right;
    case '%':
      return right === 0 ? UNKNOWN : left % right;
  }
}

/**
 * A built-in on the values of its arguments: the registry's `apply` (model/builtins.ts) when
 * every argument is present and of the kind the function accepts, else `UNKNOWN`.
 */
export function callBuiltin(name: BuiltinName, args: readonly Value[]): Value {
  const entry = builtin(name);
  if (args.length !== entry.parameters.length) return UNKNOWN;
  switch (entry.accepts) {
    case 'number':
    case 'duration':
      return args.every((arg): arg is number => typeof arg === 'number') ? entry.apply(...args) : UNKNOWN;
    case 'text':
      return typeof args[0] === 'string' ? entry.apply(args[0]) : UNKNOWN;
    case 'text-or-list':
      return args[0] !== undefined && isTextOrList(args[0]) ? entry.apply(args[0]) : UNKNOWN;
  }
}

/** Characters of a string (code points, as `LENGTH` counts them) or elements of a list. */
export function lengthOf(value: Value): number | Unknown {
  return isTextOrList(value) ? lengthOfTextOrList(value) : UNKNOWN;
}

function isTextOrList(value: Value): value is string | readonly Value[] {
  return typeof value === 'string' || Array.isArray(value);
}

export function contains(mode: 'substring' | 'element', any: boolean, subject: Value, needle: Value): Value {
  const needles = any ? needle : [needle];
  if (!Array.isArray(needles)) return UNKNOWN;
  let result: Value = false;
  for (const item of needles as readonly Value[]) {
    const found = containsOne(mode, subject, item);
    if (found === true) return true;
    if (found === UNKNOWN) result = UNKNOWN;
  }
  return result;
}

function containsOne(mode: 'substring' | 'element', subject: Value, needle: Value): Value {
  if (mode === 'substring') {
    return typeof subject === 'string' && typeof needle === 'string' ? subject.includes(needle) : UNKNOWN;
  }
  return membership(needle, subject);
}

export function membership(element: Value, list: Value): Value {
  if (!Array.isArray(list)) return UNKNOWN;
  let result: Value = false;
  for (const item of list as readonly Value[]) {
    const same = equals(element, item);
    if (same === true) return true;
    if (same === UNKNOWN) result = UNKNOWN;
  }
  return result;
}

const compiledPatterns = new Map<string, RegExp | undefined>();

export function matches(subject: Value, source: string, flags: string): Value {
  if (typeof subject !== 'string') return UNKNOWN;
  const key = `${flags}/${source}`;
  if (!compiledPatterns.has(key)) {
    let compiled: RegExp | undefined;
    try {
      compiled = new RegExp(source, flags.replace(/[gy]/g, ''));
    } catch {
      compiled = undefined;
    }
    compiledPatterns.set(key, compiled);
  }
  const pattern = compiledPatterns.get(key);
  return pattern === undefined ? UNKNOWN : pattern.test(subject);
}
