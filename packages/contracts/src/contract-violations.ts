/**
 * What a value sent to the service gets wrong about its contract, in the words of the service's
 * refusals: each problem at the JSONPath of the value at fault (`$.deviations[0].severity`), with
 * a message that says what was expected and what was found. The service refuses a request body
 * made to a contract (`POST /v1/feedback`) with these, as `400 INVALID_REQUEST` details.
 */
import type { ErrorObject } from 'ajv';
import { validatorOf } from './contract-validation.js';
import { REQUEST_ID_PATTERN, REQUEST_ID_RULE } from './schema-kit.js';

export interface ContractViolation {
  /** JSONPath of the value at fault, from the `root` given. */
  readonly path: string;
  readonly message: string;
}

/** Enough to correct a body; a body with thousands of faults gets its first ones. */
const MAX_VIOLATIONS = 100;

/** Patterns the contracts share, said in words rather than as a regular expression. */
const PATTERN_RULES: Readonly<Record<string, string>> = { [REQUEST_ID_PATTERN]: REQUEST_ID_RULE };

/**
 * What is wrong with `value` against `schema`, each at its path under `root`; empty when it
 * conforms. One problem per path, the first found (a number where a status belongs is `expected
 * a string`, not that too and `expected one of …`); at most 100.
 */
export function contractViolations(schema: object, value: unknown, root = '$'): ContractViolation[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  const byPath = new Map<string, ContractViolation>();
  for (const error of validate.errors ?? []) {
    const violation = violationOf(error, schema, value, root);
    if (!byPath.has(violation.path)) byPath.set(violation.path, violation);
    if (byPath.size === MAX_VIOLATIONS) break;
  }
  return [...byPath.values()];
}

/** `name` as a JSONPath member: `.name` when it is an identifier, `['…']` otherwise (escaped, short). */
export function jsonPathMember(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)}]`;
}

/** What a value is, as a message names it: `a string`, `an array`, `null`. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function violationOf(error: ErrorObject, schema: object, value: unknown, root: string): ContractViolation {
  const { path, data } = located(value, error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${path}${jsonPathMember(String(params['missingProperty']))}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${path}${jsonPathMember(String(params['additionalProperty']))}`, message: unknownMemberMessage(schemaAt(schema, parentOf(error.schemaPath))) };
    default:
      return { path, message: messageOf(error.keyword, params, data) };
  }
}

function messageOf(keyword: string, params: Record<string, unknown>, data: unknown): string {
  const limit = Number(params['limit']);
  switch (keyword) {
    case 'type':
      return `expected ${withArticle(String(params['type']))}, found ${kindOf(data)}`;
    case 'enum':
      return `expected one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}, found ${shown(data)}`;
    case 'format':
      return params['format'] === 'date-time' ? `expected an RFC 3339 date-time (2026-03-01T09:00:00Z), found ${shown(data)}` : `expected a ${String(params['format'])}, found ${shown(data)}`;
    case 'pattern':
      return PATTERN_RULES[String(params['pattern'])] ?? `must match ${String(params['pattern'])}`;
    case 'maxLength':
      return `is ${(data as string).length} characters long; at most ${limit}`;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `is shorter than ${limit} characters`;
    case 'maxItems':
      return `holds ${(data as unknown[]).length} items; at most ${limit}`;
    case 'maxProperties':
      return `holds ${Object.keys(data as object).length} members; at most ${limit}`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    default:
      return `must satisfy \`${keyword}\``;
  }
}

/** The message for a member an object does not take: its fields, or the names a map takes. */
function unknownMemberMessage(object: Record<string, unknown> | undefined): string {
  const fields = object?.['properties'];
  if (fields !== undefined) return `is not a field of this object (${Object.keys(fields as object).join(', ')})`;
  const names = Object.keys((object?.['patternProperties'] as object | undefined) ?? {});
  return `is not a name this map takes (${names.join(', ')})`;
}

/** The JSONPath of an instance pointer (`/deviations/0/severity`), and the value there. */
function located(value: unknown, pointer: string, root: string): { path: string; data: unknown } {
  let path = root;
  let data = value;
  for (const segment of pointerSegments(pointer)) {
    path += Array.isArray(data) ? `[${segment}]` : jsonPathMember(segment);
    data = (data as Record<string, unknown>)[segment];
  }
  return { path, data };
}

/** The schema at a schema pointer (`#/properties/telemetry`), or undefined. */
function schemaAt(schema: object, pointer: string): Record<string, unknown> | undefined {
  let node: unknown = schema;
  for (const segment of pointerSegments(pointer.replace(/^#/, ''))) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.length > 50 ? `${value.slice(0, 50)}…` : value) : kindOf(value);
}
