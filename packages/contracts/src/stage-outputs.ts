/**
 * What each stage of a selection produces (docs/spec/selection.md §3), in the reference
 * contract's field names, nesting and value sets, then adec's extension fields, each said to be
 * one in its description (docs/spec/contracts.md 1.3).
 */
import { Type } from '@sinclair/typebox';
import { Closed, DecisionId, Milliseconds, Nullable, OneOf, OpenObject, Sha256, Timestamp } from './schema-kit.js';
import {
  ActionScore,
  CandidateAction,
  ExecutionMode,
  ExecutionRisk,
  ModelOutcome,
  Payload,
  PayloadHash,
  RankingDetail,
  SelectionBasis,
  SkillOutputMetadata,
  ValidationCheck,
  ValidationFailure,
} from './selection-details.js';

/** Stage 1: the request, checked against the scenario and completed. */
export const DecisionRequest = Closed(
  {
    decision_id: DecisionId(),
    request_id: Nullable(Type.String(), { description: "The client's id for the request (its idempotency key); null when it sent none" }),
    scenario_id: Type.String(),
    scenario_version: Type.String(),
    user_id: Nullable(Type.String(), { description: 'Whose decision it is; null when the request names no user (no memory is read)' }),
    platform_id: Type.String({ description: 'Who asked: the request’s platform_id, else the org (tenant) of the module' }),
    timestamp: Timestamp('Server time when the request arrived'),
    execution_mode_override: Nullable(ExecutionMode),
    context: Closed({
      available_actions: Type.Array(CandidateAction),
      signals: OpenObject({ description: 'Every signal of the scenario, in module form (timestamps and durations in ms)' }),
      platform_constraints: Closed({ conditions: Type.Array(Type.String(), { description: 'Platform conditions present now (`offline_mode`, …), without duplicates' }) }),
    }),
    execution_mode: ExecutionMode,
    defaults_applied: Type.Array(Type.String(), { description: 'adec: signals not supplied that took their declared default' }),
    memory_applied: Type.Array(Type.String(), { description: "adec: signals not supplied that were taken from the user's short-term memory" }),
  },
  { description: 'Stage 1 output (docs/spec/selection.md §3.1); `execution_mode`, `defaults_applied` and `memory_applied` are adec’s' },
);

/** Stage 2: the user's state. */
export const UserState = Closed(
  {
    state_version: Type.String(),
    core: OpenObject({ description: 'Engine-wide state dimensions: adec defines none, so it is always empty' }),
    scenario_extensions: OpenObject({ description: "The scenario's dimensions: every signal and every derived state value, by name" }),
    execution_capabilities: Closed({
      llm_available: Type.Boolean({ description: 'An LLM executor is available and no reported condition takes the model away' }),
      max_latency_ms: Type.Integer({ description: "The hard limit of a whole selection in this execution mode" }),
      offline_mode: Type.Boolean(),
    }),
    computed_at: Timestamp('When the state was derived (the decision timestamp: derivation has no clock of its own)'),
    inputs_hash: Sha256('sha256 of the normalized signals, candidates, conditions and execution mode: what a replay must reproduce'),
    defaults_applied: Type.Array(Type.String(), { description: 'adec: signals that took their declared default' }),
    memory_applied: Type.Array(Type.String(), { description: "adec: signals taken from the user's short-term memory" }),
    memory_status: OneOf(['read', 'unavailable', 'none'], { description: 'adec: `unavailable`: memory could not be read, cold-start defaults were used (a degradation)' }),
    failed_state: Type.Array(Type.String(), { description: 'adec: state values whose derivation threw (absent from scenario_extensions)' }),
  },
  { description: 'Stage 2 output (docs/spec/selection.md §3.2)' },
);

/** Stage 3. */
export const EligibleActions = Closed(
  {
    eligible: Type.Array(Closed({ action_id: Type.String(), passed_guardrails: Type.Array(Type.String()) }), { description: 'In request order' }),
    rejected: Type.Array(Closed({ action_id: Type.String(), violated_guardrails: Type.Array(Type.String()) }), { description: 'In request order' }),
  },
  { description: 'Stage 3 output (docs/spec/selection.md §3.3)' },
);

