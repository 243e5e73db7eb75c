/**
 * `POST /v1/select` and the MCP tool `select`: the whole ADE cycle (docs/spec/selection.md) by the module the
 * loader serves for the routing key (a world of scenarios loads like any other), with the
 * user's short-term memory (unreadable: a flagged cold start), the engine's nine stages, and
 * the full trace recorded as a `selection`.
 *
 * Every outcome with a trace is stored before it is answered: `decided` (200), no eligible
 * action (422) and a scoring failure (500). Nothing is stored for a request refused before
 * anything was decided (400, 404, 429, 503).
 */
import type { AuditStore } from '@adec/audit';
import { runCycle, signTrace, type CycleOutcome, type DecisionResponse, type LlmExecutor, type MemoryInput, type SelectionError, type TraceSigner, type ValidationFailure } from '@adec/engine';
import type { ModuleLoader } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';
import { decisionHeaders, decisionOrPackage, errorResponse, retryAfter, sharedRefusals } from '../openapi-responses.js';
import type { Operation, OperationHandler } from '../pipeline/operation.js';
import { loadError } from '../pipeline/refusals.js';
import { selectionDecisionId } from '../selection-decision-id.js';
import { selectionEntry, selectionRequestHash, type SelectionPayload } from '../selection-record.js';
import { answerQueryReader, packageAnswer, type AnswerQuery } from './decide-answer.js';
import { SELECT_REQUEST, selectRequestOf, type SelectRequest } from './select-request.js';
import { selectionPackage, type DecisionPackage } from '../decision-package.js';

export interface SelectOutcome {
  readonly outcome: CycleOutcome;
  /** The response when `decided`; null for a stored 422 or 500. */
  readonly response: DecisionResponse | null;
  readonly decisionId: string;
  /** Its Decision Package, as stored; null when nothing was chosen or for a record made before packages were. */
  readonly decisionPackage: DecisionPackage | null;
  readonly idempotentReplay: boolean;
}

const location = { Location: { schema: { type: 'string' } } };

export const SELECT: Operation<SelectRequest, SelectOutcome, AnswerQuery> = {
  path: '/v1/select',
  schemaName: 'SelectRequest',
  schema: SELECT_REQUEST,
  document: {
    operationId: 'select',
    summary: 'Select one of the candidate actions through the whole ADE cycle (the org comes from the token)',
    parameters: [
      {
        name: 'format',
        in: 'query',
        required: false,
        description: 'decision-package: answer a decided selection with the Decision Package v1 made with it (docs/spec/contracts.md §2), stored in its record',
        schema: { type: 'string', enum: ['decision-package'] },
      },
    ],
    responses: {
      '200': { description: "The DecisionResponse of docs/spec/selection.md §3.9 (with ?format=decision-package, the Decision Package); its trace committed to the audit store", headers: decisionHeaders, content: decisionOrPackage('DecisionResponse') },
      '400': errorResponse('Invalid body, or a request that does not fit the scenario (each problem with its JSON path); or an unknown or invalid query parameter'),
      ...sharedRefusals.unauthorized,
      ...sharedRefusals.anotherOrg,
      '404': errorResponse('No such module or scenario for this org'),
      ...sharedRefusals.requestIdReused,
      '413': errorResponse('The body is too large'),
      ...sharedRefusals.notJson,
      '422': { ...errorResponse('NO_ELIGIBLE_ACTIONS: the guardrails left no candidate; the trace is stored (see Location)'), headers: location },
      ...sharedRefusals.rateLimited,
      '500': { ...errorResponse('SCORING_FAILED: an objective or tie-break failed; the trace is stored (see Location). RECORD_TAMPERED: the stored selection a retry repeats does not verify against its audit chain'), headers: location },
      '503': { ...errorResponse('Overloaded, module unavailable, sandbox failure, or audit store unavailable'), headers: retryAfter },
    },
  },
  recordKind: 'selection',
  idempotency: { field: 'request_id', usedFor: 'request', detail: 'names a decision made for a different request' },
  what: 'the selection',
  request: selectRequestOf,
  idOf: (request) => request.requestId,
  recordIdOf: (requestId, tenant) => selectionDecisionId(tenant, requestId),
  orgOf: (request) => request.orgId,
  hashOf: selectionRequestHash,
  readQuery: answerQueryReader(['format']),
  answer: ({ outcome, response, decisionId, decisionPackage, idempotentReplay }, query) => {
    const headers = { location: `/v1/decisions/${decisionId}`, ...(idempotentReplay && { 'idempotent-replayed': 'true' }) };
    if (outcome === 'decided' && response !== null) return query?.packaged === true ? packageAnswer(decisionPackage, decisionId, headers) : { ok: true, status: 200, body: response, json: JSON.stringify(response), headers };
    return {
      ok: false,
      error:
        outcome === 'no_eligible_actions'
          ? apiError(422, 'NO_ELIGIBLE_ACTIONS', `no candidate passed every guardrail; the trace is stored as decision ${decisionId}`)
          : apiError(500, 'SCORING_FAILED', `an objective or tie-break of the scenario failed, so no ranking can be trusted; the trace is stored as decision ${decisionId}`),
      headers,
    };
  },
};

