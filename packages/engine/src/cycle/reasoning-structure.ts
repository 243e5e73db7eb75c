/**
 * The reasoning trace's `structure` (docs/spec/contracts.md §4): the graph of what one
 * selection evaluated, read from the stage artifacts it recorded, so the graph can say nothing
 * the trace does not. Inputs (the request, the memory, the derived state) feed the guardrails,
 * which constrain the ranking; the ranking locks the selection and feeds the model consulted
 * for the skill, whose output the validation checks judge; they decide which payload tier is
 * returned. Every edge points forward in that order, so the graph is acyclic by construction.
 */
import type { ConfidenceNode, ConsultationNode, ContextNode, ReasoningStructure as ReasoningStructureSchema, RuleNode, SynthesisNode, ValidationResult, Wire } from '@adec/contracts';
import { jsonDigest } from '../json-digest.js';
import type { ReasoningTrace } from './reasoning-trace.js';

export type ReasoningStructure = Wire<typeof ReasoningStructureSchema>;

type Edge = ReasoningStructure['edges'][number];

/** What the structure is read from: the trace as the cycle made it. */
export type StructureBasis = Pick<ReasoningTrace, 'stages' | 'redaction_info' | 'final_decision' | 'scenario_version'>;

const REQUEST = 'context:request';
const MEMORY = 'context:memory';
const USER_STATE = 'context:user_state';
const RANKING = 'synthesis:ranking';
const PAYLOAD = 'synthesis:payload';

export function reasoningStructure(trace: StructureBasis): ReasoningStructure {
  const { stages } = trace;
  const edges: Edge[] = [];
  const link = (from: string, to: string) => edges.push({ from, to });

  const state = stages.derive_state.output.UserState;
  const memoryRead = stages.derive_state.memory_read.status === 'read';
  const contextNodes: Wire<typeof ContextNode>[] = [
    { node_id: REQUEST, source: 'request', context_id: stages.ingest.input_hash, version: trace.scenario_version },
    ...(memoryRead ? [{ node_id: MEMORY, source: 'memory' as const, context_id: jsonDigest(stages.derive_state.input.memory), version: trace.scenario_version }] : []),
    { node_id: USER_STATE, source: 'user_state', context_id: state.inputs_hash, version: state.state_version },
  ];
  link(REQUEST, USER_STATE);
  if (memoryRead) link(MEMORY, USER_STATE);

  const guardrails = stages.evaluate_guardrails.guardrails.map((guardrail): Wire<typeof RuleNode> => ({
    node_id: `rule:guardrail:${guardrail.id}`,
    rule_id: guardrail.id,
    rule_version: trace.scenario_version,
    kind: 'guardrail',
    fired: guardrail.fired,
    reason: guardrail.fired
      ? `${guardrail.description}: held, ${guardrail.affected_actions.length === 0 ? 'ruling out no candidate' : `ruling out ${guardrail.affected_actions.join(', ')}`}`
      : `${guardrail.description}: did not hold`,
  }));
  for (const node of guardrails) link(USER_STATE, node.node_id);

  const ranked = stages.score_and_rank?.output.RankedActions ?? null;
  const synthesisNodes: Wire<typeof SynthesisNode>[] = [];
  const confidenceNodes: Wire<typeof ConfidenceNode>[] = [];
  if (ranked !== null) {
    const [first] = ranked.scores;
    synthesisNodes.push({
      node_id: RANKING,
      kind: 'ranking',
      weights: { ...Object.fromEntries((first?.objectives ?? []).map((objective) => [objective.name, objective.weight])), execution_risk: ranked.execution_risk.weight },
      constraints: guardrails.filter((node) => node.fired).map((node) => node.rule_id),
      utilities: ranked.scores.map((score) => ({ option: score.action_id, utility: score.final_score })),
      result: ranked.selected_action,
    });
    link(USER_STATE, RANKING);
    for (const node of guardrails) link(node.node_id, RANKING);
    confidenceNodes.push(selectionConfidence(ranked.ranked));
    link(RANKING, confidenceNodes[0]!.node_id);
  }

  const execution = stages.execute_skill?.output.SkillOutput ?? null;
  const consultationNodes: Wire<typeof ConsultationNode>[] = [];
  if (execution !== null && (execution.prompt !== null || execution.model_outcome !== null)) {
    consultationNodes.push({
      node_id: `consultation:${execution.skill_bundle_id}`,
      provider: execution.executor_id,
      skill_id: execution.skill_bundle_id,
      skill_version: execution.skill_version,
      prompt: execution.prompt,
      redactions: trace.redaction_info ?? { withheld_action_fields: [], withheld_state: [] },
      outcome: execution.model_outcome?.kind ?? 'not_asked',
      consensus: null,
    });
    link(RANKING, consultationNodes[0]!.node_id);
    link(USER_STATE, consultationNodes[0]!.node_id);
  }

  const fallback = stages.fallback?.output.FallbackOutput ?? null;
  const checks = [
    ...validationNodes('validation', stages.validate_output?.output.ValidationResult ?? null, trace.scenario_version),
    ...validationNodes('validation:fallback', fallback?.validation ?? null, trace.scenario_version),
  ];
  for (const node of checks) link(consultationNodes[0]?.node_id ?? RANKING, node.node_id);

  const answered = trace.final_decision?.execution ?? null;
  if (answered !== null) {
    synthesisNodes.push({
      node_id: PAYLOAD,
      kind: 'payload',
      weights: {},
      constraints: checks.filter((node) => node.fired).map((node) => node.node_id.slice('rule:'.length)),
      utilities: [],
      result: `tier_${answered.fallback_tier}`,
    });
    link(RANKING, PAYLOAD);
    for (const node of checks) link(node.node_id, PAYLOAD);
  }

  return { context_nodes: contextNodes, rule_nodes: [...guardrails, ...checks], consultation_nodes: consultationNodes, synthesis_nodes: synthesisNodes, confidence_nodes: confidenceNodes, edges };
}

/** Each check of one validation, as a rule node that fires when the check failed. */
function validationNodes(prefix: string, validation: Wire<typeof ValidationResult> | null, version: string): Wire<typeof RuleNode>[] {
  if (validation === null) return [];
  return [...validation.checks_passed, ...validation.checks_failed].map((check) => {
    const failures = validation.failures.filter((failure) => failure.check === check);
    return {
      node_id: `rule:${prefix}:${check}`,
      rule_id: check,
      rule_version: version,
      kind: 'validation_check',
      fired: failures.length > 0,
      reason: failures.length === 0 ? 'passed' : `failed: ${failures.map((failure) => `${failure.id} at ${failure.path}`).join(', ')}`,
    };
  });
}

/** adec does not calibrate: the honest figure is the selected action's lead over the next one. */
function selectionConfidence(ranked: readonly { readonly final_score: number }[]): Wire<typeof ConfidenceNode> {
  const [first, second] = ranked;
  return {
    node_id: 'confidence:selection',
    calibration_method: 'uncalibrated_score_margin',
    value: first === undefined || second === undefined ? null : Math.round((first.final_score - second.final_score) * 1e9) / 1e9,
    notes: 'The selected action’s lead over the next candidate’s final score; null when it was the only one ranked. It is not a probability.',
  };
}
