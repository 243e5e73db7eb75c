import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { keyId } from './key-id.js';
import { ed25519Problem, parseKey } from './key-files.js';
import { readProblem } from './read-problem.js';
import { decodeUtf8Exactly } from './utf8.js';

/**
 * Which keys a host trusts, and for what. A key trusted to sign is not thereby trusted to
 * approve: the two lists are separate, and a key must be in `approvalKeys` to approve.
 */
export interface TrustConfig {
  /** Key id → public key of every key trusted to sign manifests. */
  readonly signingKeys: ReadonlyMap<string, KeyObject>;
  /** Key id → public key of every operator key trusted to approve module hashes. */
  readonly approvalKeys: ReadonlyMap<string, KeyObject>;
  /** Whether a bundle without approval.json is refused. A present approval is always checked. */
  readonly requireApproval: boolean;
}

export type TrustConfigLoad = { readonly ok: true; readonly trust: TrustConfig } | { readonly ok: false; readonly message: string };

/**
 * A trust configuration from keys in hand (for hosts that keep keys elsewhere, and tests).
 * Private keys are reduced to their public part. A key that is not Ed25519 is a programming
 * error and throws a TypeError naming its type; `requireApproval` defaults to true.
 */
export function trustConfig(options: {
  signingKeys: KeyObject[];
  approvalKeys: KeyObject[];
  requireApproval?: boolean;
}): TrustConfig {
  return Object.freeze({
    signingKeys: keysById(options.signingKeys, 'signingKeys'),
    approvalKeys: keysById(options.approvalKeys, 'approvalKeys'),
    requireApproval: options.requireApproval ?? true,
  });
}

function keysById(keys: readonly KeyObject[], list: string): ReadonlyMap<string, KeyObject> {
  return new Map(
    keys.map((key, index) => {
      const problem = ed25519Problem(key);
      if (problem !== undefined) throw new TypeError(`trustConfig: ${list}[${index}] ${problem}`);
      const publicKey = key.type === 'private' ? createPublicKey(key) : key;
      return [keyId(publicKey), publicKey] as const;
    }),
  );
}

const TRUST_FIELDS = ['signing_keys', 'approval_keys', 'require_approval'] as const;

/**
 * Reads a trust file:
 *
 *     { "signing_keys": ["ci.pub.jwk"], "approval_keys": ["ops.pub.jwk"], "require_approval": true }
 *
 * Key entries are paths relative to the trust file, to PEM or JWK Ed25519 keys (public, or
 * private: only the public part is kept). `require_approval` defaults to true. `path` is
 * resolved against `cwd` and named as given in messages; every problem is a message naming the
 * file and the entry, never a throw.
 */
export async function loadTrustConfig(path: string, cwd: string = process.cwd()): Promise<TrustConfigLoad> {
  const absolute = resolve(cwd, path);
  const refuse = (problem: string): TrustConfigLoad => ({ ok: false, message: `trust file \`${path}\` ${problem}` });

  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    return refuse(readProblem(error));
  }
  const text = decodeUtf8Exactly(bytes);
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
  const signingPaths = pathList(fields, 'signing_keys');
  if (typeof signingPaths === 'string') return refuse(signingPaths);
  const approvalPaths = pathList(fields, 'approval_keys');
  if (typeof approvalPaths === 'string') return refuse(approvalPaths);
  // An empty list would refuse every bundle; that is a mistake in the file, said here.
  if (signingPaths.length === 0) return refuse('has an empty `signing_keys`: no bundle could verify');
  if (requireApproval && approvalPaths.length === 0) {
    return refuse('requires approval but lists no `approval_keys`: no bundle could verify');
  }

  const base = dirname(absolute);
  const signingKeys = await readKeys(signingPaths, 'signing_keys', base);
  if (typeof signingKeys === 'string') return refuse(signingKeys);
  const approvalKeys = await readKeys(approvalPaths, 'approval_keys', base);
  if (typeof approvalKeys === 'string') return refuse(approvalKeys);
  return { ok: true, trust: trustConfig({ signingKeys, approvalKeys, requireApproval }) };
}

/** The list of key paths in `field` (absent = empty), or the problem with it. */
function pathList(fields: Readonly<Record<string, unknown>>, field: string): string[] | string {
  const list = fields[field] ?? [];
  if (!Array.isArray(list)) return `has \`${field}\` that is not a list of key file paths`;
  const notString = list.findIndex((entry) => typeof entry !== 'string' || entry === '');
  if (notString >= 0) return `has \`${field}[${notString}]\` that is not a key file path`;
  return list as string[];
}

/** The keys of one list, or the problem with the first entry that cannot be used. */
async function readKeys(paths: readonly string[], field: string, base: string): Promise<KeyObject[] | string> {
  const keys: KeyObject[] = [];
  for (const [index, path] of paths.entries()) {
    let bytes: Buffer;
    try {
      bytes = await readFile(resolve(base, path));
    } catch (error) {
      return `entry \`${field}[${index}]\`: key file \`${path}\` ${readProblem(error)}`;
    }
    const read = parseKey(bytes, path);
    if (!read.ok) return `entry \`${field}[${index}]\`: ${read.message}`;
    keys.push(read.key);
  }
  return keys;
}
