/**
 * `POST /v1/decide` and the MCP tool `decide`: one adjudication (docs/spec/adjudication.md §2) by the
 * module the loader serves for the routing key (verified bundle, pooled sandbox), recorded as
 * an `adjudication` whose id is the request id (or a fresh UUID). The pipeline around it is
 * run-operation.ts's; the body is decide-request.ts's.
 */
import { randomUUID } from 'node:crypto';
import { decide, type DecideError, type Decision, type EntryValues, type ModuleLoader } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';
import type { Caller } from '../auth/index.js';
import { adjudicationPackage, type DecisionPackage } from '../decision-package.js';
import { adjudicationEntry, recordedRequest, requestHashOf, type AdjudicationPayload } from '../decision-record.js';
import { digestOf } from '../canonical-json.js';
import { decisionHeaders, decisionOrPackage, errorResponse, retryAfter, sharedRefusals } from '../openapi-responses.js';
import type { Operation, OperationHandler } from '../pipeline/operation.js';
import { loadError } from '../pipeline/refusals.js';
import { answerQueryReader, packageAnswer, withoutTracesJson, type AnswerQuery } from './decide-answer.js';
import { DECIDE_REQUEST, decideRequestOf, type DecideRequest } from './decide-request.js';

export interface DecideOutcome {
  readonly decision: Decision;
  /** The decision's JSON text, serialized once for the answer and the audit record. */
  readonly decisionJson: string;
  readonly decisionId: string;
  /** Its Decision Package, made from what the record holds, only when it is asked for. */
  readonly decisionPackage: () => DecisionPackage;
  /** True when this is a retry answered with the decision stored for its request id. */
  readonly idempotentReplay: boolean;
}

export const DECIDE: Operation<DecideRequest, DecideOutcome, AnswerQuery> = {
  path: '/v1/decide',
  schemaName: 'DecideRequest',
  schema: DECIDE_REQUEST,
  document: {
    operationId: 'decide',
    summary: 'Decide one adjudication (the org comes from the token)',
    parameters: [
      {
        name: 'traces',
        in: 'query',
        required: false,
        description: 'false: answer without the per-rule predicate traces (the audit record keeps them)',
        schema: { type: 'string', enum: ['true', 'false'], default: 'true' },
      },
      {
        name: 'format',
        in: 'query',
        required: false,
        description: 'decision-package: answer with the Decision Package v1 made with the decision (docs/spec/contracts.md §2), stored in its record',
        schema: { type: 'string', enum: ['decision-package'] },
      },
    ],
    responses: {
      '200': { description: 'The decision, committed to the audit store (with ?format=decision-package, its Decision Package)', headers: decisionHeaders, content: decisionOrPackage('Decision') },
      '400': errorResponse('Invalid body: malformed JSON, wrong types (each with its JSON path); or an unknown or invalid query parameter'),
      ...sharedRefusals.unauthorized,
      ...sharedRefusals.anotherOrg,
      '404': errorResponse('No such module or action for this org'),
      ...sharedRefusals.requestIdReused,
      '413': errorResponse('REQUEST_TOO_LARGE: the body, or a value of its context, is over a request limit (bytes, nesting, keys, list items, string code points), named with its JSON path; nothing is decided or recorded'),
      ...sharedRefusals.notJson,
      ...sharedRefusals.rateLimited,
      ...sharedRefusals.recordTampered,
      '503': { ...errorResponse('Overloaded, module unavailable, or audit store unavailable'), headers: retryAfter },
    },
  },
  recordKind: 'adjudication',
  idempotency: { field: 'request_id', usedFor: 'request', detail: 'names a decision made for a different request' },
  what: 'the decision',
  request: decideRequestOf,
  idOf: (request) => request.requestId,
  orgOf: (request) => request.orgId,
  hashOf: requestHashOf,
  readQuery: answerQueryReader(['traces', 'format']),
  answer: ({ decision, decisionJson, decisionId, decisionPackage, idempotentReplay }, query) => {
    const headers = { location: `/v1/decisions/${decisionId}`, ...(idempotentReplay && { 'idempotent-replayed': 'true' }) };
    if (query?.packaged === true) return packageAnswer(decisionPackage(), decisionId, headers);
    // The text the audit record holds, or less of it.
    return { ok: true, status: 200, body: decision, json: query?.traces === false ? withoutTracesJson(decision) : decisionJson, headers };
  },
};

export interface DecideHandlerOptions {
  readonly loader: ModuleLoader;
  /** A decision unfinished after this long is a YELLOW DEADLINE_EXCEEDED. */
  readonly decisionTimeoutMs: number;
  readonly decided?: (decision: Decision, seconds: number) => void;
}

interface Decided {
  readonly decision: Decision;
  readonly decisionJson: string;
  readonly entry: Required<EntryValues>;
}

export function decideHandler(options: DecideHandlerOptions): OperationHandler<DecideRequest, Decided, DecideOutcome> {
  return {
    async make(caller: Caller, request: DecideRequest, receivedAt: number) {
      const module = await options.loader.get({ org: caller.tenant, domain: request.domain, action: request.action, version: request.worldModelVersion });
      if (!module.ok) return { ok: false, error: loadError(module.error.code, module.error.message) };
      const entry = { requestId: request.requestId ?? randomUUID(), requestTime: receivedAt, authenticatedCaller: caller.subject };
      const decided = await decide(module.module, { action: request.action, context: request.context }, entry, { deadline: receivedAt + options.decisionTimeoutMs });
      if (!decided.ok) return { ok: false, error: decideError(decided.error) };
      const decisionJson = JSON.stringify(decided.decision);
      return { ok: true, value: { entry: adjudicationEntry(caller, request, entry, decided.decision, decisionJson), work: { decision: decided.decision, decisionJson, entry } } };
    },
    committed: async (_caller, request, { decision, decisionJson, entry }) => ({
      ok: true,
      value: { decision, decisionJson, decisionPackage: () => adjudicationPackage({ request: recordedRequest(request), inputs_hash: digestOf(request.context), response: decision }), decisionId: entry.requestId, idempotentReplay: false },
    }),
    async replayed(_caller, _request, record) {
      const payload = record.payload as unknown as AdjudicationPayload;
      return { ok: true, value: { decision: payload.response, decisionJson: JSON.stringify(payload.response), decisionPackage: () => adjudicationPackage(payload), decisionId: record.decisionId, idempotentReplay: true } };
    },
    answered: (outcome, seconds) => options.decided?.(outcome.decision, seconds),
  };
}

/**
 * How a request the module did not decide is answered: an unknown action 404; a context over a
 * request limit 413, naming the limit and the value's JSON path (as the body's own limits are);
 * anything else 400.
 */
function decideError(error: DecideError): ApiError {
  if (error.code === 'UNKNOWN_ACTION') return apiError(404, error.code, error.message);
  if (error.code === 'REQUEST_TOO_LARGE') return apiError(413, error.code, error.message, [{ path: contextPath(error.limit.path), message: error.limit.message }]);
  return apiError(400, error.code, error.message);
}

/** A JSON path from the context (`documents[2]`, the runtime's form) as a path in the body. */
function contextPath(path: string): string {
  return path === '' ? '$.context' : path.startsWith('[') ? `$.context${path}` : `$.context.${path}`;
}
