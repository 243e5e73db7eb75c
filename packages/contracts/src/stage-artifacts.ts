/**
 * The audit artifact each stage leaves in the trace (docs/spec/selection.md §3): the reference
 * contract's summary fields, and under `output` the stage's whole output by its type name
 * (`output.DecisionRequest`, `output.RankedActions`, …), so the summary and the detail are one
 * record. A stage that did not run is `null` in the trace.
 */
import { Type, type TProperties } from '@sinclair/typebox';
import { Closed, DecisionId, Milliseconds, Nullable, OneOf, OpenObject, Sha256 } from './schema-kit.js';
import { GuardrailVerdict, PayloadHash, ValidationFailure } from './selection-details.js';
import { DecisionRequest, EligibleActions, FallbackOutput, FALLBACK_REASONS, RankedActions, SkillOutput, SkillResolution, UserState, ValidationResult } from './stage-outputs.js';

function artifact<const Name extends string, P extends TProperties>(stage: Name, fields: P, description: string) {
  return Closed({ stage: Type.Literal(stage), decision_id: DecisionId(), ...fields, duration_ms: Milliseconds('How long the stage took') }, { description });
}

export const IngestArtifact = artifact(
  'ingest',
  {
    input_hash: Sha256('sha256 of the request as received'),
    output: Closed({ DecisionRequest }),
    errors: Type.Array(Type.String(), { description: 'Always empty: an invalid request stops with no trace' }),
    raw_request: OpenObject({ description: 'adec: the request as received, what a replay runs again' }),
  },
  'Stage 1 (docs/spec/selection.md §3.1)',
);

export const DeriveStateArtifact = artifact(
  'derive_state',
  {
    input: Closed({
      signals: OpenObject({ description: 'The signals the request supplied, in module form' }),
      memory: OpenObject({ description: "The user's short-term memory as read (wire form)" }),
    }),
    output: Closed({ UserState }),
    defaults_applied: Type.Array(Type.String()),
    memory_read: Closed(
      { status: OneOf(['read', 'unavailable', 'none']), outcome_ids: Type.Array(Type.String(), { description: 'The execution outcomes that set the memory, newest first' }) },
      { description: 'adec: how the memory was read, for replay' },
    ),
  },
  'Stage 2 (docs/spec/selection.md §3.2)',
);

export const GuardrailsArtifact = artifact(
  'evaluate_guardrails',
  {
    input: Closed({ actions_count: Type.Integer({ minimum: 0 }), state_summary: Closed({ inputs_hash: Sha256('The UserState’s inputs_hash'), failed_state: Type.Array(Type.String()) }) }),
    output: Closed({ eligible_count: Type.Integer({ minimum: 0 }), rejected_count: Type.Integer({ minimum: 0 }), EligibleActions }),
    guardrails_evaluated: Type.Array(Type.String(), { description: 'Every guardrail, in declaration order' }),
    guardrails: Type.Array(GuardrailVerdict, { description: "adec: each guardrail's verdict" }),
  },
  'Stage 3 (docs/spec/selection.md §3.3)',
);

export const ScoreAndRankArtifact = artifact(
  'score_and_rank',
  {
    input: Closed({ eligible_count: Type.Integer({ minimum: 1 }) }),
    output: Closed({
      selected_action: Nullable(Type.String()),
      top_3_scores: Type.Array(Closed({ action_id: Type.String(), final_score: Type.Number() }), { maxItems: 3 }),
      execution_risk_applied: Type.Boolean({ description: 'Some candidate’s score carries an execution-risk penalty' }),
      RankedActions,
    }),
    selection_locked: Type.Boolean(),
  },
  'Stage 4 (docs/spec/selection.md §3.4)',
);

export const ResolveSkillsArtifact = artifact(
  'resolve_skills',
  {
    input: Closed({ selected_action: Type.String(), capabilities: UserState.properties.execution_capabilities }),
    output: Closed({ skill_bundle_id: Type.String(), execution_mode: SkillResolution.properties.execution_mode, SkillResolution }),
  },
  'Stage 5 (docs/spec/selection.md §3.5)',
);

export const ExecuteSkillArtifact = artifact(
  'execute_skill',
  {
    input: Closed({ skill_bundle_id: Type.String(), execution_mode: SkillOutput.properties.execution_mode }),
    output: Closed({ payload_hash: Nullable(PayloadHash), executor_id: Type.String(), SkillOutput }),
    timeout_occurred: Type.Boolean(),
  },
  'Stage 6 (docs/spec/selection.md §3.6)',
);

export const ValidateOutputArtifact = artifact(
  'validate_output',
  {
    input: Closed({ payload_hash: Nullable(PayloadHash) }),
    output: Closed({ valid: Type.Boolean(), checks_passed: ValidationResult.properties.checks_passed, checks_failed: ValidationResult.properties.checks_failed, ValidationResult }),
  },
  'Stage 7 (docs/spec/selection.md §3.7)',
);

export const FallbackArtifact = artifact(
  'fallback',
  {
    trigger_reason: OneOf(FALLBACK_REASONS),
    original_validation_errors: Type.Array(ValidationFailure),
    fallback_skill_id: Nullable(Type.String()),
    output: Closed({ payload_hash: PayloadHash, FallbackOutput }),
  },
  'Stage 8 (docs/spec/selection.md §3.8)',
);

export const AuditAndReplayArtifact = artifact(
  'audit_and_replay',
  {
    output: Closed({ trace_id: Type.String(), replay_token: Type.String() }),
  },
  'Stage 9 (docs/spec/selection.md §3.9): storing the trace is the service’s part, before it answers',
);

export const StageArtifacts = Closed({
  ingest: IngestArtifact,
  derive_state: DeriveStateArtifact,
  evaluate_guardrails: GuardrailsArtifact,
  score_and_rank: Nullable(ScoreAndRankArtifact, { description: 'null when no candidate was eligible' }),
  resolve_skills: Nullable(ResolveSkillsArtifact),
  execute_skill: Nullable(ExecuteSkillArtifact),
  validate_output: Nullable(ValidateOutputArtifact),
  fallback: Nullable(FallbackArtifact),
  audit_and_replay: AuditAndReplayArtifact,
});
