/**
 * An operation of the service (`POST /v1/decide`, `/v1/select`, `/v1/feedback`): the one
 * definition its HTTP route, its OpenAPI entry and its MCP tool are made from. It has two
 * halves:
 *
 * - `Operation`, what a caller sees: the route, the request schema (request-schema.ts), how the
 *   request is named for idempotency and tenancy, and how an outcome is answered;
 * - `OperationHandler`, what the service does with a request the pipeline admitted, read and
 *   found new: make the outcome and the record that proves it.
 *
 * Everything between (admission, body, tenant, idempotent retry, audit commit, refusals) is
 * the pipeline's, written once in run-operation.ts.
 */
import type { AppendedEntry, AuditRecord, RecordKind } from '@adec/audit';
import type { ApiError } from '../api-error.js';
import type { Caller } from '../auth/index.js';
import type { IdempotencyKey } from './refusals.js';
import type { JsonSchema, RequestSchema } from './request-schema.js';

export type ServiceResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

/** Response headers, by lower-case name. */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** An outcome as every transport answers it: a body (and its JSON text), or a refusal; with headers either way. */
export type Answer =
  | { readonly ok: true; readonly status: number; readonly body: object; readonly json: string; readonly headers: AnswerHeaders }
  | { readonly ok: false; readonly error: ApiError; readonly headers: AnswerHeaders };

/** What the OpenAPI document says of a route besides its request body, which comes from the schema. */
export interface OperationDocument {
  readonly operationId: string;
  readonly summary: string;
  readonly parameters?: readonly JsonSchema[];
  readonly responses: Readonly<Record<string, JsonSchema>>;
}

export interface Operation<Request, Outcome, Query = undefined> {
  readonly path: string;
  /** The request schema's name among the OpenAPI document's components. */
  readonly schemaName: string;
  readonly schema: RequestSchema;
  readonly document: OperationDocument;
  /** The kind of the record the operation stores, and the field naming it for an idempotent retry. */
  readonly recordKind: RecordKind;
  readonly idempotency: IdempotencyKey;
  /** What is not answered when the record cannot be committed: `the decision`. */
  readonly what: string;
  /** The typed request, from fields `schema` accepted. */
  request(fields: Readonly<Record<string, unknown>>): Request;
  /** The idempotency id the request carries, if any. */
  idOf(request: Request): string | null;
  /**
   * The id of the record an idempotency id names in the tenant's chain; without this, the id
   * itself (a selection's decision id is the service's UUID, never the client's request id).
   */
  recordIdOf?(id: string, tenant: string): string;
  /** The org the body names, if it names one (it must be the token's). */
  orgOf(request: Request): string | null;
  /** What makes two requests with one id "the same request". */
  hashOf(tenant: string, request: Request): string;
  /** Reads the route's query before anything is decided; an operation without one ignores it. */
  readQuery?(query: unknown): ServiceResult<Query>;
  answer(outcome: Outcome, query: Query | undefined): Answer;
}

/** The record to commit, and what the answer is made from once it is committed. */
export interface Made<Work> {
  readonly entry: AppendedEntry;
  readonly work: Work;
}

export interface OperationHandler<Request, Work, Outcome> {
  /** The outcome of a new request, and its record; a refusal stores nothing. */
  make(caller: Caller, request: Request, receivedAt: number): Promise<ServiceResult<Made<Work>>>;
  /** The outcome once `record` is committed. */
  committed(caller: Caller, request: Request, work: Work, record: AuditRecord): Promise<ServiceResult<Outcome>>;
  /** The outcome of a retry of the same request, from its stored record. */
  replayed(caller: Caller, request: Request, record: AuditRecord): Promise<ServiceResult<Outcome>>;
  /** Hears each new outcome and how long it took (for the metrics). */
  answered?(outcome: Outcome, seconds: number): void;
}
