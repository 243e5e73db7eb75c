/**
 * An operation paired with the service that runs it, as every transport serves it: the HTTP
 * route (http/operation-routes.ts) and the MCP tool (mcp/decide-tool.ts) both call `answer`,
 * so a caller gets the same outcome, refusals and all, whichever way it asked.
 */
import type { Caller } from '../auth/index.js';
import type { Answer, Operation, ServiceResult } from './operation.js';

export interface ServedOperation {
  readonly operation: DocumentedOperation;
  /** `query`: the HTTP route's; a transport without one passes none. */
  answer(caller: Caller, body: unknown, query?: unknown): Promise<Answer>;
}

/** What the OpenAPI document and the routes read of an operation, whatever its types. */
export type DocumentedOperation = Pick<Operation<unknown, unknown, unknown>, 'path' | 'schemaName' | 'schema' | 'document'>;

export function served<Request, Outcome, Query>(operation: Operation<Request, Outcome, Query>, run: (caller: Caller, body: unknown) => Promise<ServiceResult<Outcome>>): ServedOperation {
  return { operation, answer: (caller, body, query) => answerOperation(operation, run, caller, body, query) };
}

/** Runs `operation` and answers its outcome; a refused query is answered before anything is decided. */
async function answerOperation<Request, Outcome, Query>(
  operation: Operation<Request, Outcome, Query>,
  run: (caller: Caller, body: unknown) => Promise<ServiceResult<Outcome>>,
  caller: Caller,
  body: unknown,
  query?: unknown,
): Promise<Answer> {
  const read = query === undefined || operation.readQuery === undefined ? undefined : operation.readQuery(query);
  if (read !== undefined && !read.ok) return { ok: false, error: read.error, headers: {} };
  const result = await run(caller, body);
  return result.ok ? operation.answer(result.value, read?.value) : { ok: false, error: result.error, headers: {} };
}
