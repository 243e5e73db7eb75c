/**
 * Signing, approval and verification of adec bundles (ARCHITECTURE.md "Sign and approve",
 * "Load"). Ed25519 only, strictly (no weak keys, no malleable signatures); key ids are RFC 7638
 * thumbprints; approvals expire and name their world version; see packages/runtime/README.md,
 * "Signing, approval and verification", for the file formats and the failure codes.
 */
export { DEFAULT_APPROVAL_LIFETIME_MS, formatApprovalTime, parseApprovalTime } from './approval-times.js';
export { BUNDLE_FILES, DEFAULT_BUNDLE_FILE_LIMITS, readBundleFiles } from './bundle-files.js';
export type { BundleFileLimits, BundleFiles, BundleFilesRead } from './bundle-files.js';
export { generateKey, keyFileNames, KEY_FORMATS } from './generate-key.js';
export type { GeneratedKey, KeyFormat } from './generate-key.js';
export { parseKey, readKeyFile, readPrivateKeyFile } from './key-files.js';
export type { KeyCode, KeyRead } from './key-files.js';
export { LoadedApprovals } from './loaded-approvals.js';
export { keyId } from './key-id.js';
export { approvalMessage, manifestMessage } from './messages.js';
export type { ApprovalCompiler, ApprovalFormat, ApprovalStatement } from './messages.js';
export { checkModuleBinding, describeBundleWorld } from './module-binding.js';
export type { BoundModule, BundleWorld, ModuleBinding } from './module-binding.js';
export { moduleHashOf } from './module-hash.js';
export { KEY_FILE_MAX_BYTES, readRegularFile, TRUST_FILE_MAX_BYTES } from './regular-file.js';
export type { FileCode, FileRead, FileReadOptions } from './regular-file.js';
export { compareSemver, isSemver } from './semver.js';
export { approveModule, signManifest } from './sign.js';
export type { Approval } from './sign.js';
export { APPROVAL_FORMAT, formatSignatureFile } from './signature-files.js';
export type { ApprovalFile, SignatureFile } from './signature-files.js';
export { loadTrustConfig, trustConfig } from './trust-config.js';
export type { MinimumVersion, TrustConfig, TrustConfigCode, TrustConfigLoad, TrustConfigOptions } from './trust-config.js';
export { VERIFICATION_CATALOGUE, VERIFICATION_CODES } from './verification-failure.js';
export type { VerificationCheck, VerificationCode, VerificationFailure } from './verification-failure.js';
export { verifyBundle } from './verify-bundle.js';
export type { VerificationResult, VerifiedBundle, VerifyOptions } from './verify-bundle.js';
export type { WeakKeyCode } from './weak-keys.js';
