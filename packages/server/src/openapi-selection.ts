/**
 * The OpenAPI schemas of what the selection operations answer (docs/spec/selection.md): the
 * `DecisionResponse` of docs/spec/selection.md §3.9, a stored selection, and a feedback receipt. Part of the document in
 * openapi.ts; their requests' schemas are the operations' (operations/select-request.ts,
 * feedback-request.ts).
 */
import { EXECUTION_MODES } from '@adec/abi';

export const decisionResponse = {
  type: 'object',
  required: ['decision', 'state', 'execution', 'audit', 'meta'],
  additionalProperties: false,
  properties: {
    decision: {
      type: 'object',
      required: ['decision_id', 'selected_action', 'payload', 'ranked_options'],
      properties: {
        decision_id: { type: 'string' },
        selected_action: { type: 'string' },
        payload: { type: 'object', description: "The skill's validated output, its fallback's, or {} (tier 3)" },
        ranked_options: { type: 'array', items: { type: 'object', required: ['action_id', 'final_score', 'rank'], properties: { action_id: { type: 'string' }, final_score: { type: 'number' }, rank: { type: 'integer' } } } },
      },
    },
    state: {
      type: 'object',
      required: ['values', 'defaults_applied', 'memory_applied', 'memory_status', 'failed_state', 'inputs_hash'],
      properties: { values: { type: 'object' }, defaults_applied: { type: 'array', items: { type: 'string' } }, memory_applied: { type: 'array', items: { type: 'string' } }, memory_status: { type: 'string', enum: ['read', 'unavailable', 'none'] }, failed_state: { type: 'array', items: { type: 'string' } }, inputs_hash: { type: 'string' } },
    },
    execution: {
      type: 'object',
      required: ['execution_mode', 'skill_bundle_id', 'skill_version', 'executor_id', 'validation_status', 'fallback_used', 'fallback_reason_code', 'fallback_tier'],
      properties: {
        execution_mode: { type: 'string', enum: EXECUTION_MODES },
        skill_bundle_id: { type: 'string' },
        skill_version: { type: ['string', 'null'] },
        executor_id: { type: 'string' },
        validation_status: { type: 'string', enum: ['passed', 'failed', 'not_run'] },
        fallback_used: { type: 'boolean' },
        fallback_reason_code: { type: ['string', 'null'], enum: ['timeout', 'executor_error', 'validation_failed', 'prohibited_content', 'mode_override', 'llm_unavailable', null] },
        fallback_tier: { type: 'integer', enum: [1, 2, 3] },
      },
    },
    audit: {
      type: 'object',
      required: ['decision_id', 'replay_token', 'scenario_id', 'scenario_version', 'scenario_hash', 'trace_id'],
      properties: { decision_id: { type: 'string' }, replay_token: { type: 'string' }, scenario_id: { type: 'string' }, scenario_version: { type: 'string' }, scenario_hash: { type: 'string' }, trace_id: { type: 'string' } },
    },
    meta: {
      type: 'object',
      required: ['request_id', 'timestamp', 'total_duration_ms', 'api_version'],
      properties: { request_id: { type: ['string', 'null'] }, timestamp: { type: 'string', format: 'date-time' }, total_duration_ms: { type: 'number' }, api_version: { type: 'string' } },
    },
  },
} as const;

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
    trace: { type: 'object', required: ['trace_id', 'decision_id', 'stages', 'content_address', 'replay_token'], description: 'The full, content-addressed trace of the nine stages' },
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
