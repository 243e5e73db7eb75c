/**
 * The JSON Schema (draft 2020-12) subset adec describes wire values with: the compiler writes
 * it (a request's context in the manifest, a scenario's signals and action fields, a skill's
 * output in the module) and the runtime enforces it (context binding, selection signals).
 * One type for both sides, and a validator that admits exactly the keywords the runtime
 * enforces: a keyword it would silently ignore is refused, not trusted.
 */
import { childPath, pathText, type AbiProblems } from './abi-problem.js';
import {
  checkBoolean,
  checkInteger,
  checkNumber,
  checkObject,
  checkString,
  checkStrings,
  listOf,
  oneOf,
  wrongType,
  type Check,
  type JsonObject,
} from './checks.js';
import type { JsonValue } from './json-value.js';

export type ValueType = (typeof VALUE_TYPES)[number];
export const VALUE_TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;

export interface ValueSchema {
  readonly $schema?: string;
  readonly title?: string;
  readonly description?: string;
  /** Several types: a duration, sent as `"18h"`-style text or a number of milliseconds. */
  readonly type?: ValueType | readonly ValueType[];
  readonly enum?: readonly JsonValue[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly items?: ValueSchema;
  readonly properties?: { readonly [name: string]: ValueSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  /** An optional value: the value's schema or `{ type: "null" }`. */
  readonly anyOf?: readonly ValueSchema[];
  readonly default?: JsonValue;
}

/** A schema of a record: what an action's context schema is. */
export type ObjectValueSchema = ValueSchema & { readonly type: 'object' };

/**
 * How deep schemas nest before validation stops following them (a list of records of lists …
 * 200 levels down is no world's type; the limit keeps a hostile manifest from exhausting the
 * stack of the validator and of the converters compiled from it).
 */
export const MAX_SCHEMA_DEPTH = 200;

const checkValueType = oneOf(VALUE_TYPES);
const checkValueTypes = listOf(checkValueType);
const checkCount = checkInteger(0);

/** Keyword → how its value is checked; a schema's other keywords are refused. */
const KEYWORDS: { readonly [keyword: string]: (value: unknown, path: string, problems: AbiProblems, depth: number) => boolean } = {
  $schema: checkString,
  title: checkString,
  description: checkString,
  type: (value, path, problems) => (Array.isArray(value) ? checkValueTypes(value, path, problems) : checkValueType(value, path, problems)),
  enum: (value, path, problems) => Array.isArray(value) || wrongType(value, path, 'a list', problems),
  format: checkString,
  pattern: checkString,
  minimum: checkNumber,
  maximum: checkNumber,
  minLength: checkCount,
  maxLength: checkCount,
  items: (value, path, problems, depth) => checkSchemaAt(value, path, problems, depth + 1),
  properties: (value, path, problems, depth) => {
    if (!checkObject(value, path, problems)) return false;
    const before = problems.count;
    for (const [name, property] of Object.entries(value)) checkSchemaAt(property, childPath(path, name), problems, depth + 1);
    return problems.count === before;
  },
  required: checkStrings,
  additionalProperties: checkBoolean,
  anyOf: (value, path, problems, depth) => {
    if (!Array.isArray(value)) return wrongType(value, path, 'a list of schemas', problems);
    const before = problems.count;
    value.forEach((variant: unknown, index) => checkSchemaAt(variant, childPath(path, index), problems, depth + 1));
    return problems.count === before;
  },
  // Any JSON value: the converter compiled from the schema checks it against the schema.
  default: () => true,
};

export const checkValueSchema: Check<ValueSchema> = (value, path, problems): value is ValueSchema => checkSchemaAt(value, path, problems, 0);

/** A value schema of `type: "object"`: an action's context. */
export const checkObjectValueSchema: Check<ObjectValueSchema> = (value, path, problems): value is ObjectValueSchema => {
  if (!checkValueSchema(value, path, problems)) return false;
  if (value.type === 'object') return true;
  const at = childPath(path, 'type');
  return problems.add('VALUE_NOT_ALLOWED', at, `${pathText(at)} is ${JSON.stringify(value.type ?? null)}, expected "object"`);
};

function checkSchemaAt(value: unknown, path: string, problems: AbiProblems, depth: number): value is ValueSchema {
  if (depth > MAX_SCHEMA_DEPTH) return problems.add('NESTED_TOO_DEEP', path, `${pathText(path)} nests schemas more than ${MAX_SCHEMA_DEPTH} levels deep`);
  if (!checkObject(value, path, problems)) return false;
  return checkKeywords(value, path, problems, depth);
}

function checkKeywords(schema: JsonObject, path: string, problems: AbiProblems, depth: number): boolean {
  const before = problems.count;
  for (const [keyword, value] of Object.entries(schema)) {
    const at = childPath(path, keyword);
    const check = Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword] : undefined;
    if (check === undefined) problems.add('VALUE_NOT_ALLOWED', at, `${pathText(at)} is a schema keyword adec does not enforce`);
    else check(value, at, problems, depth);
  }
  return problems.count === before;
}
