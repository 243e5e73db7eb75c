/**
 * Supplied-context binding (ARCHITECTURE.md "Composition root", step 1), compiled once per
 * action from the JSON Schema in the signed manifest.
 *
 * A binder validates a request's supplied context and, in the same walk, converts it to the
 * form the module computes with: defaults applied, absent optional values null, timestamps and
 * durations in ms. It reports every problem (not just the first), each with the attribute it
 * belongs to (for `missing_evidence`), its JSON path and a message a client can act on.
 * It handles exactly the schema subset the compiler emits (manifest/json-schema.ts).
 */
import { durationMs, timestampMs } from './wire-values.js';

export interface BindingProblem {
  /** The top-level supplied attribute the problem is in. */
  readonly attribute: string;
  /** JSON path from the context, e.g. `documents[2]`. */
  readonly path: string;
  readonly message: string;
}

export type BindingResult = { readonly ok: true; readonly values: Record<string, unknown> } | { readonly ok: false; readonly problems: readonly BindingProblem[] };

export type ContextBinder = (supplied: unknown) => BindingResult;

interface Schema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly items?: Schema;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly anyOf?: readonly Schema[];
  readonly default?: unknown;
}

/** Converts a valid value or pushes problems (and returns undefined). */
type Converter = (value: unknown, path: string, problems: string[][]) => unknown;

/**
 * Compiles an action's context schema. `system` names the system-generated attributes: a
 * request that supplies one is refused (they are captured at entry, never taken from a body).
 */
export function compileContextBinder(schema: unknown, system: readonly string[]): ContextBinder {
  const root = schema as Schema;
  const properties = Object.entries(root.properties ?? {});
  const converters = properties.map(([name, property]) => {
    const convert = converter(property);
    // A default is converted once and shared by every request that omits it, so it is frozen.
    const fallback = property.default === undefined ? undefined : deepFreeze(convert(property.default, name, []));
    return [name, convert, fallback] as const;
  });
  const required = new Set(root.required ?? []);
  const known = new Set(properties.map(([name]) => name));
  const systemNames = new Set(system);

  return (supplied) => {
    if (supplied === null || typeof supplied !== 'object' || Array.isArray(supplied)) {
      return { ok: false, problems: [{ attribute: '', path: '', message: `the context must be an object, found ${kindOf(supplied)}` }] };
    }
    const input = supplied as Record<string, unknown>;
    const problems: BindingProblem[] = [];
    const values: Record<string, unknown> = {};
    for (const [name, convert, fallback] of converters) {
      const value = Object.hasOwn(input, name) ? input[name] : undefined;
      if (value === undefined) {
        if (fallback !== undefined) values[name] = fallback;
        else if (required.has(name)) problems.push({ attribute: name, path: name, message: `\`${name}\` is required` });
        else values[name] = null;
        continue;
      }
      const found: string[][] = [];
      const converted = convert(value, name, found);
      for (const [path, message] of found) problems.push({ attribute: name, path: path!, message: message! });
      if (found.length === 0) values[name] = converted;
    }
    for (const name of Object.keys(input)) {
      if (known.has(name)) continue;
      problems.push({
        attribute: name,
        path: name,
        message: systemNames.has(name)
          ? `\`${name}\` is system-generated: it is captured when the request arrives and cannot be supplied`
          : `\`${name}\` is not an attribute of this action's context`,
      });
    }
    return problems.length === 0 ? { ok: true, values } : { ok: false, problems: problems.sort(byPath) };
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function byPath(a: BindingProblem, b: BindingProblem): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function converter(schema: Schema): Converter {
  if (schema.anyOf !== undefined) {
    const inner = converter(schema.anyOf.find((s) => s.type !== 'null') ?? {});
    return (value, path, problems) => (value === null ? null : inner(value, path, problems));
  }
  const type = schema.type;
  if (Array.isArray(type)) return durationConverter();
  switch (type) {
    case 'boolean':
      return (value, path, problems) => (typeof value === 'boolean' ? value : fail(problems, path, `expected true or false, found ${kindOf(value)}`));
    case 'integer':
    case 'number':
      return numberConverter(schema, type);
    case 'string':
      return schema.enum !== undefined ? enumConverter(schema.enum as readonly string[]) : schema.format === 'date-time' ? timestampConverter() : stringConverter(schema);
    case 'array': {
      const item = converter(schema.items ?? {});
      return (value, path, problems) => {
        if (!Array.isArray(value)) return fail(problems, path, `expected a list, found ${kindOf(value)}`);
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

function numberConverter(schema: Schema, type: 'integer' | 'number'): Converter {
  const expected = type === 'integer' ? 'a whole number' : 'a number';
  return (value, path, problems) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || (type === 'integer' && !Number.isSafeInteger(value))) {
      return fail(problems, path, `expected ${expected}, found ${kindOf(value)}`);
    }
    if (schema.minimum !== undefined && value < schema.minimum) return fail(problems, path, `${value} is below the minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) return fail(problems, path, `${value} is above the maximum ${schema.maximum}`);
    return value;
  };
}

function stringConverter(schema: Schema): Converter {
  return (value, path, problems) => {
    if (typeof value !== 'string') return fail(problems, path, `expected a string, found ${kindOf(value)}`);
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return fail(problems, path, `has ${length} characters, fewer than the minimum ${schema.minLength}`);
    if (schema.maxLength !== undefined && length > schema.maxLength) return fail(problems, path, `has ${length} characters, more than the maximum ${schema.maxLength}`);
    return value;
  };
}

function enumConverter(members: readonly string[]): Converter {
  const allowed = new Set(members);
  const list = members.map((m) => JSON.stringify(m)).join(', ');
  return (value, path, problems) =>
    typeof value === 'string' && allowed.has(value) ? value : fail(problems, path, `expected one of ${list}, found ${describeValue(value)}`);
}

function timestampConverter(): Converter {
  return (value, path, problems) => {
    const ms = typeof value === 'string' ? timestampMs(value) : undefined;
    return ms ?? fail(problems, path, `expected an RFC 3339 timestamp such as "2026-03-01T09:00:00Z", found ${describeValue(value)}`);
  };
}

function durationConverter(): Converter {
  return (value, path, problems) =>
    durationMs(value) ?? fail(problems, path, `expected a duration such as "30d", "18h", "500ms" or a whole number of ms, found ${describeValue(value)}`);
}

function recordConverter(schema: Schema): Converter {
  const fields = Object.entries(schema.properties ?? {}).map(([name, field]) => [name, converter(field)] as const);
  const required = new Set(schema.required ?? []);
  const known = new Set(fields.map(([name]) => name));
  return (value, path, problems) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(problems, path, `expected an object, found ${kindOf(value)}`);
    const input = value as Record<string, unknown>;
    const before = problems.length;
    const out: Record<string, unknown> = {};
    for (const [name, convert] of fields) {
      const field = Object.hasOwn(input, name) ? input[name] : undefined;
      if (field === undefined) {
        if (required.has(name)) problems.push([`${path}.${name}`, `\`${name}\` is required`]);
        else out[name] = null;
      } else {
        out[name] = convert(field, `${path}.${name}`, problems);
      }
    }
    for (const name of Object.keys(input)) if (!known.has(name)) problems.push([`${path}.${name}`, `\`${name}\` is not a field of this record`]);
    return problems.length === before ? out : undefined;
  };
}

function fail(problems: string[][], path: string, message: string): undefined {
  problems.push([path, message]);
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : kindOf(value);
}
