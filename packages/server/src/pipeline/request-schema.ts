/**
 * One schema per route: the fields of a request body, each with its JSON Schema and the check
 * that refuses a value. The service's validator and the OpenAPI document (and the MCP tools'
 * input schemas) are both made from it, so the document cannot state a rule the validator does
 * not apply, nor the validator refuse what the document allows.
 */
import { jsonPathMember, kindOf } from '@adec/contracts';
import { apiError, type ApiError, type ErrorDetail } from '../api-error.js';

/** A JSON Schema fragment, as the OpenAPI document writes it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The JSON Schema of a request body: an object of known fields and no others. (A type, not an interface: the MCP SDK's tool schema wants an index signature.) */
export type ObjectSchema = {
  readonly type: 'object';
  readonly required: string[];
  readonly additionalProperties: false;
  readonly properties: Record<string, JsonSchema>;
};

export interface RequestField {
  readonly name: string;
  /** Required fields are refused when absent (and listed as `required` in the JSON Schema). */
  readonly required: boolean;
  /** What the field's value must be, for the document: the same rule `check` applies. */
  readonly schema: JsonSchema;
  /** The problems of the field's value (`undefined` when absent), each with its JSON path; `path` is the field's. */
  readonly check: (value: unknown, path: string) => readonly ErrorDetail[];
  /** Set when the service passes the value on unchecked and the engine checks it, refusing with the same JSON paths. */
  readonly checkedBy?: 'engine';
}

export interface RequestSchema {
  /** What the body is, as refusals name it: `decide request`, `execution outcome`. */
  readonly noun: string;
  readonly article: 'a' | 'an';
  /** In the order problems are reported. */
  readonly fields: readonly RequestField[];
  /** The contract the fields were made from (contract-request.ts): the body's JSON Schema, as the contract states it. */
  readonly contract?: ObjectSchema;
}

export type ReadBody = { readonly ok: true; readonly fields: Readonly<Record<string, unknown>> } | { readonly ok: false; readonly error: ApiError };

/** Checks `body` against `schema`: every problem at once, with its JSON path, then the fields. */
export function readBody(schema: RequestSchema, body: unknown): ReadBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, error: apiError(400, 'INVALID_REQUEST', 'the request body must be a JSON object', [{ path: '$', message: `expected an object, found ${kindOf(body)}` }]) };
  }
  const fields = body as Record<string, unknown>;
  const details = schema.fields.flatMap((field) => field.check(fields[field.name], `$.${field.name}`));
  const names = schema.fields.map((field) => field.name);
  for (const name of Object.keys(fields)) {
    if (!names.includes(name)) details.push({ path: `$${jsonPathMember(name)}`, message: `is not a field of ${schema.article} ${schema.noun} (${names.join(', ')})` });
  }
  if (details.length === 0) return { ok: true, fields };
  const summary = details.length === 1 ? `${details[0]!.path} ${details[0]!.message}` : `${details.length} problems`;
  return { ok: false, error: apiError(400, 'INVALID_REQUEST', `the ${schema.noun} is invalid: ${summary}`, details) };
}

/** The JSON Schema of a body `schema` accepts. */
export function jsonSchemaOf(schema: RequestSchema): ObjectSchema {
  if (schema.contract !== undefined) return schema.contract;
  return {
    type: 'object',
    required: schema.fields.filter((field) => field.required).map((field) => field.name),
    additionalProperties: false,
    properties: Object.fromEntries(schema.fields.map((field) => [field.name, field.schema])),
  };
}
