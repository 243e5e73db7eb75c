/**
 * The building blocks of the ABI's validators. A check is a type guard that records every
 * problem it finds (with its JSON path) and answers whether it found none, so a validator
 * is written as the shape it checks, field by field.
 */
import { AbiProblems, childPath, describeValue, pathText, type AbiResult } from './abi-problem.js';

export type Check<T> = (value: unknown, path: string, problems: AbiProblems) => value is T;

export type JsonObject = { readonly [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Records that the value at `path` is not of the `expected` kind. */
export function wrongType(value: unknown, path: string, expected: string, problems: AbiProblems): false {
  return problems.add('WRONG_TYPE', path, `${pathText(path)} is ${describeValue(value)}, expected ${expected}`);
}

export function notAllowed(value: unknown, path: string, expected: string, problems: AbiProblems): false {
  return problems.add('VALUE_NOT_ALLOWED', path, `${pathText(path)} is ${describeValue(value)}, expected ${expected}`);
}

export const checkObject: Check<JsonObject> = (value, path, problems): value is JsonObject =>
  isJsonObject(value) || wrongType(value, path, 'an object', problems);

export const checkString: Check<string> = (value, path, problems): value is string => typeof value === 'string' || wrongType(value, path, 'a string', problems);

export const checkBoolean: Check<boolean> = (value, path, problems): value is boolean =>
  typeof value === 'boolean' || wrongType(value, path, 'true or false', problems);

export const checkNumber: Check<number> = (value, path, problems): value is number =>
  (typeof value === 'number' && Number.isFinite(value)) || wrongType(value, path, 'a number', problems);

/** An integer of at least `least`: a count (0), a line number (1). */
export function checkInteger(least: number): Check<number> {
  return (value, path, problems): value is number => {
    if (typeof value !== 'number') return wrongType(value, path, `an integer of at least ${least}`, problems);
    return (Number.isInteger(value) && value >= least) || notAllowed(value, path, `an integer of at least ${least}`, problems);
  };
}

/** One of `values` exactly. */
export function oneOf<const T extends string | number>(values: readonly T[]): Check<T> {
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return (value, path, problems): value is T => (values as readonly unknown[]).includes(value) || notAllowed(value, path, expected, problems);
}

/** A string matching `pattern`, described as `expected` when it does not. */
export function matching(pattern: RegExp, expected: string): Check<string> {
  return (value, path, problems): value is string => checkString(value, path, problems) && (pattern.test(value) || notAllowed(value, path, expected, problems));
}

export function listOf<T>(check: Check<T>): Check<readonly T[]> {
  return (value, path, problems): value is readonly T[] => {
    if (!Array.isArray(value)) return wrongType(value, path, 'a list', problems);
    const before = problems.count;
    value.forEach((item: unknown, index) => check(item, childPath(path, index), problems));
    return problems.count === before;
  };
}

/** An object whose every own value passes `check` (a table keyed by names). */
export function mapOf<T>(check: Check<T>): Check<{ readonly [key: string]: T }> {
  return (value, path, problems): value is { readonly [key: string]: T } => {
    if (!checkObject(value, path, problems)) return false;
    const before = problems.count;
    for (const [key, item] of Object.entries(value)) check(item, childPath(path, key), problems);
    return problems.count === before;
  };
}

export const checkStrings: Check<readonly string[]> = listOf(checkString);

/** Checks the field `key` of `object`, which must be present. */
export function required<T>(object: JsonObject, key: string, path: string, problems: AbiProblems, check: Check<T>): boolean {
  const at = childPath(path, key);
  if (!Object.hasOwn(object, key)) return problems.add('FIELD_MISSING', at, `${pathText(at)} is missing`);
  return check(object[key], at, problems);
}

/** Checks the field `key` of `object` when it is present. */
export function optional<T>(object: JsonObject, key: string, path: string, problems: AbiProblems, check: Check<T>): boolean {
  return !Object.hasOwn(object, key) || check(object[key], childPath(path, key), problems);
}

/** An object whose fields `checkFields` checks with `required` and `optional`. */
export function shape<T>(checkFields: (object: JsonObject, path: string, problems: AbiProblems) => void): Check<T> {
  return (value, path, problems): value is T => {
    if (!checkObject(value, path, problems)) return false;
    const before = problems.count;
    checkFields(value, path, problems);
    return problems.count === before;
  };
}

/** Runs `check` on `value` as a whole: the value, typed, or every problem found. */
export function validate<T>(check: Check<T>, value: unknown): AbiResult<T> {
  const problems = new AbiProblems();
  return check(value, '', problems) ? { ok: true, value } : { ok: false, problems: problems.list };
}

/** `null`, or a value `check` accepts. */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path, problems): value is T | null => value === null || check(value, path, problems);
}
