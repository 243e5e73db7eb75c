/**
 * Request contexts generated from an action's signed context schema (the JSON Schema subset the
 * compiler emits: packages/compiler/src/manifest/json-schema.ts). Values are valid, near the
 * bounds where the schema has bounds, and reuse a few words so string predicates match; about
 * one request in eight is broken in one way (a wrong type, a missing required key, an
 * undeclared key, an out-of-range value) so that the refusing path is exercised too.
 */
import type { ValueSchema } from '@adec/runtime';
import fc from 'fast-check';

/** The schema subset the compiler emits, as the runtime reads it. */
export type ContextSchema = ValueSchema;

const WORDS = ['vip', 'refund', 'urgent', 'Pain', 'birth_certificate', 'x', 'cosmetic', 'elective', '12%', ''];

export function requestFor(schema: ContextSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(properties);
  const valid = fc.record(
    Object.fromEntries(names.map((name) => [name, valueFor(properties[name]!)])),
    { requiredKeys: names.filter((name) => required.has(name)) },
  ) as fc.Arbitrary<Record<string, unknown>>;
  return fc.oneof({ weight: 7, arbitrary: valid }, { weight: 1, arbitrary: fc.tuple(valid, breakage(names, [...required])).map(([ctx, breakIt]) => breakIt(ctx)) });
}

export function valueFor(schema: ContextSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map(valueFor));
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  if (types.includes('string') && types.includes('integer')) return fc.oneof(duration(), fc.integer({ min: 0, max: 30 * 86_400_000 }));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'string':
      if (schema.format === 'date-time') return timestamp();
      return fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 })).filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
    case 'array':
      return fc.array(valueFor(schema.items ?? {}), { maxLength: 4 });
    case 'object':
      return requestFor(schema);
    default:
      return fc.constant(null);
  }
}

function timestamp(): fc.Arbitrary<string> {
  return fc.integer({ min: 1_500_000_000_000, max: 1_950_000_000_000 }).map((ms) => new Date(ms).toISOString());
}

function duration(): fc.Arbitrary<string> {
  return fc.tuple(fc.integer({ min: 0, max: 400 }), fc.constantFrom('ms', 's', 'm', 'h', 'd')).map(([n, unit]) => `${n}${unit}`);
}

/** One way of breaking a context, as a function of the valid context. */
function breakage(names: readonly string[], required: readonly string[]): fc.Arbitrary<(ctx: Record<string, unknown>) => Record<string, unknown>> {
  const kinds: fc.Arbitrary<(ctx: Record<string, unknown>) => Record<string, unknown>>[] = [
    fc.constant((ctx) => ({ ...ctx, undeclared_attribute: 1 })),
  ];
  if (names.length > 0) {
    kinds.push(fc.tuple(fc.constantFrom(...names), fc.constantFrom<unknown>('wrong', 42, true, [], {}, -1, 1e300)).map(([name, value]) => (ctx) => ({ ...ctx, [name]: value })));
  }
  if (required.length > 0) {
    kinds.push(fc.constantFrom(...required).map((name) => (ctx) => Object.fromEntries(Object.entries(ctx).filter(([key]) => key !== name))));
  }
  return fc.oneof(...kinds);
}
