/**
 * The `DecisionResponse` of a selection (docs/spec/selection.md §3.9): what a client receives. The
 * selected action is the one stage 4 locked; the payload is what stages 6–8 made of the skill;
 * every degradation on the way is flagged, in the reference's fields and in `degradations`.
 */
import { Type } from '@sinclair/typebox';
import { Closed, DecisionId, Milliseconds, Nullable, OneOf, Timestamp } from './schema-kit.js';
import { ExecutionMode, Payload } from './selection-details.js';
import { FALLBACK_REASONS, UserState } from './stage-outputs.js';

/** The version of the response shapes (docs/spec/selection.md §3.9; CHANGELOG.md). */
export const API_VERSION = '2.0.0';

/**
 * Why a stage did less than it was asked, in the reference's codes: the memory could not be read
 * (`memory_unavailable`), the mapped skill is not in the module (`skill_error`), no model could
 * run an LLM skill (`executor_error`, with the stage 5 reason), a fallback ran (its reason).
 */
export const Degradation = Closed({
  stage: OneOf(['derive_state', 'resolve_skills', 'execute_skill', 'validate_output', 'fallback']),
  reason_code: OneOf(['memory_unavailable', ...FALLBACK_REASONS]),
  detail: Type.String(),
});

export const DecisionResponse = Closed(
  {
    decision: Closed({
      decision_id: DecisionId(),
      selected_action: Type.String(),
      payload: Payload,
      ranked_options: Type.Array(Closed({ action_id: Type.String(), final_score: Type.Number(), rank: Type.Integer({ minimum: 1 }) })),
    }),
    state: UserState,
    execution: Closed({
      execution_mode: ExecutionMode,
      skill_bundle_id: Type.String({ description: 'The skill whose output is the payload: the mapped one, its fallback, `null_skill` or `minimal_safe_output`' }),
      skill_version: Nullable(Type.String()),
      validation_status: OneOf(['passed', 'failed'], {
        description: '`passed`: the payload is a skill’s output that passed stage 7, or null_skill’s empty one; `failed`: no skill’s output could be used (tier 3)',
      }),
      fallback_used: Type.Boolean(),
      fallback_reason_code: Nullable(OneOf(FALLBACK_REASONS)),
      executor_id: OneOf(['llm_stub', 'deterministic', 'cloud_llm'], { description: 'The kind of executor that produced the payload; the engine’s own outputs (null_skill, the minimal safe output) are deterministic' }),
      executor_instance_id: Type.String({ description: 'adec: which one: `cloud_llm:<model>`, `llm_stub`, `deterministic`, `null_skill` or `none` (the minimal safe output)' }),
      fallback_tier: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], { description: 'adec: 1 the mapped skill, 2 its deterministic fallback, 3 the minimal safe output' }),
    }),
    audit: Closed({
      decision_id: DecisionId(),
      replay_token: Type.String(),
      scenario_id: Type.String(),
      scenario_version: Type.String(),
      scenario_hash: Type.String({ description: "The module's hash" }),
      trace_id: Type.String(),
    }),
    meta: Closed({
      request_id: Nullable(Type.String()),
      timestamp: Timestamp('Server time when the request arrived'),
      total_duration_ms: Milliseconds('The whole cycle'),
      api_version: Type.Literal(API_VERSION),
    }),
    degradations: Type.Array(Degradation, { description: 'adec: every degradation of the cycle; empty when none' }),
  },
  { description: 'docs/spec/selection.md §3.9' },
);
