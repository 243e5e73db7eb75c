import { verify, type KeyObject } from 'node:crypto';
import type { BundleFiles } from './bundle-files.js';
import { approvalMessage, manifestMessage } from './messages.js';
import { checkModuleBinding } from './module-binding.js';
import { sameModuleHash } from './module-hash.js';
import { parseApprovalFile, parseSignatureFile } from './signature-files.js';
import type { TrustConfig } from './trust-config.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/** A bundle that passed every check: what a host may load and run. */
export interface VerifiedBundle {
  readonly manifest: Record<string, unknown>;
  readonly moduleHash: string;
  /** bundle.js exactly as hashed and signed. */
  readonly bundleSource: string;
  /** Key id of the trusted key that signed manifest.json. */
  readonly signedBy: string;
  /** Key id of the trusted operator key that approved the module hash, when approved. */
  readonly approvedBy?: string;
}

export type VerificationResult = { readonly ok: true; readonly bundle: VerifiedBundle } | { readonly ok: false; readonly failure: VerificationFailure };

/**
 * Verifies a bundle's bytes against a trust configuration. Pure: it reads no files, so the
 * bytes it accepts are the bytes the caller runs. Checks run in this order and the first that
 * fails is reported (codes in verification-failure.ts):
 *
 * 1. files       manifest and bundle bytes are present
 * 2. signature   signature.json is present, well formed, by a trusted signing key, and
 *                verifies over `adec.manifest.v1\n` + the manifest bytes
 * 3. manifest    the (now authentic) manifest is a JSON object with a valid `module_hash`
 * 4. module_hash sha256(bundle.js) is that `module_hash`
 * 5. approval    when present (always checked) or required: well formed, by a trusted
 *                approval key, for this module hash, and verifies over
 *                `adec.approval.v1\n` + the module hash
 *
 * The signature is checked before the manifest is parsed, so nothing unsigned is interpreted.
 * Every bad input is a failure value; this function does not throw on any input.
 */
export function verifyBundle(files: BundleFiles, trust: TrustConfig): VerificationResult {
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
  if (!verifiesEd25519(manifestMessage(files.manifest), signingKey, signature.value.signature)) {
    return refuse(verificationFailure('SIGNATURE_INVALID', { keyId: signedBy }));
  }

  const binding = checkModuleBinding(files.manifest, files.bundle);
  if (!binding.ok) return refuse(binding.failure);
  const { manifest, moduleHash, bundleSource } = binding.module;

  if (files.approval === undefined) {
    if (trust.requireApproval) return refuse(verificationFailure('APPROVAL_MISSING'));
    return { ok: true, bundle: { manifest, moduleHash, bundleSource, signedBy } };
  }
  const approval = parseApprovalFile(files.approval);
  if (!approval.ok) return refuse(verificationFailure('APPROVAL_MALFORMED', { problem: approval.problem }));
  const { keyId: approvedBy } = approval.value;
  const approvalKey = trust.approvalKeys.get(approvedBy);
  if (approvalKey === undefined) {
    return refuse(
      verificationFailure('APPROVER_UNTRUSTED', {
        keyId: approvedBy,
        onlySigner: trust.signingKeys.has(approvedBy) ? ': it is trusted only as a signing key' : '',
        trusted: listKeyIds(trust.approvalKeys),
      }),
    );
  }
  if (!sameModuleHash(approval.value.moduleHash, moduleHash)) {
    return refuse(verificationFailure('APPROVAL_HASH_MISMATCH', { approved: approval.value.moduleHash, actual: moduleHash }));
  }
  if (!verifiesEd25519(approvalMessage(moduleHash), approvalKey, approval.value.signature)) {
    return refuse(verificationFailure('APPROVAL_SIGNATURE_INVALID', { keyId: approvedBy, moduleHash }));
  }
  return { ok: true, bundle: { manifest, moduleHash, bundleSource, signedBy, approvedBy } };
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

/**
 * Ed25519 verification with the algorithm fixed by the trusted key (`null` digest: Ed25519
 * hashes internally). Nothing from the signature file chooses the algorithm.
 */
function verifiesEd25519(message: Uint8Array, publicKey: KeyObject, signature: Uint8Array): boolean {
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}

function listKeyIds(keys: ReadonlyMap<string, KeyObject>): string {
  return keys.size === 0 ? 'none' : [...keys.keys()].map((id) => `\`${id}\``).join(', ');
}
