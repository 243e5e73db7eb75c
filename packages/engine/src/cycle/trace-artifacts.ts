/**
 * The nine stage artifacts of the trace (docs/spec/selection.md §3), each in the reference's
 * audit-artifact fields with the stage's whole output under `output.<TypeName>`
 * (@adec/contracts stage-artifacts.ts), made from the cycle's record once the cycle is over.
 */
import type { StageArtifacts as StageArtifactsSchema, Wire } from '@adec/contracts';
import { jsonDigest } from '../json-digest.js';
import type { CycleRecord, SkillStages } from './cycle-record.js';

export type StageArtifacts = Wire<typeof StageArtifactsSchema>;

const TOP_SCORES_SHOWN = 3;

export function stageArtifacts(record: CycleRecord, stages: SkillStages | null, audit: { readonly traceId: string; readonly replayToken: string; readonly durationMs: number }): StageArtifacts {
  const { selection, normalized, decisionId: decision_id } = record;
  const { derive_state: derived, evaluate_guardrails: guardrails, score_and_rank: scored } = selection.stages;
  const guardrailIds = guardrails.guardrails.map((guardrail) => guardrail.id);
  const eligible = guardrails.eligible.map((action_id) => ({ action_id, passed_guardrails: guardrailIds }));
  return {
    ingest: {
      stage: 'ingest',
      decision_id,
      input_hash: record.inputHash,
      output: { DecisionRequest: decisionRequest(record) },
      errors: [],
      raw_request: { ...record.rawRequest },
      duration_ms: record.ingestMs,
    },
    derive_state: {
      stage: 'derive_state',
      decision_id,
      input: { signals: suppliedSignals(record), memory: record.memory.values },
      output: { UserState: record.userState },
      defaults_applied: derived.defaults_applied,
      memory_read: { status: record.memory.status, outcome_ids: record.memory.outcome_ids },
      duration_ms: selection.timings.derive_state_ms,
    },
    evaluate_guardrails: {
      stage: 'evaluate_guardrails',
      decision_id,
      input: { actions_count: normalized.actions.length, state_summary: { inputs_hash: record.userState.inputs_hash, failed_state: derived.failed_state } },
      output: { eligible_count: eligible.length, rejected_count: guardrails.rejected.length, EligibleActions: { eligible, rejected: guardrails.rejected } },
      guardrails_evaluated: guardrailIds,
      guardrails: guardrails.guardrails,
      duration_ms: selection.timings.evaluate_guardrails_ms,
    },
    score_and_rank:
      selection.status === 'NO_ELIGIBLE_ACTIONS'
        ? null
        : {
            stage: 'score_and_rank',
            decision_id,
            input: { eligible_count: eligible.length },
            output: {
              selected_action: selection.selected_action,
              top_3_scores: scored.ranking.slice(0, TOP_SCORES_SHOWN).map((ranked) => ({ action_id: ranked.action_id, final_score: ranked.final_score })),
              execution_risk_applied: scored.scores.some((score) => score.execution_risk_penalty !== 0),
              RankedActions: {
                ranked: scored.ranking.map((ranked) => {
                  const score = scored.scores.find((candidate) => candidate.action_id === ranked.action_id)!;
                  return {
                    action_id: ranked.action_id,
                    final_score: ranked.final_score,
                    score_breakdown: { objective_scores: Object.fromEntries(score.objectives.map((objective) => [objective.name, objective.contribution ?? 0])), execution_risk_penalty: score.execution_risk_penalty },
                    rank: ranked.rank,
                    ranking: { tie_break_keys: ranked.tie_break_keys, ahead_of_next: ranked.ahead_of_next },
                  };
                }),
                selected_action: selection.selected_action,
                selection_locked_at: selection.selected_action === null ? null : new Date(Date.parse(record.timestamp) + record.lockedAfterMs).toISOString(),
                status: selection.status === 'SELECTED' ? 'SELECTED' : 'SCORING_FAILED',
                selection_basis: scored.selection_basis,
                execution_risk: scored.execution_risk,
                scores: scored.scores,
              },
            },
            selection_locked: selection.selected_action !== null,
            duration_ms: selection.timings.score_and_rank_ms,
          },
    ...skillArtifacts(decision_id, record, stages),
    audit_and_replay: {
      stage: 'audit_and_replay',
      decision_id,
      output: { trace_id: audit.traceId, replay_token: audit.replayToken },
      duration_ms: audit.durationMs,
    },
  };
}

function decisionRequest(record: CycleRecord): StageArtifacts['ingest']['output']['DecisionRequest'] {
  const { normalized, rawRequest, selection } = record;
  return {
    decision_id: record.decisionId,
    request_id: record.requestId,
    scenario_id: selection.scenario,
    scenario_version: selection.scenario_version,
    user_id: rawRequest.user_id ?? null,
    platform_id: rawRequest.platform_id ?? selection.module.org,
    timestamp: record.timestamp,
    execution_mode_override: rawRequest.execution_mode_override ?? null,
    context: { available_actions: normalized.actions, signals: normalized.signals, platform_constraints: { conditions: normalized.conditions } },
    execution_mode: normalized.execution_mode,
    defaults_applied: normalized.defaults_applied,
    memory_applied: normalized.memory_applied,
  };
}

/** The signals the request itself supplied (not defaulted, not remembered), in module form. */
function suppliedSignals(record: CycleRecord): Readonly<Record<string, unknown>> {
  const filled = new Set([...record.normalized.defaults_applied, ...record.normalized.memory_applied]);
  return Object.fromEntries(Object.entries(record.normalized.signals).filter(([name]) => !filled.has(name)));
}

type SkillArtifacts = Pick<StageArtifacts, 'resolve_skills' | 'execute_skill' | 'validate_output' | 'fallback'>;

function skillArtifacts(decision_id: string, record: CycleRecord, stages: SkillStages | null): SkillArtifacts {
  if (stages === null) return { resolve_skills: null, execute_skill: null, validate_output: null, fallback: null };
  const { resolution } = stages.resolved;
  const { execution, validation, fallback } = stages;
  return {
    resolve_skills: {
      stage: 'resolve_skills',
      decision_id,
      input: { selected_action: resolution.selected_action, capabilities: record.userState.execution_capabilities },
      output: { skill_bundle_id: resolution.skill_bundle_id, execution_mode: resolution.execution_mode, SkillResolution: resolution },
      duration_ms: stages.durations.resolve_skills,
    },
    execute_skill:
      execution === null
        ? null
        : {
            stage: 'execute_skill',
            decision_id,
            input: { skill_bundle_id: execution.skill_bundle_id, execution_mode: execution.execution_mode },
            output: { payload_hash: execution.payload_hash, executor_id: execution.executor_id, SkillOutput: execution },
            timeout_occurred: execution.status === 'timeout',
            duration_ms: execution.execution_duration_ms,
          },
    validate_output:
      validation === null
        ? null
        : {
            stage: 'validate_output',
            decision_id,
            input: { payload_hash: execution?.payload_hash ?? null },
            output: { valid: validation.valid, checks_passed: validation.checks_passed, checks_failed: validation.checks_failed, ValidationResult: validation },
            duration_ms: validation.validation_duration_ms,
          },
    fallback:
      fallback === null
        ? null
        : {
            stage: 'fallback',
            decision_id,
            trigger_reason: fallback.fallback_reason_code,
            original_validation_errors: validation?.failures ?? [],
            fallback_skill_id: fallback.fallback_skill_id,
            output: { payload_hash: jsonDigest(fallback.payload), FallbackOutput: fallback },
            duration_ms: stages.durations.fallback,
          },
  };
}
