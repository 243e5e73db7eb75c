/**
 * The OpenAPI schemas of what the selection operations answer (docs/spec/selection.md) beyond
 * the contracts of @adec/contracts (the `DecisionResponse` and the trace, served under their own
 * names): a stored selection and a feedback receipt. Part of the document in openapi.ts; their
 * requests' schemas are the operations' (operations/select-request.ts; feedback's is the contract
 * ExecutionOutcomePackage).
 */

export const storedSelection = {
  type: 'object',
  required: ['decision_id', 'kind', 'recorded_at', 'chain', 'request', 'caller', 'module_hash', 'outcome', 'response', 'trace'],
  additionalProperties: false,
  properties: {
    decision_id: { type: 'string' },
    kind: { type: 'string', enum: ['selection'] },
    recorded_at: { type: 'string', format: 'date-time' },
    chain: { type: 'object', required: ['seq', 'hash', 'prev_hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' }, prev_hash: { type: 'string' } } },
    request: { type: 'object' },
    caller: { type: 'object' },
    module_hash: { type: 'string' },
    outcome: { type: 'string', enum: ['decided', 'no_eligible_actions', 'scoring_failed'] },
    response: { oneOf: [{ $ref: '#/components/schemas/DecisionResponse' }, { type: 'null' }] },
    trace: { $ref: '#/components/schemas/SelectionTrace' },
  },
} as const;

export const feedbackReceipt = {
  type: 'object',
  required: ['outcome_id', 'decision_id', 'recorded_at', 'chain', 'memory', 'idempotent_replay'],
  additionalProperties: false,
  properties: {
    outcome_id: { type: 'string' },
    decision_id: { type: 'string' },
    recorded_at: { type: 'string', format: 'date-time' },
    chain: { type: 'object', required: ['seq', 'hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' } } },
    memory: { oneOf: [{ type: 'null' }, { type: 'object', required: ['user_id', 'scenario', 'signals'], properties: { user_id: { type: 'string' }, scenario: { type: 'string' }, signals: { type: 'array', items: { type: 'string' } } } }] },
    idempotent_replay: { type: 'boolean' },
  },
} as const;
