/**
 * Supplied-context binding (ARCHITECTURE.md "Composition root", step 1), compiled once per
 * action from the JSON Schema in the signed manifest.
 *
 * A binder validates a request's supplied context and, in the same walk, converts it to the
 * form the module computes with: defaults applied, absent optional values null, timestamps and
 * durations in ms. It reports every problem (not just the first), each with the attribute it
 * belongs to (for `missing_evidence`), its JSON path and a message a client can act on.
 * Each attribute's value goes through value-converter.ts.
 */
import type { ObjectValueSchema } from '@adec/abi';
import { deepFreeze } from '../deep-freeze.js';
import { compileValueConverter, describeValue, type ValueProblem } from './value-converter.js';

export interface BindingProblem {
  /** The top-level supplied attribute the problem is in. */
  readonly attribute: string;
  /** JSON path from the context, e.g. `documents[2]`. */
  readonly path: string;
  readonly message: string;
}

export type BindingResult = { readonly ok: true; readonly values: Record<string, unknown> } | { readonly ok: false; readonly problems: readonly BindingProblem[] };

export type ContextBinder = (supplied: unknown) => BindingResult;

/**
 * Compiles an action's context schema. `system` names the system-generated attributes: a
 * request that supplies one is refused (they are captured at entry, never taken from a body).
 * A binder reads only contexts already held to the request limits (decide.ts checks them first).
 */
export function compileContextBinder(schema: ObjectValueSchema, system: readonly string[]): ContextBinder {
  const properties = Object.entries(schema.properties ?? {});
  const converters = properties.map(([name, property]) => {
    const convert = compileValueConverter(property);
    // A default is converted once and shared by every request that omits it, so it is frozen.
    const fallback = property.default === undefined ? undefined : deepFreeze(convert(property.default, name, []));
    return [name, convert, fallback] as const;
  });
  const required = new Set(schema.required ?? []);
  const known = new Set(properties.map(([name]) => name));
  const systemNames = new Set(system);

  return (supplied) => {
    if (supplied === null || typeof supplied !== 'object' || Array.isArray(supplied)) {
      return { ok: false, problems: [{ attribute: '', path: '', message: `the context must be an object, found ${describeValue(supplied)}` }] };
    }
    const input = supplied as Record<string, unknown>;
    const problems: BindingProblem[] = [];
    // No prototype: an attribute named `__proto__` or `constructor` is an attribute.
    const values = Object.create(null) as Record<string, unknown>;
    for (const [name, convert, fallback] of converters) {
      const value = Object.hasOwn(input, name) ? input[name] : undefined;
      if (value === undefined) {
        if (fallback !== undefined) values[name] = fallback;
        else if (required.has(name)) problems.push({ attribute: name, path: name, message: `\`${name}\` is required` });
        else values[name] = null;
        continue;
      }
      const found: ValueProblem[] = [];
      const converted = convert(value, name, found);
      for (const problem of found) problems.push({ attribute: name, ...problem });
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

function byPath(a: BindingProblem, b: BindingProblem): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
