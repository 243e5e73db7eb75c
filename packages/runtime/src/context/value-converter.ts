/**
 * Validation and conversion of one wire value against the JSON Schema the compiler emits for a
 * world type (packages/compiler/src/manifest/json-schema.ts): in one walk, every problem with
 * its JSON path, and the value in the form the module computes with (absent optional record
 * fields null, timestamps and durations in ms). Request contexts (context-binder.ts) and
 * selection signals (@adec/engine) both go through it, so a value is accepted, converted and
 * explained the same way wherever it arrives.
 */
import { describeValue, type ValueSchema } from '@adec/abi';
import { codePointLengthUpTo } from './request-limits.js';
import { durationMs, timestampMs } from './wire-values.js';

export interface ValueProblem {
  /** JSON path of the value, e.g. `documents[2]` or `signals.profile.level`. */
  readonly path: string;
  readonly message: string;
}

/** The converted value, or undefined after pushing at least one problem. */
export type ValueConverter = (value: unknown, path: string, problems: ValueProblem[]) => unknown;

// The schema (the subset the compiler emits) and how a wrong value reads are @adec/abi's.
export { describeValue, type ValueSchema };

export function compileValueConverter(schema: ValueSchema): ValueConverter {
  if (schema.anyOf !== undefined) {
    const inner = compileValueConverter(schema.anyOf.find((s) => s.type !== 'null') ?? {});
    return (value, path, problems) => (value === null ? null : inner(value, path, problems));
  }
  const type = schema.type;
  if (Array.isArray(type)) return durationConverter();
  switch (type) {
    case 'boolean':
      return (value, path, problems) => {
        if (typeof value === 'boolean') return value;
        fail(problems, path, `expected true or false, found ${describeValue(value)}`);
        return undefined;
      };
    case 'integer':
    case 'number':
      return numberConverter(schema, type);
    case 'string':
      return schema.enum !== undefined ? enumConverter(schema.enum as readonly string[]) : schema.format === 'date-time' ? timestampConverter() : stringConverter(schema);
    case 'array': {
      const item = compileValueConverter(schema.items ?? {});
      return (value, path, problems) => {
        if (!Array.isArray(value)) {
          fail(problems, path, `expected a list, found ${describeValue(value)}`);
          return undefined;
        }
        const before = problems.length;
        const out = value.map((element, i) => item(element, `${path}[${i}]`, problems));
        return problems.length === before ? out : undefined;
      };
    }
    case 'object':
      return recordConverter(schema);
    default:
      return (value) => value;
  }
}

function numberConverter(schema: ValueSchema, type: 'integer' | 'number'): ValueConverter {
  const expected = type === 'integer' ? 'a whole number' : 'a number';
  return (value, path, problems) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || (type === 'integer' && !Number.isSafeInteger(value))) {
      fail(problems, path, `expected ${expected}, found ${describeValue(value)}`);
      return undefined;
    }
    if (schema.minimum !== undefined && value < schema.minimum) {
      fail(problems, path, `${value} is below the minimum ${schema.minimum}`);
      return undefined;
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      fail(problems, path, `${value} is above the maximum ${schema.maximum}`);
      return undefined;
    }
    // -0 is 0: one number, one decision and one trace, however a caller wrote it.
    return value === 0 ? 0 : value;
  };
}

function stringConverter(schema: ValueSchema): ValueConverter {
  return (value, path, problems) => {
    if (typeof value !== 'string') {
      fail(problems, path, `expected a string, found ${describeValue(value)}`);
      return undefined;
    }
    if (schema.minLength === undefined && schema.maxLength === undefined) return value;
    // Counted only as far as the bounds need, without copying the string (a 100 MB string
    // spread into an array of characters once aborted the host).
    const length = codePointLengthUpTo(value, Math.max(schema.minLength ?? 0, schema.maxLength ?? 0));
    if (schema.minLength !== undefined && length < schema.minLength) {
      fail(problems, path, `has ${length} characters, fewer than the minimum ${schema.minLength}`);
      return undefined;
    }
    if (schema.maxLength !== undefined && length > schema.maxLength) {
      fail(problems, path, `has more than the maximum ${schema.maxLength} characters`);
      return undefined;
    }
    return value;
  };
}

function enumConverter(members: readonly string[]): ValueConverter {
  const allowed = new Set(members);
  const list = members.map((m) => JSON.stringify(m)).join(', ');
  return (value, path, problems) => {
    if (typeof value === 'string' && allowed.has(value)) return value;
    fail(problems, path, `expected one of ${list}, found ${describeValue(value)}`);
    return undefined;
  };
}

function timestampConverter(): ValueConverter {
  return (value, path, problems) => {
    const ms = typeof value === 'string' ? timestampMs(value) : undefined;
    if (ms !== undefined) return ms;
    fail(problems, path, `expected an RFC 3339 timestamp such as "2026-03-01T09:00:00Z", found ${describeValue(value)}`);
    return undefined;
  };
}

function durationConverter(): ValueConverter {
  return (value, path, problems) => {
    const ms = durationMs(value);
    if (ms !== undefined) return ms;
    fail(problems, path, `expected a duration such as "30d", "18h", "500ms" or a whole number of ms, found ${describeValue(value)}`);
    return undefined;
  };
}

function recordConverter(schema: ValueSchema): ValueConverter {
  const fields = Object.entries(schema.properties ?? {}).map(([name, field]) => [name, compileValueConverter(field)] as const);
  const required = new Set(schema.required ?? []);
  const known = new Set(fields.map(([name]) => name));
  return (value, path, problems) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      fail(problems, path, `expected an object, found ${describeValue(value)}`);
      return undefined;
    }
    const input = value as Record<string, unknown>;
    const before = problems.length;
    // No prototype: a field named `__proto__` is a field, not the object's prototype.
    const out = Object.create(null) as Record<string, unknown>;
    for (const [name, convert] of fields) {
      const field = Object.hasOwn(input, name) ? input[name] : undefined;
      if (field === undefined) {
        if (required.has(name)) problems.push({ path: `${path}.${name}`, message: `\`${name}\` is required` });
        else out[name] = null;
      } else {
        out[name] = convert(field, `${path}.${name}`, problems);
      }
    }
    for (const name of Object.keys(input)) if (!known.has(name)) problems.push({ path: `${path}.${name}`, message: `\`${name}\` is not a field of this record` });
    return problems.length === before ? out : undefined;
  };
}

function fail(problems: ValueProblem[], path: string, message: string): void {
  problems.push({ path, message });
}
