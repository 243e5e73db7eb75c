/**
 * The Decision Package v1 (docs/spec/contracts.md §2): the directive a decision hands to whoever
 * carries it out, the same contract for both kinds of decision. An adjudication approves,
 * routes to a person or denies the requested action; a selection chooses one of the candidates.
 * Where adec has no counterpart of a field (it does not calibrate confidence, abstain or budget
 * cost) the field is null and its interpretation says why, rather than a number that means
 * nothing.
 */
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, OpenObject, Timestamp } from './schema-kit.js';

export const DECISION_PACKAGE_SCHEMA_VERSION = '1.0.0';

export const DecisionPackage = Closed(
  {
    decision_id: Type.String(),
    schema_version: Type.Literal(DECISION_PACKAGE_SCHEMA_VERSION),
    task_id: Type.String({ description: "The caller's request id when it sent one, else the decision id" }),
    timestamp: Timestamp('When the decision was made (the request time)'),
    decision_type: OneOf(['choose', 'plan', 'route', 'approve', 'deny'], { description: 'A selection chooses; an adjudication approves (GREEN, GREEN-SKIP), routes to a person (YELLOW) or denies (RED)' }),
    selected_action: Closed({
      name: Type.String({ description: 'The action: the adjudicated action, or the selected candidate’s id' }),
      parameters: OpenObject({ description: "The action's parameters: the candidate's fields, or the adjudication's context" }),
      preconditions: Type.Array(Type.String(), { description: 'What must hold first: the guardrails it passed, or the evidence still missing' }),
      expected_effects: Type.Array(Type.String(), { description: 'What the decision expects it to produce: the required outputs of the work frame; none for a selection' }),
    }),
    safety_assertions: Type.Array(Closed({ invariant_id: Type.String(), parameters: OpenObject() }), { description: 'The invariants the decision was checked against, to re-check before executing' }),
    confidence_score: Nullable(Type.Number({ minimum: 0, maximum: 1 }), { description: 'Always null: adec decides deterministically and does not calibrate a probability' }),
    confidence_interpretation: Closed({ calibration_method: Type.String(), band: Type.String(), notes: Type.String() }),
    risk_tier: OneOf(['T0', 'T1', 'T2', 'T3'], { description: 'The severity tier of the rule that decided an adjudication (T0 when none did); T0 for a selection' }),
    abstain_threshold: Type.Null({ description: 'adec never abstains on confidence' }),
    human_review_required: Type.Boolean(),
    escalation_route: Nullable(Closed({ contact: Type.String(), SLA: Type.Null({ description: 'adec states no review deadline' }) })),
    alternatives: Type.Array(
      Closed({ action: Type.String(), expected_utility: Nullable(Type.Number()), confidence: Type.Null(), trade_offs: Type.Array(Type.String()) }),
      { description: "The other ranked candidates, best first, with their final scores; none for an adjudication" },
    ),
    reasoning_trace_ref: Type.String({ description: 'The trace id of a selection; `/v1/decisions/{id}` for an adjudication, whose record holds its reasoning' }),
    references: Closed({
      context_id: Type.String({ description: 'sha256 of the inputs' }),
      rule_output_id: Type.Null({ description: 'adec has no separate rule-engine output' }),
      world_version_id: Type.String({ description: 'The hash of the module that decided' }),
      CET_version: Type.Null({ description: 'adec has no context-engineering stage' }),
      Ruleset_version: Type.String({ description: "The world's version" }),
      DER_version: Type.String({ description: 'The version of adec that decided' }),
    }),
    consultations: Type.Array(Closed({ provider: Type.String(), consultation_id: Type.String(), consensus_metrics: Type.Null() }), { description: 'The model asked for the selected action’s skill, if any' }),
    budgets: Closed({ time: Nullable(Type.Integer({ minimum: 0 }), { description: 'ms a whole decision of this kind may take; null when none applies' }), cost: Type.Null() }),
    policy_requirements: Type.Array(Type.String(), { description: 'What the executor must honour: the work frame’s mode and forbidden actions, or the selection’s lock' }),
    adec: Closed(
      {
        kind: OneOf(['adjudication', 'selection']),
        status: Nullable(OneOf(['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED']), { description: "An adjudication's status; null for a selection" }),
        payload: Nullable(OpenObject(), { description: "A selection's validated skill payload; null for an adjudication" }),
      },
      { description: 'adec: what kind of decision this is, and its own answer' },
    ),
  },
  { description: 'Decision Package v1 (docs/spec/contracts.md §2)' },
);
