/**
 * The JSON Schema of an action's supplied context: what a `/decide` request body's `context`
 * must look like. System and computed attributes never come from the request, so they are not
 * in it (and `additionalProperties: false` rejects a caller that tries to send them).
 */
import type { ObjectValueSchema, ValueSchema } from '@adec/abi';
import type { CheckedAction } from '../model/index.js';
import { JSON_SCHEMA_DIALECT, typeSchema } from './json-schema.js';

export function contextSchema(action: CheckedAction): ObjectValueSchema {
  const supplied = action.context.filter((a) => a.source === 'supplied');
  const properties: Record<string, ValueSchema> = {};
  for (const attribute of supplied) {
    const schema = typeSchema(attribute.type);
    properties[attribute.name] = attribute.defaultValue === undefined ? schema : { ...schema, default: attribute.defaultValue };
  }
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: `${action.name} context`,
    type: 'object',
    properties,
    required: supplied.filter((a) => a.type.kind !== 'optional' && a.defaultValue === undefined).map((a) => a.name),
    additionalProperties: false,
  };
}

