/**
 * The few schema shapes every contract repeats, built on TypeBox so that each schema is at once
 * a JSON Schema (draft 2020-12, served and validated with ajv) and, through `Wire<…>`, the
 * TypeScript type of what it describes: one definition, no copy to drift from.
 */
import { Type, type SchemaOptions, type Static, type TProperties, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** What a schema describes, read-only all the way down (producers build it from read-only parts). */
export type Wire<S extends TSchema> = DeepReadonly<Static<S>>;

type DeepReadonly<T> = T extends (infer E)[] ? readonly DeepReadonly<E>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/**
 * An object with exactly these fields: what adec produces is stated precisely, so a test that
 * validates it finds a field added by mistake. Contracts still grow by new fields, with the
 * schema (docs/spec/contracts.md 1.2).
 */
export function Closed<P extends TProperties>(properties: P, options: SchemaOptions = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** One of these strings (a JSON Schema `enum`, which reads better than a union of consts). */
export function OneOf<const V extends readonly string[]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
}

export function Nullable<S extends TSchema>(schema: S, options: SchemaOptions = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** A JSON object whose fields the contract does not fix (a payload, the signals of a scenario). */
export function OpenObject(options: SchemaOptions = {}) {
  return Type.Record(Type.String(), Type.Unknown(), options);
}

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
export const Sha256 = (description: string) => Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description });
export const Milliseconds = (description: string) => Type.Number({ minimum: 0, description });

/** A decision id: a UUID v4 the service generates (docs/spec/selection.md 3.1.2). */
export const UUID_V4_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
export const DecisionId = (description = 'A UUID v4 the service generates, never the client’s request id') => Type.String({ pattern: UUID_V4_PATTERN, description });

/**
 * A client's id (a request, user, outcome or decision id): what a client can safely put in a URL
 * and a log line. `REQUEST_ID_RULE` says it in words, for refusals.
 */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';
export const REQUEST_ID_RULE = 'must be 1–128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit';
