/**
 * The reasoning trace's `signatures` (docs/spec/contracts.md §4): a service signs what a trace
 * says by signing its content address with its Ed25519 key, so anyone with the public key can
 * check a trace on its own, apart from the audit chain it is stored in. The address covers
 * every field but itself and the signatures; each signature covers the address, the trace's
 * identity and the signature's own signer and time. Any one field changed, anywhere, makes the
 * trace fail: its address no longer matches, or a signature no longer verifies.
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import { contractProblems, TRACE_SIGNATURE_ALGORITHM, TraceSignature } from '@adec/contracts';
import { contentAddressOf, type AddressedTrace } from './reasoning-trace.js';

/** The format a signed message starts with, so that a trace's signature can never pass for a bundle's or an anchor's. */
export const TRACE_SIGNATURE_FORMAT = 'adec.reasoning-trace.v1';

export interface TraceSigner {
  readonly key: KeyObject;
  /** The key's RFC 7638 id (@adec/runtime `keyId`), recorded as `signer`. */
  readonly keyId: string;
}

/** A signature as read from a stored trace, before anything about it is known. */
interface UncheckedSignature {
  readonly signer?: unknown;
  readonly algorithm?: unknown;
  readonly signature?: unknown;
  readonly timestamp?: unknown;
}

function signedMessage(trace: Pick<AddressedTrace, 'trace_id' | 'decision_id' | 'content_address'>, signer: string, timestamp: string): Buffer {
  return Buffer.from(`${TRACE_SIGNATURE_FORMAT}\n${JSON.stringify([trace.trace_id, trace.decision_id, trace.content_address, signer, timestamp])}`, 'utf8');
}

/** The trace with one more signature, made at `at`. */
export function signTrace(trace: AddressedTrace, signer: TraceSigner, at: Date): AddressedTrace {
  const timestamp = at.toISOString();
  const signature = sign(null, signedMessage(trace, signer.keyId, timestamp), signer.key).toString('base64');
  return { ...trace, signatures: [...trace.signatures, { signer: signer.keyId, algorithm: TRACE_SIGNATURE_ALGORITHM, signature, timestamp }] };
}

export type TraceVerification = { readonly ok: true; readonly signer: string; readonly signedAt: string } | { readonly ok: false; readonly problem: string };

/**
 * Whether `trace` is what key `keyId` signed: its content address is its content's, and a
 * signature by that key verifies. A trace is evidence: one that does not verify is damaged or
 * forged, and the problem says which part failed.
 */
export function verifyTrace(trace: AddressedTrace, publicKey: KeyObject, keyId: string): TraceVerification {
  const address = contentAddressOf(trace);
  if (address !== trace.content_address) return { ok: false, problem: `its content address is ${JSON.stringify(trace.content_address)}, but its content's is ${address}: the trace was changed after it was addressed` };
  if (!Array.isArray(trace.signatures)) return { ok: false, problem: 'its `signatures` is not a list' };
  // Every entry must be a signature of the contract's shape: anything else in the list was put there.
  const malformed = (trace.signatures as readonly unknown[]).flatMap((signature, index) => contractProblems(TraceSignature, signature).map((problem) => `signatures[${index}]${problem}`));
  if (malformed.length > 0) return { ok: false, problem: `it has a signature that is not one: ${malformed.join('; ')}` };
  const signatures: readonly UncheckedSignature[] = trace.signatures;
  const byKey = signatures.filter((signature) => signature.signer === keyId);
  if (byKey.length === 0) return { ok: false, problem: `it has no signature by key ${keyId}${signatures.length === 0 ? '' : ` (signed by ${signatures.map((signature) => JSON.stringify(signature.signer ?? null)).join(', ')})`}` };
  for (const { algorithm, signature, timestamp } of byKey) {
    if (algorithm === TRACE_SIGNATURE_ALGORITHM && typeof signature === 'string' && typeof timestamp === 'string' && verifiesEd25519(signedMessage(trace, keyId, timestamp), publicKey, signature)) {
      return { ok: true, signer: keyId, signedAt: timestamp };
    }
  }
  return { ok: false, problem: `its signature by key ${keyId} does not verify: the trace or the signature was changed, or forged` };
}

function verifiesEd25519(message: Buffer, publicKey: KeyObject, signature: string): boolean {
  // Only the canonical text of the bytes: base64 leaves spare bits in its last character, and a
  // signature whose text was changed is a changed field even when its bytes are not.
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.toString('base64') !== signature) return false;
  try {
    return verify(null, message, publicKey, bytes);
  } catch {
    return false;
  }
}
