/**
 * Signing, approval and verification of adec bundles (ARCHITECTURE.md "Sign and approve",
 * "Load"). Ed25519 only; key ids are RFC 7638 thumbprints; see packages/runtime/README.md,
 * "Signing, approval and verification", for the file formats and the failure codes.
 */
export { BUNDLE_FILES, readBundleFiles } from './bundle-files.js';
export type { BundleFiles, BundleFilesRead } from './bundle-files.js';
export { generateKey, keyFileNames, KEY_FORMATS } from './generate-key.js';
export type { GeneratedKey, KeyFormat } from './generate-key.js';
export { parseKey, readKeyFile, readPrivateKeyFile } from './key-files.js';
export type { KeyRead } from './key-files.js';
export { keyId } from './key-id.js';
export { approvalMessage, manifestMessage } from './messages.js';
export { checkModuleBinding } from './module-binding.js';
export type { BoundModule, ModuleBinding } from './module-binding.js';
export { moduleHashOf } from './module-hash.js';
export { approveModule, signManifest } from './sign.js';
export { formatSignatureFile } from './signature-files.js';
export type { ApprovalFile, SignatureFile } from './signature-files.js';
export { loadTrustConfig, trustConfig } from './trust-config.js';
export type { TrustConfig, TrustConfigLoad } from './trust-config.js';
export { VERIFICATION_CATALOGUE, VERIFICATION_CODES } from './verification-failure.js';
export type { VerificationCheck, VerificationCode, VerificationFailure } from './verification-failure.js';
export { verifyBundle } from './verify-bundle.js';
export type { VerificationResult, VerifiedBundle } from './verify-bundle.js';
