/**
 * The `DecisionResponse` of docs/spec/selection.md §3.9 (stage 9): what a client of a selection
 * receives, as @adec/contracts states it. The selected action is the one stage 4 locked; the
 * payload is whatever stages 6–8 made of the skill; every degradation is flagged, in the
 * reference's fields (`fallback_used`, `fallback_reason_code`) and in `degradations`.
 */
import { API_VERSION, type DecisionResponse as DecisionResponseSchema, type Degradation as DegradationSchema, type Wire } from '@adec/contracts';
import { MINIMAL_SAFE_PAYLOAD } from '../skills/fallback.js';
import { NULL_SKILL } from '../skills/resolve-skill.js';
import type { CycleRecord, SkillStages } from './cycle-record.js';

export { API_VERSION };
export type DecisionResponse = Wire<typeof DecisionResponseSchema>;
export type Degradation = Wire<typeof DegradationSchema>;

export function assembleResponse(record: CycleRecord, stages: SkillStages, audit: { readonly replayToken: string; readonly traceId: string; readonly totalMs: number }): DecisionResponse {
  const { selection } = record;
  const producer = producerOf(stages);
  return {
    decision: {
      decision_id: record.decisionId,
      selected_action: stages.locked.action_id,
      payload: producer.payload,
      ranked_options: selection.stages.score_and_rank.ranking.map((ranked) => ({ action_id: ranked.action_id, final_score: ranked.final_score, rank: ranked.rank })),
    },
    state: record.userState,
    execution: {
      execution_mode: stages.resolved.resolution.execution_mode,
      skill_bundle_id: producer.skillId,
      skill_version: producer.skillVersion,
      validation_status: producer.tier === 3 ? 'failed' : 'passed',
      fallback_used: producer.reason !== null,
      fallback_reason_code: producer.reason,
      executor_id: producer.executorType,
      fallback_tier: producer.tier,
      executor_instance_id: producer.executorId,
    },
    audit: {
      decision_id: record.decisionId,
      replay_token: audit.replayToken,
      scenario_id: selection.scenario,
      scenario_version: selection.scenario_version,
      scenario_hash: selection.module.module_hash,
      trace_id: audit.traceId,
    },
    meta: { request_id: record.requestId, timestamp: record.timestamp, total_duration_ms: audit.totalMs, api_version: API_VERSION },
    degradations: degradationsOf(record, stages),
  };
}

interface Producer {
  readonly payload: DecisionResponse['decision']['payload'];
  readonly skillId: string;
  readonly skillVersion: string | null;
  readonly executorId: string;
  readonly executorType: DecisionResponse['execution']['executor_id'];
  readonly tier: DecisionResponse['execution']['fallback_tier'];
  readonly reason: DecisionResponse['execution']['fallback_reason_code'];
}

/** Which skill's output the response carries, and why when it is not the mapped skill's own. */
function producerOf(stages: SkillStages): Producer {
  const { resolution, skill } = stages.resolved;
  const { fallback } = stages;
  if (fallback?.tier === 3) return { payload: fallback.payload, skillId: 'minimal_safe_output', skillVersion: null, executorId: 'none', executorType: 'deterministic', tier: 3, reason: fallback.fallback_reason_code };
  if (fallback?.tier === 2) return { payload: fallback.payload, skillId: fallback.fallback_skill_id!, skillVersion: fallback.execution?.skill_version ?? null, executorId: 'deterministic', executorType: 'deterministic', tier: 2, reason: fallback.fallback_reason_code };
  const base: Omit<Producer, 'tier' | 'reason'> = {
    payload: (stages.execution?.payload ?? MINIMAL_SAFE_PAYLOAD) as DecisionResponse['decision']['payload'],
    skillId: resolution.skill_bundle_id,
    skillVersion: resolution.skill_version,
    executorId: resolution.executor_id,
    executorType: stages.resolved.executor?.type ?? 'deterministic',
  };
  // A mapped skill the module lacks gives null_skill's empty payload: degraded (docs/spec/selection.md 3.5.3).
  if (!resolution.skill_found) return { ...base, tier: 3, reason: 'skill_error' };
  // Running the deterministic fallback in the LLM skill's place is a fallback too (docs/spec/skill-contract.md §6);
  // with none to run, the payload is null_skill's empty one.
  const substituted = resolution.resolution_reason === 'mode_override' ? 'mode_override' : resolution.resolution_reason === 'llm_unavailable' ? 'executor_error' : null;
  if (substituted === null) return { ...base, tier: 1, reason: null };
  return { ...base, tier: skill === null ? 3 : 2, reason: substituted };
}

/** Every degradation of the cycle, in stage order (docs/spec/selection.md §6). */
function degradationsOf(record: CycleRecord, stages: SkillStages): Degradation[] {
  const { resolution } = stages.resolved;
  const found: Degradation[] = [];
  if (record.memory.status === 'unavailable') found.push({ stage: 'derive_state', reason_code: 'memory_unavailable', detail: "the user's short-term memory could not be read: cold-start defaults were used" });
  if (!resolution.skill_found) found.push({ stage: 'resolve_skills', reason_code: 'skill_error', detail: `skill \`${resolution.mapped_skill_id}\` is not in the module: ${NULL_SKILL} gives an empty payload` });
  if (resolution.resolution_reason === 'llm_unavailable') {
    found.push({ stage: 'resolve_skills', reason_code: 'executor_error', detail: `no model could run skill \`${resolution.mapped_skill_id}\` (no executor available, or a reported condition takes the model away): ${stages.resolved.skill === null ? `${NULL_SKILL} ran in its place` : `its deterministic fallback \`${resolution.skill_bundle_id}\` ran in its place`}` });
  }
  const execution = stages.execution;
  if (execution !== null && execution.status !== 'completed') found.push({ stage: 'execute_skill', reason_code: execution.status, detail: execution.message ?? execution.status });
  const validation = stages.validation;
  if (validation?.reason_code != null) found.push({ stage: 'validate_output', reason_code: validation.reason_code, detail: validation.failures.map((failure) => `${failure.id} at ${failure.path}`).join(', ') });
  if (stages.fallback?.tier === 3) found.push({ stage: 'fallback', reason_code: stages.fallback.fallback_reason_code, detail: stages.fallback.tier_2_failure ?? 'the minimal safe output was used' });
  return found;
}