/** Stage 4: where the selection locks. */
export const RankedActions = Closed(
  {
    ranked: Type.Array(
      Closed({
        action_id: Type.String(),
        final_score: Type.Number(),
        score_breakdown: Closed({
          objective_scores: Type.Record(Type.String(), Type.Number(), { description: "Each objective's weighted contribution" }),
          execution_risk_penalty: Type.Number(),
        }),
        rank: Type.Integer({ minimum: 1 }),
        ranking: RankingDetail,
      }),
      { description: 'Best first; empty when scoring failed' },
    ),
    selected_action: Nullable(Type.String(), { description: 'The first of `ranked`; null when scoring failed' }),
    selection_locked_at: Nullable(Timestamp('When stage 4 locked the selection; null when it did not')),
    status: OneOf(['SELECTED', 'SCORING_FAILED'], { description: 'adec' }),
    selection_basis: SelectionBasis,
    execution_risk: ExecutionRisk,
    scores: Type.Array(ActionScore, { description: "adec: every eligible candidate's breakdown, in request order (failed ones too)" }),
  },
  { description: 'Stage 4 output (docs/spec/selection.md §3.4)' },
);

export const RESOLUTION_REASONS = ['default', 'mode_override', 'llm_unavailable'] as const;

/** Stage 5. */
export const SkillResolution = Closed(
  {
    selected_action: Type.String(),
    skill_bundle_id: Type.String({ description: 'The skill stage 6 runs: the mapped one, its deterministic fallback in its place, or `null_skill`' }),
    skill_version: Nullable(Type.String()),
    execution_mode: ExecutionMode,
    fallback_skill_id: Nullable(Type.String({ description: 'The deterministic skill stage 8 runs if this one fails' })),
    resolution_reason: OneOf(RESOLUTION_REASONS),
    mapped_skill_id: Nullable(Type.String(), { description: "adec: the skill the action type maps to; null when it maps to none" }),
    executor_id: Type.String({ description: 'adec' }),
    skill_found: Type.Boolean({ description: 'adec: false when the mapped skill is not in the module (it degrades to null_skill, flagged `skill_error`)' }),
  },
  { description: 'Stage 5 output (docs/spec/selection.md §3.5)' },
);

export const EXECUTION_STATUSES = ['completed', 'timeout', 'executor_error'] as const;

/** Stage 6. */
export const SkillOutput = Closed(
  {
    skill_bundle_id: Type.String(),
    skill_version: Type.String(),
    execution_mode: ExecutionMode,
    payload: Type.Unknown({ description: 'The parsed output (an object when well formed), the model’s text when it was not JSON, or null' }),
    metadata: Nullable(SkillOutputMetadata, { description: 'The output envelope’s metadata; null when the skill produced nothing' }),
    execution_duration_ms: Milliseconds('How long the skill ran'),
    executor_id: Type.String(),
    status: OneOf(EXECUTION_STATUSES, { description: 'adec' }),
    message: Nullable(Type.String(), { description: 'adec: why it did not complete' }),
    template: Nullable(Type.String(), { description: 'adec: the deterministic template used' }),
    prompt: Nullable(Type.String(), { description: 'adec: the prompt an LLM skill sent' }),
    model_outcome: Nullable(ModelOutcome),
    payload_hash: Nullable(PayloadHash),
    time_limit_ms: Milliseconds('adec'),
  },
  { description: 'Stage 6 output (docs/spec/selection.md §3.6)' },
);

export const FALLBACK_REASONS = ['timeout', 'validation_failed', 'skill_error', 'executor_error', 'prohibited_content', 'mode_override'] as const;

/** Stage 7. */
export const ValidationResult = Closed(
  {
    valid: Type.Boolean(),
    checks_passed: Type.Array(ValidationCheck),
    checks_failed: Type.Array(ValidationCheck),
    validation_duration_ms: Milliseconds('How long validation took'),
    failures: Type.Array(ValidationFailure, { description: 'adec: every failure of every check' }),
    reason_code: Nullable(OneOf(['validation_failed', 'prohibited_content']), { description: 'adec: the fallback reason a failure gives' }),
  },
  { description: 'Stage 7 output (docs/spec/selection.md §3.7)' },
);

/** Stage 8. */
export const FallbackOutput = Closed(
  {
    fallback_used: Type.Literal(true),
    fallback_reason_code: OneOf(FALLBACK_REASONS),
    fallback_skill_id: Nullable(Type.String(), { description: 'The deterministic skill tried at tier 2; null when there was none' }),
    payload: Payload,
    tier: Type.Union([Type.Literal(2), Type.Literal(3)], { description: 'adec: 2 the deterministic fallback skill, 3 the minimal safe output' }),
    tier_2_failure: Nullable(Type.String(), { description: 'adec: why tier 2 was not used' }),
    execution: Nullable(SkillOutput, { description: "adec: the fallback skill's run" }),
    validation: Nullable(ValidationResult, { description: "adec: the fallback skill's validation" }),
  },
  { description: 'Stage 8 output (docs/spec/selection.md §3.8)' },
);

export { Payload, PayloadHash, Sha256 };
