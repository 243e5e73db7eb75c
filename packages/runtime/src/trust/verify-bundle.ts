import { verify, type KeyObject } from 'node:crypto';
import { isJsonObject, type JsonObject } from '@adec/abi';
import { formatApprovalTime } from './approval-times.js';
import { signatureProblem } from './ed25519-encoding.js';
import type { BundleFiles } from './bundle-files.js';
import { approvalMessage, manifestMessage, type ApprovalCompiler } from './messages.js';
import { checkModuleBinding, describeBundleWorld, type BoundModule, type BundleWorld } from './module-binding.js';
import { sameModuleHash } from './module-hash.js';
import { revocation } from './revocation.js';
import { parseApprovalFile, parseSignatureFile, type ParsedApproval } from './signature-files.js';
import type { TrustConfig } from './trust-config.js';

/** How far ahead of this host's clock an approval's issue time may be: the operator's clock may be off. */
const APPROVAL_CLOCK_SKEW_MS = 5 * 60 * 1000;
import { verificationFailure, type VerificationFailure } from './verification-failure.js';
import { weakKey } from './weak-keys.js';

/** A bundle that passed every check: what a host may load and run. */
export interface VerifiedBundle {
  /** Parsed, not yet read as a manifest of some ABI: loading reads it (load-module.ts). */
  readonly manifest: JsonObject;
  readonly moduleHash: string;
  /** The world version the signed manifest names (and the approval, when there is one). */
  readonly world: BundleWorld;
  /** bundle.js exactly as hashed and signed. */
  readonly bundleSource: string;
  /** Key id of the trusted key that signed manifest.json. */
  readonly signedBy: string;
  /** Key id of the trusted operator key that approved the module hash, when approved. */
  readonly approvedBy?: string;
  /** When the approval was issued and until when it holds (ms since the epoch), when approved. */
  readonly approvedAt?: number;
  readonly approvalExpiresAt?: number;
  /**
   * The compiler with which the approver rebuilt the bundle from its sources and got exactly
   * its bytes, when the approval says so: such a module is what the code generator makes of
   * its world, the condition for running it in process by default.
   */
  readonly rebuiltBy?: ApprovalCompiler;
}

export type VerificationResult = { readonly ok: true; readonly bundle: VerifiedBundle } | { readonly ok: false; readonly failure: VerificationFailure };

export interface VerifyOptions {
  /** The time approvals are checked at, in ms since the epoch; default: the host's clock. */
  readonly now?: number;
}

/**
 * Verifies a bundle's bytes against a trust configuration. It reads no files, so the bytes it
 * accepts are the bytes the caller runs. Checks run in this order and the first that fails is
 * reported (codes in verification-failure.ts):
 *
 * 1. files       manifest and bundle bytes are present
 * 2. signature   signature.json is present, well formed, by a trusted signing key that is not
 *                revoked (SIGNING_KEY_REVOKED) nor weak (KEY_*), is canonical, and verifies
 *                over `adec.manifest.v1\n` + the manifest bytes
 * 3. manifest    the (now authentic) manifest is a JSON object with a valid `module_hash` and world
 * 4. module_hash sha256(bundle.js) is that `module_hash`
 * 5. revocation  the module hash is not revoked, its version not below its module's minimum
 * 6. approval    when present (always checked) or required: of the current format, by a
 *                trusted approval key that is not revoked nor weak, for this module hash,
 *                canonical, verifying over `approvalMessage`, for this world version, not expired
 *
 * The signature is checked before the manifest is parsed, and an approval's signature before
 * its world and times are believed, so nothing unsigned is interpreted. Every bad input is a
 * failure value; this function does not throw on any input.
 */
