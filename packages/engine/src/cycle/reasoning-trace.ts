/**
 * The full trace of one selection (docs/spec/selection.md §3.9, with the reasoning trace's
 * identity of docs/spec/contracts.md §4: `trace_id`, `schema_version`, `structure`,
 * `redaction_info`, `content_address`, `signatures`), as @adec/contracts states it: every stage's artifact, what the skill was
 * given and answered, and the final decision. It is what the audit store keeps and what a
 * replay re-executes and compares against.
 */
import {
  CHECKING_CONTRACTS,
  contractProblems,
  REASONING_TRACE_SCHEMA_VERSION,
  SelectionTrace as SelectionTraceSchema,
  TRACE_VERSION,
  type CYCLE_OUTCOMES,
  type ReplayToken as ReplayTokenSchema,
  type UnaddressedSelectionTrace,
  type Wire,
} from '@adec/contracts';
import { jsonDigest } from '../json-digest.js';

export { REASONING_TRACE_SCHEMA_VERSION, TRACE_VERSION };

export type CycleOutcome = (typeof CYCLE_OUTCOMES)[number];

export type ReasoningTrace = Wire<typeof UnaddressedSelectionTrace>;

/** A trace with its content address (sha256 over its JSON text without the address and the signatures) and its signatures. */
export type AddressedTrace = Wire<typeof SelectionTraceSchema>;

/** The content address a trace must have: of everything but the address and the signatures over it. */
export function contentAddressOf(trace: AddressedTrace | ReasoningTrace): string {
  const { content_address: _address, signatures: _signatures, ...content } = trace as AddressedTrace;
  return jsonDigest(content);
}

/** The trace, addressed and not yet signed (trace-signatures.ts signs it). */
export function addressed(trace: ReasoningTrace): AddressedTrace {
  const result = { ...trace, content_address: contentAddressOf(trace), signatures: [] };
  if (CHECKING_CONTRACTS) {
    // Only under test (ADEC_CHECK_CONTRACTS=1): a trace that breaks its own contract is a bug in adec.
    const problems = contractProblems(SelectionTraceSchema, result);
    if (problems.length > 0) throw new Error(`the trace of decision ${trace.decision_id} breaks its contract (@adec/contracts SelectionTrace):\n${problems.join('\n')}`);
  }
  return result;
}

export type ReplayToken = Wire<typeof ReplayTokenSchema>;

/** The replay token of docs/spec/selection.md 3.9.3, as base64url JSON: opaque to clients, readable by the service. */
export function encodeReplayToken(token: ReplayToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

export function decodeReplayToken(text: string): ReplayToken | undefined {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ReplayToken>;
    const fields = [token.decision_id, token.scenario_hash, token.inputs_hash, token.created_at];
    return fields.every((field) => typeof field === 'string') ? (token as ReplayToken) : undefined;
  } catch {
    return undefined;
  }
}
