import { createPublicKey, type KeyObject } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { keyId, KEY_ID_PATTERN } from './key-id.js';
import { ed25519Problem, readKeyFile, type KeyCode } from './key-files.js';
import { MODULE_HASH_PATTERN } from './module-hash.js';
import { readRegularFile, TRUST_FILE_MAX_BYTES } from './regular-file.js';
import { isSemver } from './semver.js';
import { decodeUtf8Exactly } from './utf8.js';
import { weakKey } from './weak-keys.js';

/**
 * Which keys a host trusts, and for what; which bundles and keys it no longer trusts; and the
 * oldest version of each module it will load. A key trusted to sign is not thereby trusted to
 * approve: the two lists are separate, and a key must be in `approvalKeys` to approve.
 */
export interface TrustConfig {
  /** Key id → public key of every key trusted to sign manifests. */
  readonly signingKeys: ReadonlyMap<string, KeyObject>;
  /** Key id → public key of every operator key trusted to approve module hashes. */
  readonly approvalKeys: ReadonlyMap<string, KeyObject>;
  /** Whether a bundle without approval.json is refused. A present approval is always checked. */
  readonly requireApproval: boolean;
  /** Module hashes (`sha256:<hex>`) that are refused however they are signed and approved. */
  readonly revokedModules?: ReadonlySet<string>;
  /** Key ids whose signatures and approvals are refused, even while the key is still listed as trusted. */
  readonly revokedKeys?: ReadonlySet<string>;
  /** Per module (org, domain): the oldest world version that is loaded. */
  readonly minimumVersions?: readonly MinimumVersion[];
}

/** Versions of `org`/`domain` below `version` (semantic versioning precedence) are refused. */
export interface MinimumVersion {
  readonly org: string;
  readonly domain: string;
  readonly version: string;
}

/** Why a trust file was refused: `TRUST_FILE_INVALID`, or the code of the key or file that could not be used. */
export type TrustConfigCode = 'TRUST_FILE_INVALID' | KeyCode;

export type TrustConfigLoad =
  | { readonly ok: true; readonly trust: TrustConfig }
  | { readonly ok: false; readonly code: TrustConfigCode; readonly message: string };

export interface TrustConfigOptions {
  signingKeys: KeyObject[];
  approvalKeys: KeyObject[];
  requireApproval?: boolean;
  revokedModules?: string[];
  revokedKeys?: string[];
  minimumVersions?: MinimumVersion[];
}

/**
 * A trust configuration from keys in hand (for hosts that keep keys elsewhere, and tests).
 * Private keys are reduced to their public part. A key that is not a sound Ed25519 key, or a
 * revocation or minimum that is not well formed, is a programming error and throws a TypeError
 * naming it; `requireApproval` defaults to true.
 */
export function trustConfig(options: TrustConfigOptions): TrustConfig {
  const problem = revocationProblem(options.revokedModules ?? [], options.revokedKeys ?? []) ?? minimumVersionsProblem(options.minimumVersions ?? []);
  if (problem !== undefined) throw new TypeError(`trustConfig: ${problem}`);
  return Object.freeze({
    signingKeys: keysById(options.signingKeys, 'signingKeys'),
    approvalKeys: keysById(options.approvalKeys, 'approvalKeys'),
    requireApproval: options.requireApproval ?? true,
    revokedModules: new Set(options.revokedModules ?? []),
    revokedKeys: new Set(options.revokedKeys ?? []),
    minimumVersions: Object.freeze((options.minimumVersions ?? []).map(({ org, domain, version }) => Object.freeze({ org, domain, version }))),
  });
}

function keysById(keys: readonly KeyObject[], list: string): ReadonlyMap<string, KeyObject> {
  return new Map(
    keys.map((key, index) => {
      const problem = ed25519Problem(key);
      if (problem !== undefined) throw new TypeError(`trustConfig: ${list}[${index}] ${problem}`);
      const weak = weakKey(key);
      if (weak !== undefined) throw new TypeError(`trustConfig: ${list}[${index}] ${weak.code}: ${weak.problem}`);
      const publicKey = key.type === 'private' ? createPublicKey(key) : key;
      return [keyId(publicKey), publicKey] as const;
    }),
  );
}

const TRUST_FIELDS = ['signing_keys', 'approval_keys', 'require_approval', 'revoked_modules', 'revoked_keys', 'minimum_versions'] as const;

/**
 * Reads a trust file (at most 16 MiB):
 *
 *     { "signing_keys": ["ci.pub.jwk"], "approval_keys": ["ops.pub.jwk"], "require_approval": true,
 *       "revoked_modules": ["sha256:…"], "revoked_keys": ["<key id>"],
 *       "minimum_versions": [{ "org": "acme", "domain": "hr.benefits", "version": "1.4.0" }] }
 *
 * Key entries are paths relative to the trust file, to PEM or JWK Ed25519 keys (public, or
 * private: only the public part is kept). `require_approval` defaults to true; the last three
 * fields default to empty. `path` is resolved against `cwd` and named as given in messages;
 * every problem is a coded message naming the file and the entry, never a throw.
 */
