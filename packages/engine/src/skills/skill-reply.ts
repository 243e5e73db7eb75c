/**
 * An executor's reply read as the SEC output envelope (docs/spec/skill-contract.md §2;
 * @adec/contracts `SkillOutputEnvelope`): one JSON object `{ payload, metadata }` whose metadata
 * names the skill and version that were asked for. The payload is taken out for stage 7 to check
 * against the skill's own contract; everything wrong with the envelope itself is a `schema_valid`
 * failure beside those checks, so a reply that is not the contract's shape never passes, however
 * good its payload.
 */
import { contractViolations, SkillOutputEnvelope } from '@adec/contracts';
import type { ValidationFailure } from './validate-output.js';

export interface SkillReply {
  /** The envelope's payload; the whole reply when it is no envelope (so the trace shows what came). */
  readonly payload: unknown;
  readonly failures: readonly ValidationFailure[];
}

export interface AskedSkill {
  readonly id: string;
  readonly version: string;
}

export function readSkillReply(text: string, asked: AskedSkill): SkillReply {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch (error) {
    return { payload: text, failures: [envelopeFailure('reply', `is not JSON (${error instanceof Error ? error.message : String(error)})`)] };
  }
  if (!isEnvelope(reply)) {
    return { payload: reply, failures: [envelopeFailure('reply', 'is not the output envelope: one JSON object with `payload` and `metadata`')] };
  }
  // The payload's own shape is the skill's contract, checked by stage 7; here only that it is an object.
  const failures = contractViolations(SkillOutputEnvelope, { ...reply, payload: {} }, 'reply').map((violation) => envelopeFailure(violation.path, violation.message));
  const metadata = reply.metadata as Record<string, unknown> | null;
  for (const [field, expected] of [['skill_id', asked.id], ['skill_version', asked.version]] as const) {
    const given = metadata?.[field];
    if (typeof given === 'string' && given !== expected) failures.push(envelopeFailure(`reply.metadata.${field}`, `is ${JSON.stringify(given)}, but ${JSON.stringify(expected)} was asked for`));
  }
  return { payload: reply.payload, failures };
}

/** An object with a `payload`: the envelope, however else it is wrong. */
function isEnvelope(reply: unknown): reply is { readonly payload: unknown; readonly [field: string]: unknown } {
  return reply !== null && typeof reply === 'object' && !Array.isArray(reply) && Object.hasOwn(reply, 'payload');
}

function envelopeFailure(path: string, message: string): ValidationFailure {
  return { check: 'schema_valid', id: 'OUTPUT_ENVELOPE', path, message };
}
