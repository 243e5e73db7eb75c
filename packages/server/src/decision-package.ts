/**
 * The Decision Package v1 of each kind of decision (docs/spec/contracts.md §2): what an executor
 * is handed to carry the decision out. Both are read from what the decision recorded (an
 * adjudication's request and answer, a selection's trace), so the package can say nothing its
 * record does not. A selection's is stored beside its trace; an adjudication's is made from its
 * record when asked for, which keeps it off the decide path (one safety assertion per rule would
 * nearly double the record's serialization for an action of many rules).
 */
import { createRequire } from 'node:module';
import { DECISION_PACKAGE_SCHEMA_VERSION, type DecisionPackage as DecisionPackageSchema, type Wire } from '@adec/contracts';
import type { AddressedTrace } from '@adec/engine';
import type { AdjudicationPayload } from './decision-record.js';

export type DecisionPackage = Wire<typeof DecisionPackageSchema>;

/** The version of adec that decided (`references.DER_version`). */
const ADEC_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const UNCALIBRATED = {
  calibration_method: 'none',
  band: 'deterministic',
  notes: 'The decision is a deterministic function of its inputs and module; adec states no probability that it is right.',
};

/** An adjudication's package: it approves (GREEN, GREEN-SKIP), routes to a person (YELLOW) or denies (RED) the action asked about. */
export function adjudicationPackage(record: Pick<AdjudicationPayload, 'request' | 'inputs_hash' | 'response'>): DecisionPackage {
  const { request, response: decision } = record;
  const { status, work_frame: frame, decision_metadata: metadata } = decision;
  const winning = metadata.matched_rule_outcomes.find((rule) => rule.rule_id === metadata.aggregation_outcome.winning_rule);
  return {
    decision_id: metadata.request_id,
    schema_version: DECISION_PACKAGE_SCHEMA_VERSION,
    task_id: request.request_id ?? metadata.request_id,
    timestamp: metadata.request_time,
    decision_type: status === 'RED' ? 'deny' : status === 'YELLOW' ? 'route' : 'approve',
    selected_action: { name: request.action, parameters: request.context, preconditions: frame.missing_evidence, expected_effects: frame.required_output },
    safety_assertions: metadata.predicate_traces.map((trace) => ({ invariant_id: trace.rule_id, parameters: { result: trace.result } })),
    confidence_score: null,
    confidence_interpretation: UNCALIBRATED,
    risk_tier: winning === undefined ? 'T0' : (winning.severity.toUpperCase() as DecisionPackage['risk_tier']),
    abstain_threshold: null,
    human_review_required: status === 'YELLOW' || frame.next_human_owner !== null,
    escalation_route: frame.next_human_owner === null ? null : { contact: frame.next_human_owner, SLA: null },
    alternatives: [],
    reasoning_trace_ref: `/v1/decisions/${metadata.request_id}`,
    references: { context_id: record.inputs_hash, rule_output_id: null, world_version_id: metadata.module.module_hash, CET_version: null, Ruleset_version: metadata.module.version, DER_version: ADEC_VERSION },
    consultations: [],
    budgets: { time: null, cost: null },
    policy_requirements: [`mode: ${frame.mode}`, ...frame.allowed_actions.map((action) => `allowed: ${action}`), ...frame.forbidden_actions.map((action) => `forbidden: ${action}`)],
    adec: { kind: 'adjudication', status, payload: null },
  };
}

/** A selection's package: it chooses the candidate stage 4 locked; null when nothing was chosen (422, 500). */
export function selectionPackage(trace: AddressedTrace): DecisionPackage | null {
  const response = trace.final_decision;
  const ranked = trace.stages.score_and_rank?.output.RankedActions;
  if (response === null || ranked === undefined) return null;
  const selected = response.decision.selected_action;
  const { action_id: _id, ...parameters } = trace.stages.ingest.output.DecisionRequest.context.available_actions.find((action) => action.action_id === selected) ?? { action_id: selected };
  const eligible = trace.stages.evaluate_guardrails.output.EligibleActions.eligible.find((action) => action.action_id === selected);
  return {
    decision_id: trace.decision_id,
    schema_version: DECISION_PACKAGE_SCHEMA_VERSION,
    task_id: trace.request_id ?? trace.decision_id,
    timestamp: trace.timestamp,
    decision_type: 'choose',
    selected_action: { name: selected, parameters, preconditions: eligible?.passed_guardrails ?? [], expected_effects: [] },
    safety_assertions: trace.stages.evaluate_guardrails.guardrails.map((guardrail) => ({ invariant_id: guardrail.id, parameters: { effect: guardrail.effect, action_type: guardrail.action_type, field: guardrail.field } })),
    confidence_score: null,
    confidence_interpretation: { ...UNCALIBRATED, notes: `${UNCALIBRATED.notes} The selected action's lead over the next score is the trace's confidence node.` },
    risk_tier: 'T0',
    abstain_threshold: null,
    human_review_required: false,
    escalation_route: null,
    alternatives: ranked.ranked.slice(1).map((rank) => ({ action: rank.action_id, expected_utility: rank.final_score, confidence: null, trade_offs: [] })),
    reasoning_trace_ref: trace.trace_id,
    references: { context_id: trace.stages.ingest.input_hash, rule_output_id: null, world_version_id: trace.scenario_hash, CET_version: null, Ruleset_version: trace.scenario_version, DER_version: ADEC_VERSION },
    consultations: trace.structure.consultation_nodes.map((node) => ({ provider: node.provider, consultation_id: node.node_id, consensus_metrics: null })),
    budgets: { time: trace.stages.derive_state.output.UserState.execution_capabilities.max_latency_ms, cost: null },
    policy_requirements: ['the selected action is locked: carry out this candidate, never another'],
    adec: { kind: 'selection', status: null, payload: response.decision.payload },
  };
}
