/**
 * World types as JSON Schema (draft 2020-12), describing values on the wire: the request
 * context an API client sends and the payload a skill returns. Objects are closed
 * (`additionalProperties: false`, docs/spec/skill-contract.md §2); an optional value may be absent or `null`.
 */
import type { ValueSchema } from '@adec/abi';
import type { JsonValue, RecordField, Type } from '../model/index.js';

export { JSON_SCHEMA_DIALECT } from '@adec/contracts';

/** Wire form of a duration: `500ms`, `18h`, `7d` … (or a plain number of milliseconds). */
export const DURATION_PATTERN = '^[0-9]+(ms|s|m|h|d)$';

export function typeSchema(type: Type): ValueSchema {
  switch (type.kind) {
    case 'bool':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer', ...range(type.range, 'minimum', 'maximum') };
    case 'float':
      return { type: 'number', ...range(type.range, 'minimum', 'maximum') };
    case 'string':
      return { type: 'string', ...range(type.length, 'minLength', 'maxLength') };
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'duration':
      // `pattern` constrains the string form, `minimum` the number-of-ms form.
      return { type: ['string', 'integer'], pattern: DURATION_PATTERN, minimum: 0 };
    case 'enum':
      return { type: 'string', enum: type.members };
    case 'list':
      return { type: 'array', items: typeSchema(type.element) };
    case 'record':
      return objectSchema(type.fields);
    case 'optional':
      return { anyOf: [typeSchema(type.inner), { type: 'null' }] };
    case 'null':
      return { type: 'null' };
    case 'error':
      throw new Error('adec bug: an error type reached schema generation');
  }
}

/** A closed object whose non-optional fields are required. */
export function objectSchema(fields: readonly RecordField[]): ValueSchema {
  const properties: Record<string, ValueSchema> = {};
  for (const field of fields) properties[field.name] = typeSchema(field.type);
  return {
    type: 'object',
    properties,
    required: fields.filter((f) => f.type.kind !== 'optional').map((f) => f.name),
    additionalProperties: false,
  };
}

/** The schema as a JSON value (it never holds `undefined`: optional keys are left out). */
export function schemaJson(schema: ValueSchema): JsonValue {
  return schema as unknown as JsonValue;
}

function range<K extends string>(bounds: { readonly min?: number; readonly max?: number } | undefined, minKey: K, maxKey: K) {
  const out: Partial<Record<K, number>> = {};
  if (bounds?.min !== undefined) out[minKey] = bounds.min;
  if (bounds?.max !== undefined) out[maxKey] = bounds.max;
  return out;
}
