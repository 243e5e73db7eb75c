import { isJsonObject, type JsonObject } from '@adec/abi';
import { MODULE_HASH_PATTERN, moduleHashOf, sameModuleHash } from './module-hash.js';
import { decodeUtf8Exactly } from './utf8.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/** Which world version a bundle is: what routing keys, approvals and minimum versions name. */
export interface BundleWorld {
  readonly org: string;
  readonly domain: string;
  readonly version: string;
}

/** A manifest whose `module_hash` is the hash of the bundle bytes beside it. */
export interface BoundModule {
  /** Parsed, not yet read as a manifest of some ABI: loading reads it (load-module.ts). */
  readonly manifest: JsonObject;
  readonly moduleHash: string;
  /** `manifest.world`'s org, domain and version. */
  readonly world: BundleWorld;
  /** The bundle bytes as text, exactly: the script that was hashed is the script that runs. */
  readonly bundleSource: string;
}

export type ModuleBinding = { readonly ok: true; readonly module: BoundModule } | { readonly ok: false; readonly failure: VerificationFailure };

/**
 * Checks that manifest.json is a JSON object with a valid `module_hash` and that it is the
 * sha256 of bundle.js (MANIFEST_INVALID, MODULE_HASH_MISMATCH, BUNDLE_NOT_UTF8), and that it
 * names its world (MANIFEST_INVALID). Verification
 * runs it after the signature check; `adec sign` and `adec approve` run it before signing, so
 * a broken bundle is never signed.
 */
export function checkModuleBinding(manifestBytes: Uint8Array, bundle: Uint8Array): ModuleBinding {
  const manifest = parseManifest(manifestBytes);
  if (typeof manifest === 'string') return { ok: false, failure: verificationFailure('MANIFEST_INVALID', { problem: manifest }) };
  const expected = manifest.module_hash;
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
  const world = bundleWorld(manifest.world);
  if (world === undefined) {
    return { ok: false, failure: verificationFailure('MANIFEST_INVALID', { problem: 'has no `world` with `org`, `domain` and `version` strings' }) };
  }
  return { ok: true, module: { manifest, moduleHash: expected, world, bundleSource } };
}

/** `{ org, domain, version }` (strings) of a manifest's or an approval's `world`, or undefined. */
export function bundleWorld(value: unknown): BundleWorld | undefined {
  if (!isJsonObject(value)) return undefined;
  const { org, domain, version } = value;
  return typeof org === 'string' && typeof domain === 'string' && typeof version === 'string' ? { org, domain, version } : undefined;
}

/** `acme/hr.benefits@1.4.0`, as messages name a world version. */
export function describeBundleWorld(world: BundleWorld): string {
  return `${world.org}/${world.domain}@${world.version}`;
}

/** The manifest object, or the problem with it. */
function parseManifest(bytes: Uint8Array): JsonObject | string {
  const text = decodeUtf8Exactly(bytes);
  if (text === undefined) return 'is not valid UTF-8';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
  return isJsonObject(value) ? value : 'is not a JSON object';
}