export function verifyBundle(files: BundleFiles, trust: TrustConfig, options: VerifyOptions = {}): VerificationResult {
  const missing = missingFile(files);
  if (missing !== undefined) return refuse(verificationFailure('BUNDLE_FILE_MISSING', { problem: `${missing} was not given` }));

  if (files.signature === undefined) return refuse(verificationFailure('SIGNATURE_MISSING'));
  const signature = parseSignatureFile(files.signature);
  if (!signature.ok) return refuse(verificationFailure('SIGNATURE_MALFORMED', { problem: signature.problem }));
  const { keyId: signedBy } = signature.value;
  const signingKey = trust.signingKeys.get(signedBy);
  if (signingKey === undefined) {
    return refuse(verificationFailure('SIGNER_UNTRUSTED', { keyId: signedBy, trusted: listKeyIds(trust.signingKeys) }));
  }
  if (trust.revokedKeys?.has(signedBy)) return refuse(verificationFailure('SIGNING_KEY_REVOKED', { keyId: signedBy }));
  const signatureFailure = checkSignature(manifestMessage(files.manifest), signingKey, signature.value.signature, {
    keyId: signedBy,
    role: 'signing',
    invalid: verificationFailure('SIGNATURE_INVALID', { keyId: signedBy }),
  });
  if (signatureFailure !== undefined) return refuse(signatureFailure);

  const binding = checkModuleBinding(files.manifest, files.bundle);
  if (!binding.ok) return refuse(binding.failure);
  const revoked = revocation(binding.module, trust);
  if (revoked !== undefined) return refuse(revoked);
  const { manifest, moduleHash, world, bundleSource } = binding.module;

  if (files.approval === undefined) {
    if (trust.requireApproval) return refuse(verificationFailure('APPROVAL_MISSING'));
    return { ok: true, bundle: { manifest, moduleHash, world, bundleSource, signedBy } };
  }
  const approval = parseApprovalFile(files.approval);
  if ('outdated' in approval) return refuse(verificationFailure('APPROVAL_OUTDATED'));
  if (!approval.ok) return refuse(verificationFailure('APPROVAL_MALFORMED', { problem: approval.problem }));
  const approvalFailure = checkApproval(approval.value, binding.module, trust, options.now ?? Date.now());
  if (approvalFailure !== undefined) return refuse(approvalFailure);
  const { keyId: approvedBy, issuedAtMs: approvedAt, expiresAtMs: approvalExpiresAt } = approval.value;
  const { rebuiltBy } = approval.value.statement;
  const approved = { manifest, moduleHash, world, bundleSource, signedBy, approvedBy, approvedAt, approvalExpiresAt };
  return { ok: true, bundle: rebuiltBy === null ? approved : { ...approved, rebuiltBy } };
}

/** Step 6 for an approval.json that parsed. */
function checkApproval(approval: ParsedApproval, module: BoundModule, trust: TrustConfig, now: number): VerificationFailure | undefined {
  const { keyId, statement } = approval;
  const approvalKey = trust.approvalKeys.get(keyId);
  if (approvalKey === undefined) {
    return verificationFailure('APPROVER_UNTRUSTED', {
      keyId,
      onlySigner: trust.signingKeys.has(keyId) ? ': it is trusted only as a signing key' : '',
      trusted: listKeyIds(trust.approvalKeys),
    });
  }
  if (trust.revokedKeys?.has(keyId)) return verificationFailure('APPROVAL_KEY_REVOKED', { keyId });
  if (!sameModuleHash(statement.moduleHash, module.moduleHash)) {
    return verificationFailure('APPROVAL_HASH_MISMATCH', { approved: statement.moduleHash, actual: module.moduleHash });
  }
  const signatureFailure = checkSignature(approvalMessage(statement), approvalKey, approval.signature, {
    keyId,
    role: 'approval',
    invalid: verificationFailure('APPROVAL_SIGNATURE_INVALID', { keyId, moduleHash: statement.moduleHash }),
  });
  if (signatureFailure !== undefined) return signatureFailure;
  const [approved, actual] = [statement.world, module.world];
  if (approved.org !== actual.org || approved.domain !== actual.domain || approved.version !== actual.version) {
    return verificationFailure('APPROVAL_WORLD_MISMATCH', { approved: `\`${describeBundleWorld(approved)}\``, actual: `\`${describeBundleWorld(actual)}\`` });
  }
  const rebuildFailure = checkRebuild(statement.rebuiltBy, module.manifest);
  if (rebuildFailure !== undefined) return rebuildFailure;
  // Written so that a `now` that is not a number (NaN) counts as expired, never as valid forever.
  if (!(now < approval.expiresAtMs)) return verificationFailure('APPROVAL_EXPIRED', { keyId, expiresAt: statement.expiresAt, now: describeNow(now) });
  // A host refuses what a signer's clock could not have made: once loaded, an approval dated
  // ahead would make the loader refuse every genuinely later one (APPROVAL_OLDER_THAN_LOADED).
  if (approval.issuedAtMs > now + APPROVAL_CLOCK_SKEW_MS) {
    return verificationFailure('APPROVAL_NOT_YET_VALID', { keyId, issuedAt: statement.issuedAt, now: describeNow(now), skew: `${APPROVAL_CLOCK_SKEW_MS / 60_000} minutes` });
  }
  return undefined;
}

