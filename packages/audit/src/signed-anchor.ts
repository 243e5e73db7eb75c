/**
 * Signed anchors: checkpoints of a chain's head kept outside the store. A chain's own links prove
 * that no record between its anchor and its head was changed, but not that its newest records
 * were not removed with the head moved back by hand, or lost with a cut write-ahead log
 * (SECURITY.md, "Truncation and rollback": `verify` then passes). An anchor says "on this date, this tenant's chain had reached
 * record `seq`, whose hash is `head_hash`", signed with the service's Ed25519 key; `verify
 * --anchors` (verify-chains.ts) then fails on any anchored record that is gone or different.
 *
 * Keys are read and identified by @adec/runtime (key files, RFC 7638 key ids), as for bundles;
 * this file only fixes what is signed. The signed message starts with the format, so an anchor's
 * signature can never pass for a bundle's or an approval's.
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import type { ChainState } from './audit-record.js';

export const ANCHOR_FORMAT = 'adec.anchor.v1';

/**
 * The name of the chain a tenant's decision records form. A tenant has one; the anchor names it
 * so that a checkpoint says what it is about, whatever chains a later store adds.
 */
export const DECISION_CHAIN = 'decisions';

/** One line of an anchors file (JSON lines). */
export interface SignedAnchor {
  readonly format: typeof ANCHOR_FORMAT;
  readonly tenant: string;
  readonly chain: string;
  /** The position of the chain's head record when anchored. */
  readonly seq: number;
  readonly head_hash: string;
  /** When the anchor was signed (ISO-8601, UTC). */
  readonly anchored_at: string;
  /** The signing key's id (RFC 7638 thumbprint, as for bundle signatures). */
  readonly key_id: string;
  /** Standard base64 of the 64-byte Ed25519 signature over `anchorMessage`. */
  readonly signature: string;
}

/** The key that signs anchors and its id (from @adec/runtime's readPrivateKeyFile). */
export interface AnchorSigner {
  readonly key: KeyObject;
  readonly keyId: string;
}

type AnchorStatement = Pick<SignedAnchor, 'tenant' | 'chain' | 'seq' | 'head_hash' | 'anchored_at'>;

/** What is signed: the format, then the statement's fields as a JSON array (one fixed order). */
export function anchorMessage(statement: AnchorStatement): Buffer {
  const { tenant, chain, seq, head_hash, anchored_at } = statement;
  return Buffer.from(`${ANCHOR_FORMAT}\n${JSON.stringify([tenant, chain, seq, head_hash, anchored_at])}`, 'utf8');
}

/** The anchor of `chain`'s head at `at`. */
export function signAnchor(chain: ChainState, at: Date, signer: AnchorSigner): SignedAnchor {
  const statement = { tenant: chain.tenant, chain: DECISION_CHAIN, seq: chain.headSeq, head_hash: chain.headHash, anchored_at: at.toISOString() };
  return { format: ANCHOR_FORMAT, ...statement, key_id: signer.keyId, signature: sign(null, anchorMessage(statement), signer.key).toString('base64') };
}

export type AnchorsRead = { readonly ok: true; readonly anchors: readonly SignedAnchor[] } | { readonly ok: false; readonly problems: readonly string[] };

const HASH = /^[0-9a-f]{64}$/;
const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

/**
 * The anchors of an anchors file, each checked against `publicKey` (whose id is `keyId`): every
 * line must be an anchor of this format, signed by that key, with a valid signature. Any other
 * line is a problem, named by its line number: an anchors file is evidence, and a line that
 * does not verify is either damage or forgery, never something to skip.
 */
export function readAnchors(text: string, publicKey: KeyObject, keyId: string): AnchorsRead {
  const anchors: SignedAnchor[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const checked = checkAnchorLine(line, publicKey, keyId);
    if (typeof checked === 'string') problems.push(`line ${index + 1}: ${checked}`);
    else anchors.push(checked);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, anchors };
}

function checkAnchorLine(line: string, publicKey: KeyObject, keyId: string): SignedAnchor | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'is not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an anchor object';
  const anchor = value as Record<string, unknown>;
  if (anchor['format'] !== ANCHOR_FORMAT) return `is not an anchor of format ${ANCHOR_FORMAT}`;
  const { tenant, chain, seq, head_hash, anchored_at, key_id, signature } = anchor;
  if (typeof tenant !== 'string' || typeof chain !== 'string' || typeof anchored_at !== 'string') return 'lacks its tenant, chain or time';
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return 'has no valid seq';
  if (typeof head_hash !== 'string' || !HASH.test(head_hash)) return 'has no valid head hash';
  if (key_id !== keyId) return `is signed by key ${JSON.stringify(key_id)}, not by the anchor key ${keyId}`;
  if (typeof signature !== 'string' || !BASE64_SIGNATURE.test(signature)) return 'has no Ed25519 signature';
  const statement = { tenant, chain, seq, head_hash, anchored_at };
  if (!verifiesEd25519(anchorMessage(statement), publicKey, Buffer.from(signature, 'base64'))) return `its signature does not verify with key ${keyId}: it was changed or forged`;
  return { format: ANCHOR_FORMAT, ...statement, key_id: keyId, signature };
}

function verifiesEd25519(message: Buffer, publicKey: KeyObject, signature: Buffer): boolean {
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}
