/**
 * The kinds of field a request body has, each as its JSON Schema and its check together
 * (request-schema.ts), shared by every operation so a field is refused the same way, and
 * documented the same way, whichever route it came to. An optional field may be sent as null,
 * which is the same as leaving it out.
 */
import { kindOf, REQUEST_ID_PATTERN, REQUEST_ID_RULE } from '@adec/contracts';
import type { ErrorDetail } from '../api-error.js';
import type { JsonSchema, RequestField } from './request-schema.js';

/** A request or user id: what a client can safely put in a URL and a log line. */
export const REQUEST_ID = new RegExp(REQUEST_ID_PATTERN);
const ROUTING_SEGMENT_MAX = 200;
/** Control characters (U+0000–U+001F, U+007F): the loader refuses them in a routing key. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const SEGMENT_SCHEMA = { type: 'string', minLength: 1, maxLength: ROUTING_SEGMENT_MAX, pattern: '^[^\\u0000-\\u001f\\u007f]*$' } as const;

interface FieldOptions {
  readonly required?: boolean;
  readonly description?: string;
}

/** A required routing segment (`domain`, …): what the loader accepts in a routing key. */
export function routingSegment(name: string): RequestField {
  return { name, required: true, schema: SEGMENT_SCHEMA, check: (value, path) => detailOf(path, segmentProblem(value)) };
}

/** `org_id`: optional, and then a routing segment (the pipeline checks that it is the token's org). */
export function orgField(): RequestField {
  return optionalString('org_id', SEGMENT_SCHEMA, "Optional: must equal the token's org", segmentProblem);
}

/** A request, user, decision or outcome id; a required one sent as null is missing. */
export function idField(name: string, options: FieldOptions): RequestField {
  const schema = { type: 'string', pattern: REQUEST_ID.source } as const;
  const problem = (value: string) => (REQUEST_ID.test(value) ? undefined : REQUEST_ID_RULE);
  if (options.required !== true) return optionalString(name, schema, options.description, problem);
  return {
    name,
    required: true,
    schema: described(schema, options.description),
    check: (value, path) => detailOf(path, value === undefined || value === null ? 'is required' : typeof value === 'string' ? problem(value) : `expected a string, found ${kindOf(value)}`),
  };
}

/** A required JSON object, its members not checked here (`context`: the action's schema checks them). */
export function objectField(name: string, description: string): RequestField {
  return { name, required: true, schema: { type: 'object', description }, check: (value, path) => (isObject(value) ? [] : [{ path, message: `expected an object, found ${kindOf(value)}` }]) };
}

/**
 * A field the engine checks against the scenario, with JSON paths of its own (the select
 * request's signals, actions, conditions and mode): the schema says what the engine accepts,
 * and the service passes the value on.
 */
export function engineField(name: string, required: boolean, schema: JsonSchema): RequestField {
  return { name, required, schema, check: () => [], checkedBy: 'engine' };
}

function optionalString(name: string, schema: { readonly type: 'string' } & JsonSchema, description: string | undefined, problem: (value: string) => string | undefined): RequestField {
  return {
    name,
    required: false,
    schema: described({ ...schema, type: ['string', 'null'] }, description),
    check: (value, path) => (value === undefined || value === null ? [] : detailOf(path, typeof value === 'string' ? problem(value) : `expected a string, found ${kindOf(value)}`)),
  };
}

/** What a routing key segment must be (the loader refuses anything else). */
function segmentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return value === undefined ? 'is required' : `expected a string, found ${kindOf(value)}`;
  if (value.length === 0) return 'must not be empty';
  if (value.length > ROUTING_SEGMENT_MAX) return `is longer than ${ROUTING_SEGMENT_MAX} characters`;
  if (CONTROL_CHARACTER.test(value)) return 'holds a control character';
  return undefined;
}

function described(schema: JsonSchema, description: string | undefined): JsonSchema {
  return description === undefined ? schema : { ...schema, description };
}

function detailOf(path: string, problem: string | undefined): ErrorDetail[] {
  return problem === undefined ? [] : [{ path, message: problem }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
