import { readRegularFile } from '@adec/runtime';
import type { JWK } from 'jose';
import { importVerificationKey } from './verification-key.js';
import { keyName, VerificationKeys } from './verification-keys.js';

/**
 * How the service authenticates callers: which issuers and audiences it accepts and the public
 * keys their tokens are signed with. The caller's tenant comes only from a verified token
 * (ARCHITECTURE.md, "HTTP service").
 */
export interface AuthConfig {
  readonly issuer: string | readonly string[];
  readonly audience: string | readonly string[];
  /** The keys tokens may be signed with: public JWKs (each with `kid` and `alg`) */
  readonly keys: readonly JWK[];
  /** Allowed clock skew, seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** The claim holding the tenant (default 'org_id'). */
  readonly tenantClaim?: string;
}

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

export const DEFAULT_TENANT_CLAIM = 'org_id';

/** A key set holds a handful of public keys, a few KiB; anything near this is not one. */
export const JWKS_FILE_MAX_BYTES = 1024 * 1024;

/** An AuthConfig with its defaults applied and its keys checked. */
export interface ResolvedAuthConfig {
  readonly issuers: readonly string[];
  readonly audiences: readonly string[];
  readonly keys: VerificationKeys;
  readonly clockToleranceSeconds: number;
  readonly tenantClaim: string;
}

export type JwksLoad = { ok: true; keys: JWK[] } | { ok: false; message: string };

/**
 * Reads a JWK set file (`{ "keys": [...] }`, RFC 7517 §5) of at most 1 MiB and checks every key
 * as verification will use it (verification-key.ts), including that its material imports. The
 * message names the file and the key: `` jwks file `idp.json`: `keys[1]` (kid `a`) is a private key … ``.
 */
export async function loadJwks(path: string): Promise<JwksLoad> {
  const refuse = (problem: string): JwksLoad => ({ ok: false, message: `jwks file \`${path}\` ${problem}` });
  const read = await readRegularFile(path, { maxBytes: JWKS_FILE_MAX_BYTES, followSymlinks: true });
  if (!read.ok) return refuse(read.problem);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return refuse('is not valid UTF-8 text');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return refuse(`is not valid JSON: ${(error as Error).message}`);
  }
  const keys = typeof parsed === 'object' && parsed !== null ? (parsed as Readonly<Record<string, unknown>>)['keys'] : undefined;
  if (Array.isArray(parsed) || !Array.isArray(keys)) return refuse('is not a JWK set: expected a JSON object with a `keys` list');
  const check = VerificationKeys.check(keys);
  if (!check.ok) return { ok: false, message: `jwks file \`${path}\`: ${check.problem}` };
  for (const [index, key] of check.keys.all.entries()) {
    const imported = await importVerificationKey(key);
    if (!imported.ok) return { ok: false, message: `jwks file \`${path}\`: ${keyName(index, key.jwk)} ${imported.problem}` };
  }
  return { ok: true, keys: keys as JWK[] };
}

/**
 * Applies the defaults and checks a configuration built in code. A configuration read from
 * files is checked by loadJwks with messages for the operator; a wrong one here is a fault in the
 * program that built it, so it is thrown.
 */
export function resolveAuthConfig(config: AuthConfig): ResolvedAuthConfig {
  const issuers = nonEmptyStrings(config.issuer, 'issuer');
  const audiences = nonEmptyStrings(config.audience, 'audience');
  const check = VerificationKeys.check(config.keys);
  if (!check.ok) throw new TypeError(`auth configuration: ${check.problem}`);
  const clockToleranceSeconds = config.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isFinite(clockToleranceSeconds) || clockToleranceSeconds < 0) {
    throw new TypeError(`auth configuration: \`clockToleranceSeconds\` must be a number of seconds of at least 0, not ${clockToleranceSeconds}`);
  }
  const tenantClaim = config.tenantClaim ?? DEFAULT_TENANT_CLAIM;
  if (tenantClaim === '') throw new TypeError('auth configuration: `tenantClaim` must name a claim');
  return { issuers, audiences, keys: check.keys, clockToleranceSeconds, tenantClaim };
}

function nonEmptyStrings(value: string | readonly string[], name: string): readonly string[] {
  const values = typeof value === 'string' ? [value] : [...value];
  if (values.length === 0 || values.some((v) => typeof v !== 'string' || v === '')) {
    throw new TypeError(`auth configuration: \`${name}\` must be a non-empty string or a non-empty list of them`);
  }
  return values;
}
