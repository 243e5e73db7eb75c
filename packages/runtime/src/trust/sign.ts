import { sign, type KeyObject } from 'node:crypto';
import { keyId } from './key-id.js';
import { ed25519Problem } from './key-files.js';
import { DEFAULT_APPROVAL_LIFETIME_MS, formatApprovalTime, parseApprovalTime } from './approval-times.js';
import { approvalMessage, manifestMessage } from './messages.js';
import type { ApprovalCompiler, ApprovalStatement } from './messages.js';
import type { BundleWorld } from './module-binding.js';
import { MODULE_HASH_PATTERN } from './module-hash.js';
import { APPROVAL_FORMAT, encodeSignature, type ApprovalFile, type SignatureFile } from './signature-files.js';

/**
 * Signing and approving, as pure functions from bytes and a private key to the JSON to write.
 * Checking that the bundle is whole before signing it is the caller's job
 * (`checkModuleBinding`); a key that is not an Ed25519 private key is a programming error here,
 * because key files are checked when they are read (`readPrivateKeyFile`).
 */

/** signature.json for a manifest: Ed25519 over `adec.manifest.v1\n` + the manifest bytes. */
export function signManifest(manifest: Uint8Array, privateKey: KeyObject): SignatureFile {
  assertPrivateEd25519(privateKey);
  return {
    key_id: keyId(privateKey),
    signature: encodeSignature(sign(null, manifestMessage(manifest), privateKey)),
  };
}

/** What an operator approves: a module hash, for the world version its manifest names, for a time. */
export interface Approval {
  readonly moduleHash: string;
  readonly world: BundleWorld;
  /** Milliseconds since the epoch (rounded down to the second); default: now. */
  readonly issuedAt?: number;
  /** Milliseconds since the epoch (rounded down to the second); default: 90 days after `issuedAt`. */
  readonly expiresAt?: number;
  /**
   * The compiler that rebuilt the bundle from its sources and got exactly its bytes
   * (`rebuildBundle` in @adec/compiler); absent when the approver did not rebuild it.
   */
  readonly rebuiltBy?: ApprovalCompiler;
}

/** approval.json: Ed25519 over `approvalMessage` of the module hash, world, issue and expiry times and the rebuild. */
export function approveModule(approval: Approval, privateKey: KeyObject): ApprovalFile {
  assertPrivateEd25519(privateKey);
  const { moduleHash, world } = approval;
  if (!MODULE_HASH_PATTERN.test(moduleHash)) throw new TypeError(`approveModule: \`${moduleHash}\` is not a module hash`);
  const issuedAtMs = approval.issuedAt ?? Date.now();
  const issuedAt = formatApprovalTime(issuedAtMs);
  const expiresAt = formatApprovalTime(approval.expiresAt ?? issuedAtMs + DEFAULT_APPROVAL_LIFETIME_MS);
  const [issuedMs, expiresMs] = [parseApprovalTime(issuedAt), parseApprovalTime(expiresAt)];
  if (issuedMs === undefined || expiresMs === undefined) throw new TypeError(`approveModule: \`${issuedAt}\`..\`${expiresAt}\` is not a validity of years 0000 to 9999`);
  if (expiresMs <= issuedMs) throw new TypeError(`approveModule: the approval would expire (${expiresAt}) no later than it is issued (${issuedAt})`);
  const rebuiltBy = approval.rebuiltBy === undefined ? null : { name: approval.rebuiltBy.name, version: approval.rebuiltBy.version };
  const statement: ApprovalStatement = { format: APPROVAL_FORMAT, moduleHash, world: { org: world.org, domain: world.domain, version: world.version }, issuedAt, expiresAt, rebuiltBy };
  return {
    format: APPROVAL_FORMAT,
    key_id: keyId(privateKey),
    module_hash: moduleHash,
    world: statement.world,
    issued_at: issuedAt,
    expires_at: expiresAt,
    rebuilt_by: rebuiltBy,
    signature: encodeSignature(sign(null, approvalMessage(statement), privateKey)),
  };
}

function assertPrivateEd25519(key: KeyObject): void {
  const problem = ed25519Problem(key);
  if (problem !== undefined) throw new TypeError(`the signing key ${problem}`);
  if (key.type !== 'private') throw new TypeError('the signing key is a public key: signing needs the private key');
}