export async function loadTrustConfig(path: string, cwd: string = process.cwd()): Promise<TrustConfigLoad> {
  const absolute = resolve(cwd, path);
  const refuse = (problem: string, code: TrustConfigCode = 'TRUST_FILE_INVALID'): TrustConfigLoad => ({
    ok: false,
    code,
    message: `trust file \`${path}\` ${problem}`,
  });

  const read = await readRegularFile(absolute, { maxBytes: TRUST_FILE_MAX_BYTES, followSymlinks: true });
  if (!read.ok) return refuse(read.problem, read.code);
  const text = decodeUtf8Exactly(read.bytes);
  if (text === undefined) return refuse('is not valid UTF-8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return refuse(`is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('is not a JSON object');
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !(TRUST_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) return refuse(`has unknown field \`${unknown}\` (expected ${TRUST_FIELDS.join(', ')})`);

  const requireApproval = fields['require_approval'] ?? true;
  if (typeof requireApproval !== 'boolean') return refuse('has `require_approval` that is not true or false');
  if (fields['signing_keys'] === undefined) return refuse('has no `signing_keys`');
  const signingPaths = stringList(fields, 'signing_keys', 'key file path');
  if (typeof signingPaths === 'string') return refuse(signingPaths);
  const approvalPaths = stringList(fields, 'approval_keys', 'key file path');
  if (typeof approvalPaths === 'string') return refuse(approvalPaths);
  // An empty list would refuse every bundle; that is a mistake in the file, said here.
  if (signingPaths.length === 0) return refuse('has an empty `signing_keys`: no bundle could verify');
  if (requireApproval && approvalPaths.length === 0) {
    return refuse('requires approval but lists no `approval_keys`: no bundle could verify');
  }
  const revokedModules = stringList(fields, 'revoked_modules', 'module hash');
  if (typeof revokedModules === 'string') return refuse(revokedModules);
  const revokedKeys = stringList(fields, 'revoked_keys', 'key id');
  if (typeof revokedKeys === 'string') return refuse(revokedKeys);
  const revocation = revocationProblem(revokedModules, revokedKeys);
  if (revocation !== undefined) return refuse(revocation);
  const minimumVersions = minimumVersionList(fields['minimum_versions'] ?? []);
  if (typeof minimumVersions === 'string') return refuse(minimumVersions);

  const base = dirname(absolute);
  const signingKeys = await readKeys(signingPaths, 'signing_keys', base);
  if (!Array.isArray(signingKeys)) return refuse(signingKeys.problem, signingKeys.code);
  const approvalKeys = await readKeys(approvalPaths, 'approval_keys', base);
  if (!Array.isArray(approvalKeys)) return refuse(approvalKeys.problem, approvalKeys.code);
  return { ok: true, trust: trustConfig({ signingKeys, approvalKeys, requireApproval, revokedModules, revokedKeys, minimumVersions }) };
}

/** The list of strings in `field` (absent = empty), or the problem with it. */
function stringList(fields: Readonly<Record<string, unknown>>, field: string, entry: string): string[] | string {
  const list = fields[field] ?? [];
  if (!Array.isArray(list)) return `has \`${field}\` that is not a list of ${entry}s`;
  const notString = list.findIndex((item) => typeof item !== 'string' || item === '');
  if (notString >= 0) return `has \`${field}[${notString}]\` that is not a ${entry}`;
  return list as string[];
}

function revocationProblem(modules: readonly string[], keys: readonly string[]): string | undefined {
  const badModule = modules.findIndex((hash) => !MODULE_HASH_PATTERN.test(hash));
  if (badModule >= 0) return `has \`revoked_modules[${badModule}]\` \`${modules[badModule]}\`, expected "sha256:" and 64 lowercase hex digits`;
  const badKey = keys.findIndex((id) => !KEY_ID_PATTERN.test(id));
  if (badKey >= 0) return `has \`revoked_keys[${badKey}]\` \`${keys[badKey]}\`, expected a key id (43 base64url characters)`;
  return undefined;
}

function minimumVersionList(value: unknown): MinimumVersion[] | string {
  if (!Array.isArray(value)) return 'has `minimum_versions` that is not a list';
  const entries: MinimumVersion[] = [];
  for (const [index, entry] of (value as readonly unknown[]).entries()) {
    const { org, domain, version } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const fields = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.keys(entry) : [];
    if (typeof org !== 'string' || typeof domain !== 'string' || typeof version !== 'string' || fields.length !== 3) {
      return `has \`minimum_versions[${index}]\` that is not an object of exactly \`org\`, \`domain\` and \`version\` strings`;
    }
    entries.push({ org, domain, version });
  }
  return minimumVersionsProblem(entries) ?? entries;
}

function minimumVersionsProblem(entries: readonly MinimumVersion[]): string | undefined {
  const seen = new Set<string>();
  for (const [index, { org, domain, version }] of entries.entries()) {
    if (!isSemver(version)) return `has \`minimum_versions[${index}]\` version \`${version}\`, expected a semantic version (MAJOR.MINOR.PATCH)`;
    const module = JSON.stringify([org, domain]);
    if (seen.has(module)) return `has \`minimum_versions[${index}]\` for ${org}/${domain} a second time`;
    seen.add(module);
  }
  return undefined;
}

/** The keys of one list, or the problem with the first entry that cannot be used. */
async function readKeys(paths: readonly string[], field: string, base: string): Promise<KeyObject[] | { code: KeyCode; problem: string }> {
  const keys: KeyObject[] = [];
  for (const [index, path] of paths.entries()) {
    const read = await readKeyFile(path, base);
    if (!read.ok) return { code: read.code, problem: `entry \`${field}[${index}]\`: ${read.message}` };
    keys.push(read.key);
  }
  return keys;
}
