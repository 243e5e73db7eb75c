import { MODULE_HASH_PATTERN, moduleHashOf, sameModuleHash } from './module-hash.js';
import { decodeUtf8Exactly } from './utf8.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/** A manifest whose `module_hash` is the hash of the bundle bytes beside it. */
export interface BoundModule {
  readonly manifest: Record<string, unknown>;
  readonly moduleHash: string;
  /** The bundle bytes as text, exactly: the script that was hashed is the script that runs. */
  readonly bundleSource: string;
}

export type ModuleBinding = { readonly ok: true; readonly module: BoundModule } | { readonly ok: false; readonly failure: VerificationFailure };

/**
 * Checks that manifest.json is a JSON object with a valid `module_hash` and that it is the
 * sha256 of bundle.js (MANIFEST_INVALID, MODULE_HASH_MISMATCH, BUNDLE_NOT_UTF8). Verification
 * runs it after the signature check; `adec sign` and `adec approve` run it before signing, so
 * a broken bundle is never signed.
 */
export function checkModuleBinding(manifestBytes: Uint8Array, bundle: Uint8Array): ModuleBinding {
  const manifest = parseManifest(manifestBytes);
  if (typeof manifest === 'string') return { ok: false, failure: verificationFailure('MANIFEST_INVALID', { problem: manifest }) };
  const expected = manifest['module_hash'];
  if (typeof expected !== 'string') {
    return { ok: false, failure: verificationFailure('MANIFEST_INVALID', { problem: 'has no `module_hash` string' }) };
  }
  if (!MODULE_HASH_PATTERN.test(expected)) {
    const problem = `has \`module_hash\` \`${expected.slice(0, 80)}\`, expected "sha256:" and 64 lowercase hex digits`;
    return { ok: false, failure: verificationFailure('MANIFEST_INVALID', { problem }) };
  }
  const actual = moduleHashOf(bundle);
  if (!sameModuleHash(actual, expected)) {
    return { ok: false, failure: verificationFailure('MODULE_HASH_MISMATCH', { actual, expected }) };
  }
  const bundleSource = decodeUtf8Exactly(bundle);
  if (bundleSource === undefined) return { ok: false, failure: verificationFailure('BUNDLE_NOT_UTF8') };
  return { ok: true, module: { manifest, moduleHash: expected, bundleSource } };
}

/** The manifest object, or the problem with it. */
function parseManifest(bytes: Uint8Array): Record<string, unknown> | string {
  const text = decodeUtf8Exactly(bytes);
  if (text === undefined) return 'is not valid UTF-8';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  return value as Record<string, unknown>;
}
