/**
 * Validates one wire value against a signal's type and converts it to the form the module
 * computes with (timestamps and durations in ms, absent optional record fields null). Every
 * problem is reported with its path; the messages match the runtime's context binder.
 */
import type { RequestProblem } from './selection-error.js';
import type { NumericRange, ValueType } from './value-type.js';
import { durationMs, timestampMs } from '@adec/runtime';

/** The converted value, or undefined after pushing at least one problem. */
export function convertValue(value: unknown, type: ValueType, path: string, problems: RequestProblem[]): unknown {
  const fail = (message: string): undefined => {
    problems.push({ path, message });
    return undefined;
  };
  switch (type.kind) {
    case 'optional':
      return value === null ? null : convertValue(value, type.inner, path, problems);
    case 'bool':
      return typeof value === 'boolean' ? value : fail(`expected true or false, found ${describe(value)}`);
    case 'int':
    case 'float':
      return convertNumber(value, type.kind, type.range, fail);
    case 'string':
      return convertString(value, type.length, fail);
    case 'enum':
      return typeof value === 'string' && type.members.includes(value)
        ? value
        : fail(`expected one of ${type.members.map((m) => JSON.stringify(m)).join(', ')}, found ${describe(value)}`);
    case 'timestamp':
      return (typeof value === 'string' ? timestampMs(value) : undefined) ?? fail(`expected an RFC 3339 timestamp such as "2026-03-01T09:00:00Z", found ${describe(value)}`);
    case 'duration':
      return durationMs(value) ?? fail(`expected a duration such as "30d", "18h", "500ms" or a whole number of ms, found ${describe(value)}`);
    case 'list':
      return convertList(value, type.element, path, problems, fail);
    case 'record':
      return convertRecord(value, type.fields, path, problems, fail);
  }
}

type Fail = (message: string) => undefined;

function convertNumber(value: unknown, kind: 'int' | 'float', range: NumericRange | undefined, fail: Fail): unknown {
  const whole = kind === 'int';
  if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) {
    return fail(`expected ${whole ? 'a whole number' : 'a number'}, found ${describe(value)}`);
  }
  if (range?.min !== undefined && value < range.min) return fail(`${value} is below the minimum ${range.min}`);
  if (range?.max !== undefined && value > range.max) return fail(`${value} is above the maximum ${range.max}`);
  return value;
}

function convertString(value: unknown, length: NumericRange | undefined, fail: Fail): unknown {
  if (typeof value !== 'string') return fail(`expected a string, found ${describe(value)}`);
  const characters = [...value].length;
  if (length?.min !== undefined && characters < length.min) return fail(`has ${characters} characters, fewer than the minimum ${length.min}`);
  if (length?.max !== undefined && characters > length.max) return fail(`has ${characters} characters, more than the maximum ${length.max}`);
  return value;
}

function convertList(value: unknown, element: ValueType, path: string, problems: RequestProblem[], fail: Fail): unknown {
  if (!Array.isArray(value)) return fail(`expected a list, found ${describe(value)}`);
  const before = problems.length;
  const items = value.map((item: unknown, i) => convertValue(item, element, `${path}[${i}]`, problems));
  return problems.length === before ? items : undefined;
}

function convertRecord(value: unknown, fields: Extract<ValueType, { kind: 'record' }>['fields'], path: string, problems: RequestProblem[], fail: Fail): unknown {
  if (!isPlainObject(value)) return fail(`expected an object, found ${describe(value)}`);
  const before = problems.length;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const given = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
    if (given !== undefined) out[field.name] = convertValue(given, field.type, `${path}.${field.name}`, problems);
    else if (field.type.kind === 'optional') out[field.name] = null;
    else problems.push({ path: `${path}.${field.name}`, message: `\`${field.name}\` is required` });
  }
  for (const name of Object.keys(value)) {
    if (!fields.some((f) => f.name === name)) problems.push({ path: `${path}.${name}`, message: `\`${name}\` is not a field of this record` });
  }
  return problems.length === before ? out : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** How a wrong value reads in "expected …, found …". */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
