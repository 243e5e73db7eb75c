/**
 * The full trace of one selection (docs/spec/selection.md §3.9, docs/spec/contracts.md §4): the
 * artifact of each of the nine stages, the final decision and its replay token, with the
 * reasoning trace's identity (`trace_id`, `schema_version`, `redaction_info`,
 * `content_address`). It is what the audit store keeps and what a replay re-executes and
 * compares against.
 */
import { Type } from '@sinclair/typebox';
import { Closed, DecisionId, Milliseconds, Nullable, OneOf, Sha256, Timestamp } from './schema-kit.js';
import { DecisionResponse } from './decision-response.js';
import { FunctionError, ModuleReference, SandboxFault } from './selection-details.js';
import { ReasoningStructure, TraceSignature } from './reasoning-structure.js';
import { StageArtifacts } from './stage-artifacts.js';

/** The shape of the full trace (docs/spec/contracts.md 1.2: a new shape, a new version). */
export const TRACE_VERSION = '2.0.0';
/** The reasoning-trace contract this trace carries the identity of (docs/spec/contracts.md §4). */
export const REASONING_TRACE_SCHEMA_VERSION = '1.0.0';

export const CYCLE_OUTCOMES = ['decided', 'no_eligible_actions', 'scoring_failed'] as const;

const traceFields = {
  trace_version: Type.Literal(TRACE_VERSION),
  schema_version: Type.Literal(REASONING_TRACE_SCHEMA_VERSION),
  trace_id: Type.String(),
  decision_id: DecisionId(),
  scenario_id: Type.String(),
  scenario_version: Type.String(),
  scenario_hash: Type.String({ description: "The module's hash" }),
  timestamp: Timestamp('Server time when the request arrived'),
  stages: StageArtifacts,
  final_decision: Nullable(DecisionResponse, { description: 'null when the cycle stopped without a decision (no eligible candidate, scoring failed)' }),
  replay_token: Type.String(),
  structure: ReasoningStructure,
  total_duration_ms: Milliseconds('The whole cycle'),
  redaction_info: Nullable(
    Closed({
      withheld_action_fields: Type.Array(Type.String(), { description: "Fields of the selected action the skill's contract does not declare" }),
      withheld_state: Type.Array(Type.String(), { description: "Signals and state values the skill's contract does not declare" }),
    }),
    { description: 'What the skill was not given; null when no skill ran' },
  ),
  request_id: Nullable(Type.String(), { description: 'adec' }),
  module: ModuleReference,
  outcome: OneOf(CYCLE_OUTCOMES, { description: 'adec' }),
  sandbox_faults: Type.Array(SandboxFault, { description: 'adec' }),
  errors: Type.Array(FunctionError, { description: 'adec: module functions of stages 2–4 that threw' }),
};

/** The trace as the cycle makes it, before its content address is computed. */
export const UnaddressedSelectionTrace = Closed(traceFields);

export const SelectionTrace = Closed(
  {
    ...traceFields,
    content_address: Sha256('sha256 of the trace’s JSON text without this field and `signatures`'),
    signatures: Type.Array(TraceSignature, { description: 'The service’s signatures over the content address; empty when the trace was made without a signing key' }),
  },
  { description: 'docs/spec/selection.md §3.9' },
);
