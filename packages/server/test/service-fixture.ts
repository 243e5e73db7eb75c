/**
 * A real decision service for tests: the benefits world built, signed and approved into a
 * directory store, a JWT issuer with its own Ed25519 key, a SQLite (or given) audit store, and
 * the service listening on loopback. Requests go over real HTTP with `fetch`, and every answer
 * is checked against the service's OpenAPI document (documented-responses.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { startDecisionHost, type DecisionHost, type DecisionHostConfig } from '@adec/server';
import { asTestBundle, buildFixture, publish, testKeys, type TestKeys } from '../../../test/support/runtime.js';
import { documented } from './documented-responses.js';

export const ISSUER = 'https://issuer.test';
export const AUDIENCE = 'adec-decisions';

export interface TokenIssuer {
  readonly jwk: JWK;
  token(claims?: JWTPayload & { org_id?: unknown }, options?: { expiresIn?: string | number; kid?: string }): Promise<string>;
}

export async function tokenIssuer(kid = 'test-key'): Promise<TokenIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' };
  return {
    jwk,
    async token(claims = {}, options = {}) {
      return new SignJWT({ org_id: 'acme', sub: 'agent-7', iss: ISSUER, aud: AUDIENCE, ...claims })
        .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? kid })
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(privateKey);
    },
  };
}

export interface ServiceFixture {
  readonly host: DecisionHost;
  readonly issuer: TokenIssuer;
  readonly dir: string;
  /** The bundle directory (`<modules>/<org>/<domain>/<version>/`) and the keys its bundles are signed with. */
  readonly modules: string;
  readonly keys: TestKeys;
  post(path: string, body: unknown, token?: string | null, headers?: Record<string, string>): Promise<Response>;
  get(path: string, token?: string | null): Promise<Response>;
  close(): Promise<void>;
}

/** A service on the benefits world; `prepare` may add to its bundle directory before it starts. */
export async function startService(overrides: Partial<DecisionHostConfig> = {}, prepare?: (modules: string, keys: TestKeys) => void): Promise<ServiceFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'adec-service-'));
  const keys = testKeys();
  const modules = join(dir, 'modules');
  publish(asTestBundle(await buildFixture('examples/benefits')), modules, keys);
  prepare?.(modules, keys);
  const issuer = await tokenIssuer();
  const started = await startDecisionHost({
    modules,
    trust: keys.trust,
    auth: { issuer: ISSUER, audience: AUDIENCE, keys: [issuer.jwk] },
    audit: join(dir, 'audit.db'),
    ...overrides,
  });
  if (!started.ok) throw new Error(`${started.code}: ${started.message}`);
  const { host } = started;
  const defaultToken = await issuer.token();
  const authorization = (token: string | null | undefined): Record<string, string> => (token === null ? {} : { authorization: `Bearer ${token ?? defaultToken}` });
  return {
    host,
    issuer,
    dir,
    modules,
    keys,
    post: async (path, body, token, headers = {}) =>
      documented('POST', path, await fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...authorization(token), ...headers }, body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) })),
    get: async (path, token) => documented('GET', path, await fetch(`${host.url}${path}`, { headers: authorization(token) })),
    async close() {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A context of the benefits world's add_dependent action for each status. */
export const BY_STATUS = {
  GREEN: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] },
  'GREEN-SKIP': { relationship: 'child', dependent_age: 12, already_on_plan: true },
  YELLOW: { relationship: 'stepchild', dependent_age: 8 },
  RED: { relationship: 'child', dependent_age: 27, documents: ['birth_certificate'] },
} as const;

/** A decide request of the benefits world's add_dependent action. */
export function addDependent(context: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { domain: 'hr.benefits', action: 'add_dependent', world_model_version: '1.4.0', context, ...extra };
}