export interface SelectHandlerOptions {
  readonly loader: ModuleLoader;
  /** Where the users' short-term memory is. */
  readonly store: AuditStore;
  /** Model executors in order of preference (none: LLM skills run their deterministic fallback, flagged). */
  readonly executors: readonly LlmExecutor[];
  /** Names no skill output may mention (docs/spec/skill-contract.md §4). */
  readonly competitorNames?: readonly string[];
  /** The service's key that signs every trace it stores (docs/spec/contracts.md §4); none: traces are unsigned. */
  readonly traceSigner?: TraceSigner;
  readonly selected?: (outcome: CycleOutcome, seconds: number) => void;
  /** A skill output tried to name, rank or change the selection: rejected, and worth a log line. */
  readonly authorityViolation?: (tenant: string, skillId: string, failures: readonly ValidationFailure[]) => void;
}

export function selectHandler(options: SelectHandlerOptions): OperationHandler<SelectRequest, SelectOutcome, SelectOutcome> {
  return {
    async make(caller, request, receivedAt) {
      const module = await options.loader.load({ org: caller.tenant, domain: request.domain, version: request.worldModelVersion });
      if (!module.ok) return { ok: false, error: loadError(module.error.code, module.error.message) };
      const result = await runCycle(module.module, request.cycle, {
        decisionId: selectionDecisionId(caller.tenant, request.requestId),
        timestamp: new Date(receivedAt).toISOString(),
        executors: options.executors,
        memory: await memoryOf(options.store, caller.tenant, request),
        ...(options.competitorNames !== undefined && { competitorNames: options.competitorNames }),
        onAuthorityViolation: (failures, skillId) => options.authorityViolation?.(caller.tenant, skillId, failures),
      });
      if (!result.ok) return { ok: false, error: selectionError(result.error) };
      const trace = options.traceSigner === undefined ? result.trace : signTrace(result.trace, options.traceSigner, new Date());
      const decisionPackage = selectionPackage(trace);
      const outcome = { outcome: result.outcome, response: result.response, decisionId: trace.decision_id, decisionPackage, idempotentReplay: false };
      return { ok: true, value: { entry: selectionEntry(caller, request, result.outcome, trace, decisionPackage), work: outcome } };
    },
    committed: async (_caller, _request, outcome) => ({ ok: true, value: outcome }),
    async replayed(_caller, _request, record) {
      const payload = record.payload as unknown as SelectionPayload;
      return { ok: true, value: { outcome: payload.outcome, response: payload.trace.final_decision, decisionId: record.decisionId, decisionPackage: payload.decision_package ?? null, idempotentReplay: true } };
    },
    answered: (outcome, seconds) => options.selected?.(outcome.outcome, seconds),
  };
}

/** The user's memory for this scenario; a store that cannot be read gives a flagged cold start. */
async function memoryOf(store: AuditStore, tenant: string, request: SelectRequest): Promise<MemoryInput> {
  if (request.userId === null) return { status: 'none', values: {}, outcome_ids: [] };
  const read = await store.memory.read(tenant, request.userId, request.cycle.scenario);
  return read.ok ? { status: 'read', values: read.value.values, outcome_ids: read.value.outcomeIds } : { status: 'unavailable', values: {}, outcome_ids: [] };
}

/** How the engine's refusals are answered: nothing was decided, so nothing is stored. */
function selectionError(error: SelectionError): ApiError {
  switch (error.code) {
    case 'INVALID_REQUEST':
      return apiError(400, 'INVALID_REQUEST', error.message, error.problems.map((problem) => ({ path: `$.${problem.path}`, message: problem.message })));
    case 'UNKNOWN_SCENARIO':
      return apiError(404, 'UNKNOWN_SCENARIO', error.message, [{ path: '$.scenario', message: 'names no scenario of this module' }]);
    case 'MODULE_UNSUPPORTED':
      return apiError(500, 'MODULE_UNSUPPORTED', error.message);
    case 'SANDBOX_FAILURE':
      return apiError(503, 'SANDBOX_FAILURE', error.message, [], 1);
  }
}
