/**
 * A request schema made from a contract of @adec/contracts (the body of `POST /v1/feedback` is
 * the Execution Outcome Package): one field per property of the contract, its JSON Schema the
 * contract's and its check the contract's validator, each problem at its JSON path. So the body
 * is refused exactly when the contract refuses it, and the OpenAPI document and the MCP tools
 * state the contract, not a copy of it. Unlike the hand-made fields (request-fields.ts), an
 * optional field sent as null is refused, as the contract refuses it: what is stored must fit it.
 */
import { contractViolations, plainSchema } from '@adec/contracts';
import type { JsonSchema, ObjectSchema, RequestField, RequestSchema } from './request-schema.js';

type Contract = Parameters<typeof plainSchema>[0];

export function contractRequest(contract: Contract, naming: Pick<RequestSchema, 'noun' | 'article'>): RequestSchema {
  const whole = plainSchema(contract) as ObjectSchema;
  return { ...naming, fields: Object.entries(whole.properties).map(([name, schema]) => contractField(name, schema, whole.required.includes(name))), contract: whole };
}

function contractField(name: string, schema: JsonSchema, required: boolean): RequestField {
  return {
    name,
    required,
    schema,
    check: (value, path) => (value === undefined ? (required ? [{ path, message: 'is required' }] : []) : contractViolations(schema, value, path)),
  };
}
