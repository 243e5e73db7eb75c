/**
 * The reasoning trace's `structure` and `signatures` (docs/spec/contracts.md §4): the graph of
 * what a decision evaluated, from its inputs (context nodes) through the rules that fired or did
 * not (rule nodes), the model it consulted (consultation nodes) and what weighed them into a
 * result (synthesis nodes), to how sure it is (confidence nodes); and the service's signatures
 * over the trace's content address.
 */
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, Timestamp } from './schema-kit.js';

const NodeId = (kind: string) => Type.String({ pattern: `^${kind}:`, description: `Unique in the graph; starts with \`${kind}:\`` });

export const ContextNode = Closed(
  {
    node_id: NodeId('context'),
    source: OneOf(['request', 'memory', 'user_state'], { description: 'What the decision read: the request as received, the user’s memory, the state derived from both' }),
    context_id: Type.String({ description: 'The content address (sha256) of what was read' }),
    version: Type.String({ description: 'The version of its shape: the scenario’s version for the request, the state version for the state' }),
  },
  { description: 'An input of the decision' },
);

export const RuleNode = Closed(
  {
    node_id: NodeId('rule'),
    rule_id: Type.String(),
    rule_version: Type.String({ description: 'The version of the module that declares it' }),
    kind: OneOf(['guardrail', 'validation_check'], { description: 'A scenario guardrail (stage 3) or a check of the skill’s output (stage 7)' }),
    fired: Type.Boolean({ description: 'A guardrail that held (and so ruled candidates out), a check that failed' }),
    reason: Type.String({ description: 'Why it fired or was skipped, in words' }),
  },
  { description: 'A rule the decision evaluated' },
);

export const ConsultationNode = Closed(
  {
    node_id: NodeId('consultation'),
    provider: Type.String({ description: 'The executor that was asked (`cloud_llm:<model>`, `llm_stub`, …)' }),
    skill_id: Type.String(),
    skill_version: Type.String(),
    prompt: Nullable(Type.String(), { description: 'The rendered prompt it was given; null when none could be rendered' }),
    redactions: Closed({
      withheld_action_fields: Type.Array(Type.String()),
      withheld_state: Type.Array(Type.String()),
    }),
    outcome: OneOf(['reply', 'error', 'timeout', 'not_asked'], { description: 'What came back' }),
    consensus: Type.Null({ description: 'One model is asked once: there is no consensus to report' }),
  },
  { description: 'A model the decision consulted' },
);

export const SynthesisNode = Closed(
  {
    node_id: NodeId('synthesis'),
    kind: OneOf(['ranking', 'payload'], { description: 'The ranking that locked the selection (stage 4), or the choice of the payload returned (stages 7–8)' }),
    weights: Type.Record(Type.String(), Type.Number(), { description: 'Each objective’s weight, and `execution_risk`’s' }),
    constraints: Type.Array(Type.String(), { description: 'What bound the result: the guardrails that fired, or the checks that failed' }),
    utilities: Type.Array(Closed({ option: Type.String(), utility: Nullable(Type.Number()) }), { description: 'Each option and its value: candidates and final scores, or payload tiers' }),
    result: Nullable(Type.String(), { description: 'The option chosen: the selected action, or `tier_1`, `tier_2`, `tier_3`' }),
  },
  { description: 'Where the decision weighed its inputs into a result' },
);

export const ConfidenceNode = Closed(
  {
    node_id: NodeId('confidence'),
    calibration_method: Type.String({ description: 'How the value was obtained; adec does not calibrate' }),
    value: Nullable(Type.Number()),
    notes: Type.String(),
  },
  { description: 'How sure the decision is, and on what basis' },
);

export const ReasoningStructure = Closed(
  {
    context_nodes: Type.Array(ContextNode),
    rule_nodes: Type.Array(RuleNode),
    consultation_nodes: Type.Array(ConsultationNode),
    synthesis_nodes: Type.Array(SynthesisNode),
    confidence_nodes: Type.Array(ConfidenceNode),
    edges: Type.Array(Closed({ from: Type.String(), to: Type.String() }), { description: 'A directed acyclic graph: `from` fed into `to`' }),
  },
  { description: 'What the decision evaluated, as a directed acyclic graph (docs/spec/contracts.md §4)' },
);

export const TRACE_SIGNATURE_ALGORITHM = 'Ed25519';

export const TraceSignature = Closed(
  {
    signer: Type.String({ description: "The signing key's id (RFC 7638 thumbprint)" }),
    algorithm: Type.Literal(TRACE_SIGNATURE_ALGORITHM),
    signature: Type.String({ pattern: '^[A-Za-z0-9+/]{86}==$', description: 'Standard base64 of the signature over the trace id, decision id, content address, signer and timestamp' }),
    timestamp: Timestamp('When it was signed'),
  },
  { description: "A service's signature of the trace (docs/spec/contracts.md §4)" },
);
