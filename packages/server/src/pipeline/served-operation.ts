/**
 * An operation paired with the service that runs it, as every transport serves it: the HTTP
 * route (http/operation-routes.ts) and the MCP tool (mcp/decide-tool.ts) both call `answer`,
 * so a caller gets the same outcome, refusals and all, whichever way it asked.
 */
import type { Caller } from '../auth/index.js';
import type { Answer, Operation, ServiceResult } from './operation.js';
import { answerOperation } from './run-operation.js';

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