/** A rebuild the approval states was made by the compiler the (signed) manifest names. */
function checkRebuild(rebuiltBy: ApprovalCompiler | null, manifest: JsonObject): VerificationFailure | undefined {
  if (rebuiltBy === null) return undefined;
  const compiler = manifest['compiler'];
  const builtBy = isJsonObject(compiler) ? `${String(compiler['name'])} ${String(compiler['version'])}` : 'no compiler';
  const rebuilt = `${rebuiltBy.name} ${rebuiltBy.version}`;
  return builtBy === rebuilt ? undefined : verificationFailure('APPROVAL_REBUILD_MISMATCH', { rebuiltBy: `\`${rebuilt}\``, builtBy: `\`${builtBy}\`` });
}

/**
 * A signature by a trusted key: the key is sound, the signature canonical, and it verifies.
 * Ed25519 with the algorithm fixed by the trusted key (`null` digest: Ed25519 hashes
 * internally); nothing from the signature file chooses the algorithm.
 */
function checkSignature(
  message: Uint8Array,
  publicKey: KeyObject,
  signature: Uint8Array,
  by: { readonly keyId: string; readonly role: 'signing' | 'approval'; readonly invalid: VerificationFailure },
): VerificationFailure | undefined {
  const { keyId, role } = by;
  const weak = weakKey(publicKey);
  if (weak !== undefined) return verificationFailure(weak.code, { role, keyId });
  const nonCanonical = signatureProblem(signature);
  if (nonCanonical !== undefined) {
    return verificationFailure(role === 'signing' ? 'SIGNATURE_NON_CANONICAL' : 'APPROVAL_SIGNATURE_NON_CANONICAL', { keyId, problem: nonCanonical });
  }
  return verifiesEd25519(message, publicKey, signature) ? undefined : by.invalid;
}

function refuse(failure: VerificationFailure): VerificationResult {
  return { ok: false, failure };
}

/** Which required file is absent from `files`, for callers that build BundleFiles by hand. */
function missingFile(files: BundleFiles): string | undefined {
  if (!(files.manifest instanceof Uint8Array)) return 'manifest.json';
  if (!(files.bundle instanceof Uint8Array)) return 'bundle.js';
  return undefined;
}

function verifiesEd25519(message: Uint8Array, publicKey: KeyObject, signature: Uint8Array): boolean {
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}

/** `now` as approval times are written, when it is a time they can be (else the number). */
function describeNow(now: number): string {
  try {
    return formatApprovalTime(now);
  } catch {
    return String(now);
  }
}

function listKeyIds(keys: ReadonlyMap<string, KeyObject>): string {
  return keys.size === 0 ? 'none' : [...keys.keys()].map((id) => `\`${id}\``).join(', ');
}
