/**
 * Bearer-token authentication of the decision service, with real signatures: Ed25519, ES256 and
 * RS256 keys made by jose, tokens signed by jose (or by hand where jose refuses to make them),
 * each refusal checked for its code and for a message that names what failed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AUTH_ERROR_CODES,
  loadJwks,
  MAX_DELEGATION_DEPTH,
  MAX_TOKEN_CHARS,
  TokenVerifier,
  type AuthConfig,
  type AuthErrorCode,
  type TokenVerification,
} from '../src/auth/index.js';

const ISSUER = 'https://idp.example';
const AUDIENCE = 'adec-decisions';
/** The instant every token is judged at: 2026-03-01T09:00:00Z. */
const NOW = Date.UTC(2026, 2, 1, 9);
const NOW_S = NOW / 1000;

type KeyPair = Awaited<ReturnType<typeof jose.generateKeyPair>>;

interface SigningKey {
  readonly kid: string;
  readonly alg: 'EdDSA' | 'ES256' | 'RS256';
  readonly pair: KeyPair;
  readonly jwk: jose.JWK;
}

let ed: SigningKey;
let es: SigningKey;
let rs: SigningKey;
/** An Ed25519 key the service does not know. */
let rogue: SigningKey;
let verifier: TokenVerifier;
let dir: string;

async function signingKey(kid: string, alg: SigningKey['alg']): Promise<SigningKey> {
  // Extractable so that tests can also write the private half into a key set that must refuse it.
  const pair = alg === 'EdDSA' ? await jose.generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true }) : await jose.generateKeyPair(alg, { extractable: true });
  return { kid, alg, pair, jwk: { ...(await jose.exportJWK(pair.publicKey)), kid, alg } };
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { issuer: ISSUER, audience: AUDIENCE, keys: [ed.jwk, es.jwk, rs.jwk], ...overrides };
}

beforeAll(async () => {
  [ed, es, rs, rogue] = await Promise.all([
    signingKey('ed-1', 'EdDSA'),
    signingKey('es-1', 'ES256'),
    signingKey('rs-1', 'RS256'),
    signingKey('ed-1', 'EdDSA'),
  ]);
  verifier = new TokenVerifier(config());
  dir = mkdtempSync(join(tmpdir(), 'adec-auth-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The claims of a token valid at NOW, with `overrides` applied (an `undefined` value removes the claim). */
function claims(overrides: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'user-7',
    org_id: 'acme',
    iat: NOW_S - 60,
    exp: NOW_S + 300,
    jti: 'token-1',
    scope: 'decide replay',
  };
  return Object.fromEntries(Object.entries({ ...base, ...overrides }).filter(([, value]) => value !== undefined));
}

/** A token signed by `key` with jose; `header` replaces the default `{ alg, kid }`. */
function sign(payload: Record<string, unknown> = claims(), key: SigningKey = ed, header: jose.JWTHeaderParameters = { alg: key.alg, kid: key.kid }): Promise<string> {
  return new jose.SignJWT(payload).setProtectedHeader(header).sign(key.pair.privateKey);
}

/** `jwk` without the members `names`. */
function withoutMembers(jwk: jose.JWK, ...names: readonly string[]): jose.JWK {
  const omitted = new Set(names);
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !omitted.has(name)));
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token with any header at all, signed by hand with an Ed25519 key (jose will not sign a `crit` it does not know). */
async function signByHand(header: Readonly<Record<string, unknown>>, payload: Readonly<Record<string, unknown>>, key: SigningKey = ed): Promise<string> {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = await crypto.subtle.sign('Ed25519', key.pair.privateKey, Buffer.from(input));
  return `${input}.${Buffer.from(signature).toString('base64url')}`;
}

const bearer = (token: string) => `Bearer ${token}`;

function actChain(depth: number): Record<string, unknown> | undefined {
  let act: Record<string, unknown> | undefined;
  for (let level = depth; level >= 1; level--) act = { sub: `agent-${level}`, ...(act === undefined ? {} : { act }) };
  return act;
}

/** Every code a test has seen, so the last test can check the catalogue is covered. */
const codesSeen = new Set<AuthErrorCode>();

/**
 * Verifies at NOW and expects a refusal with `code`, a message in the house style (lowercase
 * start, no final period) containing every fragment, and never the token or its signature.
 */
async function expectRefused(
  authorization: string | undefined,
  code: AuthErrorCode,
  fragments: readonly string[],
  by: TokenVerifier = verifier,
): Promise<string> {
  const result = await by.verify(authorization, NOW);
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.code, result.message).toBe(code);
  codesSeen.add(result.code);
  expect(result.message).toMatch(/^[a-z]/);
  expect(result.message).not.toMatch(/\.$/);
  for (const fragment of fragments) expect(result.message).toContain(fragment);
  const token = authorization?.split(' ').at(-1) ?? '';
  const signature = token.split('.')[2] ?? '';
  if (token.length > 20) expect(result.message).not.toContain(token);
  if (signature.length > 20) expect(result.message).not.toContain(signature);
  return result.message;
}

async function expectCaller(result: Promise<TokenVerification>) {
  const verification = await result;
  if (!verification.ok) throw new Error(`refused: ${verification.code}: ${verification.message}`);
  return verification.caller;
}

describe('valid tokens', () => {
  it('gives the caller from a token signed with Ed25519', async () => {
    const caller = await expectCaller(verifier.verify(bearer(await sign()), NOW));
    expect(caller).toEqual({ tenant: 'acme', subject: 'user-7', delegation: [], tokenId: 'token-1', scopes: ['decide', 'replay'] });
  });

  it.each(['ES256', 'RS256'] as const)('verifies a token signed with %s', async (alg) => {
    const key = alg === 'ES256' ? es : rs;
    const caller = await expectCaller(verifier.verify(bearer(await sign(claims({ org_id: `tenant-${alg}` }), key)), NOW));
    expect(caller.tenant).toBe(`tenant-${alg}`);
  });

  it('accepts any case of the scheme and spaces around the token', async () => {
    const token = await sign();
    for (const header of [`bearer ${token}`, `BEARER ${token}`, `Bearer   ${token}`, ` Bearer ${token} `]) {
      expect((await verifier.verify(header, NOW)).ok, header.slice(0, 12)).toBe(true);
    }
  });

  it('reads the tenant from the configured claim', async () => {
    const byTenant = new TokenVerifier(config({ tenantClaim: 'https://adec.dev/tenant' }));
    const token = await sign(claims({ org_id: undefined, 'https://adec.dev/tenant': 'globex' }));
    expect((await expectCaller(byTenant.verify(bearer(token), NOW))).tenant).toBe('globex');
    await expectRefused(bearer(await sign()), 'TOKEN_CLAIMS_INVALID', ['`https://adec.dev/tenant`', 'missing'], byTenant);
  });

  it('accepts a token without `kid` when exactly one key is configured', async () => {
    const single = new TokenVerifier(config({ keys: [es.jwk] }));
    const token = await sign(claims(), es, { alg: 'ES256' });
    expect((await expectCaller(single.verify(bearer(token), NOW))).subject).toBe('user-7');
  });

  it('allows the configured clock skew on `exp` and `nbf`', async () => {
    const skewed = await sign(claims({ exp: NOW_S - 20, nbf: NOW_S + 20 }));
    expect((await verifier.verify(bearer(skewed), NOW)).ok).toBe(true);
    const strict = new TokenVerifier(config({ clockToleranceSeconds: 0 }));
    await expectRefused(bearer(skewed), 'TOKEN_NOT_YET_VALID', ['clock tolerance 0 s'], strict);
  });

  it('reads scopes from `scope`, from an `scp` list, or from an `scp` string, and none when absent', async () => {
    const scopesOf = async (overrides: Record<string, unknown>) =>
      (await expectCaller(verifier.verify(bearer(await sign(claims({ scope: undefined, ...overrides }))), NOW))).scopes;
    expect(await scopesOf({ scope: ' decide  decide replay ' })).toEqual(['decide', 'replay']);
    expect(await scopesOf({ scp: ['decide', 'audit.read'] })).toEqual(['decide', 'audit.read']);
    expect(await scopesOf({ scp: 'decide audit.read' })).toEqual(['decide', 'audit.read']);
    expect(await scopesOf({})).toEqual([]);
    expect(await scopesOf({ scope: 'decide', scp: ['ignored'] })).toEqual(['decide']);
  });

  it('gives a null token id when `jti` is absent', async () => {
    expect((await expectCaller(verifier.verify(bearer(await sign(claims({ jti: undefined }))), NOW))).tokenId).toBeNull();
  });
});

describe('the Authorization header', () => {
  it('refuses a request without a token', async () => {
    await expectRefused(undefined, 'TOKEN_MISSING', ['no `Authorization` header']);
    await expectRefused('  ', 'TOKEN_MISSING', ['no `Authorization` header']);
    await expectRefused('Bearer', 'TOKEN_MISSING', ['says `Bearer` but holds no token']);
  });

  it('refuses another scheme, naming it', async () => {
    await expectRefused('Basic dXNlcjpwYXNz', 'TOKEN_MISSING', ['`Basic` scheme', 'expected `Bearer <token>`']);
    await expectRefused('garbage', 'TOKEN_MISSING', ['`garbage` scheme']);
  });

  it('does not show a token sent without a scheme', async () => {
    const message = await expectRefused(await sign(), 'TOKEN_MISSING', ['does not start with an authentication scheme']);
    expect(message).not.toContain('eyJ');
  });

  it('refuses two tokens', async () => {
    const token = await sign();
    await expectRefused(`Bearer ${token} ${token}`, 'TOKEN_MALFORMED', ['2 space-separated values after `Bearer`', 'exactly one token']);
  });

  it('refuses garbage that is not a compact JWS', async () => {
    await expectRefused('Bearer garbage', 'TOKEN_MALFORMED', ['not a signed JWT', 'three base64url parts']);
    await expectRefused('Bearer a.b', 'TOKEN_MALFORMED', ['three base64url parts']);
    await expectRefused('Bearer a+b.c/d.e=', 'TOKEN_MALFORMED', ['three base64url parts']);
    await expectRefused('Bearer a.b.c.d.e', 'TOKEN_MALFORMED', ['encrypted token (JWE)']);
  });

  it('refuses a header that is not base64url JSON', async () => {
    const payload = b64(claims());
    await expectRefused(`Bearer ${Buffer.from('not json').toString('base64url')}.${payload}.c2ln`, 'TOKEN_MALFORMED', ['header is not a base64url-encoded JSON object']);
    await expectRefused(`Bearer ${b64([1, 2])}.${payload}.c2ln`, 'TOKEN_MALFORMED', ['header is not a base64url-encoded JSON object']);
    await expectRefused(`Bearer ${b64({ kid: 'ed-1' })}.${payload}.c2ln`, 'TOKEN_MALFORMED', ['no `alg`']);
    await expectRefused(`Bearer ${b64({ alg: 'EdDSA', kid: 7 })}.${payload}.c2ln`, 'TOKEN_MALFORMED', ['`kid` that is not a string']);
  });

  it('refuses a payload that is not a JSON object, after checking its signature', async () => {
    const header = b64({ alg: 'EdDSA', kid: 'ed-1' });
    const payload = Buffer.from('[1,2,3]').toString('base64url');
    const signature = await crypto.subtle.sign('Ed25519', ed.pair.privateKey, Buffer.from(`${header}.${payload}`));
    await expectRefused(`Bearer ${header}.${payload}.${Buffer.from(signature).toString('base64url')}`, 'TOKEN_MALFORMED', ['JWT Claims Set must be a top-level JSON object']);
  });

  it('refuses a token over 16 KiB before parsing it', async () => {
    const oversized = `${'a'.repeat(MAX_TOKEN_CHARS)}.b.c`;
    await expectRefused(bearer(oversized), 'TOKEN_MALFORMED', [`${oversized.length} characters long`, `limit of ${MAX_TOKEN_CHARS}`]);
    await expectRefused(bearer('a'.repeat(1024 * 1024)), 'TOKEN_MALFORMED', ['over the limit of 16384']);
  });

  it('refuses a second spelling of a signature (spare base64url bits set)', async () => {
    const token = await sign();
    const [header, payload, signature = ''] = token.split('.');
    // 64 signature bytes are 86 characters whose last carries 4 spare bits; `A` → `B` sets one.
    const last = signature.at(-1) ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(last) + 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    await expectRefused(`Bearer ${header}.${payload}.${respelled}`, 'TOKEN_MALFORMED', ['signature is not canonical base64url']);
  });
});

describe('algorithm and key', () => {
  it('refuses `alg: none`', async () => {
    const unsecured = `${b64({ alg: 'none' })}.${b64(claims())}.`;
    await expectRefused(bearer(unsecured), 'TOKEN_ALGORITHM_REFUSED', ['`alg` `none`', 'unsigned']);
    const withKid = `${b64({ alg: 'NONE', kid: 'ed-1' })}.${b64(claims())}.`;
    await expectRefused(bearer(withKid), 'TOKEN_ALGORITHM_REFUSED', ['`none`']);
  });

  it('refuses HS256 signed with the public key as the HMAC secret (algorithm confusion)', async () => {
    const spki = new TextEncoder().encode(await jose.exportSPKI(rs.pair.publicKey));
    const confused = await new jose.SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'rs-1' }).sign(spki);
    await expectRefused(bearer(confused), 'TOKEN_ALGORITHM_REFUSED', ['`HS256`', 'symmetric']);
    const rawEd = Buffer.from(ed.jwk.x ?? '', 'base64url');
    const confusedEd = await new jose.SignJWT(claims()).setProtectedHeader({ alg: 'HS512', kid: 'ed-1' }).sign(rawEd);
    await expectRefused(bearer(confusedEd), 'TOKEN_ALGORITHM_REFUSED', ['`HS512`']);
  });

  it('refuses an RS256 token presented for an ES256 key', async () => {
    const token = await sign(claims(), rs, { alg: 'RS256', kid: 'es-1' });
    await expectRefused(bearer(token), 'TOKEN_ALGORITHM_REFUSED', ['`RS256`', 'key `es-1` verifies only `ES256`']);
  });

  it('refuses a header algorithm that differs from its key’s, even a fully specified synonym', async () => {
    const token = await sign(claims(), ed, { alg: 'Ed25519', kid: 'ed-1' });
    await expectRefused(bearer(token), 'TOKEN_ALGORITHM_REFUSED', ['asks for `Ed25519`', 'key `ed-1` verifies only `EdDSA`']);
  });

  it('refuses a `crit` header, even a correctly signed one', async () => {
    const token = await signByHand({ alg: 'EdDSA', kid: 'ed-1', crit: ['exp'], exp: NOW_S + 60 }, claims());
    await expectRefused(bearer(token), 'TOKEN_ALGORITHM_REFUSED', ['`crit`']);
  });

  it('refuses a token naming an unknown key', async () => {
    const token = await sign(claims(), rogue, { alg: 'EdDSA', kid: 'ed-2' });
    await expectRefused(bearer(token), 'TOKEN_KEY_UNKNOWN', ['key `ed-2`', 'not configured', '`ed-1`, `es-1`, `rs-1`']);
  });

  it('refuses a token without `kid` when several keys are configured', async () => {
    const token = await sign(claims(), ed, { alg: 'EdDSA' });
    await expectRefused(bearer(token), 'TOKEN_KEY_UNKNOWN', ['no `kid`', 'exactly one key']);
  });

  it('refuses a token signed by an unknown key under a configured kid', async () => {
    const forged = await sign(claims(), rogue);
    await expectRefused(bearer(forged), 'TOKEN_SIGNATURE_INVALID', ['key `ed-1` (EdDSA)', 'signed by another key']);
  });

  it('never takes the key from the token (an embedded `jwk` header is ignored)', async () => {
    const rogueJwk = withoutMembers(rogue.jwk, 'kid', 'alg');
    const embedded = await sign(claims(), rogue, { alg: 'EdDSA', kid: 'ed-1', jwk: rogueJwk });
    await expectRefused(bearer(embedded), 'TOKEN_SIGNATURE_INVALID', ['key `ed-1`']);
  });

  it('refuses a token whose kid names another key of the same algorithm', async () => {
    const second = await signingKey('ed-2', 'EdDSA');
    const twoEd = new TokenVerifier(config({ keys: [ed.jwk, second.jwk] }));
    const wrongKid = await sign(claims(), second, { alg: 'EdDSA', kid: 'ed-1' });
    await expectRefused(bearer(wrongKid), 'TOKEN_SIGNATURE_INVALID', ['key `ed-1`'], twoEd);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await sign()).split('.');
    const tampered = `${header}.${b64(claims({ org_id: 'globex' }))}.${signature}`;
    await expectRefused(bearer(tampered), 'TOKEN_SIGNATURE_INVALID', ['key `ed-1`', 'changed after it was signed']);
  });

  it('refuses a tampered header (another kid of the same algorithm is not a way round the signature)', async () => {
    const [, payload, signature] = (await sign(claims(), es)).split('.');
    const es2 = await signingKey('es-2', 'ES256');
    const both = new TokenVerifier(config({ keys: [es.jwk, es2.jwk] }));
    await expectRefused(`Bearer ${b64({ alg: 'ES256', kid: 'es-2' })}.${payload}.${signature}`, 'TOKEN_SIGNATURE_INVALID', ['key `es-2` (ES256)'], both);
  });
});

describe('issuer, audience and time', () => {
  it('refuses an expired token, saying when it expired', async () => {
    const token = await sign(claims({ exp: NOW_S - 3600 }));
    await expectRefused(bearer(token), 'TOKEN_EXPIRED', ['expired at 2026-03-01T08:00:00.000Z', 'now 2026-03-01T09:00:00.000Z', 'clock tolerance 30 s']);
  });

  it('refuses a token not yet valid, saying from when it is', async () => {
    const token = await sign(claims({ nbf: NOW_S + 3600 }));
    await expectRefused(bearer(token), 'TOKEN_NOT_YET_VALID', ['not valid before 2026-03-01T10:00:00.000Z']);
    const never = await sign(claims({ nbf: 1e300 }));
    await expectRefused(bearer(never), 'TOKEN_NOT_YET_VALID', ['not valid before 1e+300']);
  });

  it('refuses a wrong or missing issuer, naming it and the accepted ones', async () => {
    await expectRefused(bearer(await sign(claims({ iss: 'https://evil.example' }))), 'TOKEN_ISSUER_INVALID', [
      '`iss` is `https://evil.example`',
      `accepted issuers: \`${ISSUER}\``,
    ]);
    await expectRefused(bearer(await sign(claims({ iss: undefined }))), 'TOKEN_ISSUER_INVALID', ['`iss` is missing']);
    const long = `https://${'x'.repeat(500)}`;
    const message = await expectRefused(bearer(await sign(claims({ iss: long }))), 'TOKEN_ISSUER_INVALID', [`\`${long.slice(0, 100)}…\``]);
    expect(message).not.toContain(long);
  });

  it('accepts any of several configured issuers and audiences', async () => {
    const several = new TokenVerifier(config({ issuer: ['https://a.example', ISSUER], audience: ['other', AUDIENCE] }));
    expect((await several.verify(bearer(await sign(claims({ aud: ['x', AUDIENCE] }))), NOW)).ok).toBe(true);
  });

  it('refuses a wrong audience, naming it', async () => {
    await expectRefused(bearer(await sign(claims({ aud: 'billing' }))), 'TOKEN_AUDIENCE_INVALID', ['`aud` is `billing`', `\`${AUDIENCE}\``]);
    await expectRefused(bearer(await sign(claims({ aud: ['billing', 'hr'] }))), 'TOKEN_AUDIENCE_INVALID', ['[`billing`, `hr`]']);
    await expectRefused(bearer(await sign(claims({ aud: undefined }))), 'TOKEN_AUDIENCE_INVALID', ['`aud` is missing']);
    const many = Array.from({ length: 50 }, (_, i) => `aud-${i}`);
    const message = await expectRefused(bearer(await sign(claims({ aud: many }))), 'TOKEN_AUDIENCE_INVALID', ['`aud-9` and 40 more']);
    expect(message).not.toContain('aud-10');
  });

  it('refuses a token without `exp` or with a non-numeric one', async () => {
    await expectRefused(bearer(await sign(claims({ exp: undefined }))), 'TOKEN_CLAIMS_INVALID', ['required claim `exp` is missing']);
    await expectRefused(bearer(await sign(claims({ exp: 'tomorrow' }))), 'TOKEN_CLAIMS_INVALID', ['`exp` must be a number', 'string `tomorrow`']);
    await expectRefused(bearer(await sign(claims({ nbf: 'now' }))), 'TOKEN_CLAIMS_INVALID', ['`nbf` must be a number']);
  });
});

describe('the caller’s claims', () => {
  it('refuses a missing or non-string tenant, naming the claim', async () => {
    await expectRefused(bearer(await sign(claims({ org_id: undefined }))), 'TOKEN_CLAIMS_INVALID', ['`org_id` is missing']);
    await expectRefused(bearer(await sign(claims({ org_id: 42 }))), 'TOKEN_CLAIMS_INVALID', ['tenant claim `org_id` must be a string', 'the number 42']);
    await expectRefused(bearer(await sign(claims({ org_id: null }))), 'TOKEN_CLAIMS_INVALID', ['`org_id` must be a string, not null']);
    await expectRefused(bearer(await sign(claims({ org_id: ['acme'] }))), 'TOKEN_CLAIMS_INVALID', ['`org_id` must be a string, not a list']);
  });

  it('refuses an empty, overlong or unprintable tenant', async () => {
    await expectRefused(bearer(await sign(claims({ org_id: '' }))), 'TOKEN_CLAIMS_INVALID', ['`org_id` is empty']);
    await expectRefused(bearer(await sign(claims({ org_id: 'a'.repeat(201) }))), 'TOKEN_CLAIMS_INVALID', ['201 characters long', 'limit of 200']);
    expect((await verifier.verify(bearer(await sign(claims({ org_id: '組'.repeat(200) }))), NOW)).ok).toBe(true);
    await expectRefused(bearer(await sign(claims({ org_id: 'acme\nX-Admin: yes' }))), 'TOKEN_CLAIMS_INVALID', ['control character', '`acme\\nX-Admin: yes`']);
    await expectRefused(bearer(await sign(claims({ org_id: 'acme\u0085' }))), 'TOKEN_CLAIMS_INVALID', ['control character']);
  });

  it('refuses a missing or non-string subject', async () => {
    await expectRefused(bearer(await sign(claims({ sub: undefined }))), 'TOKEN_CLAIMS_INVALID', ['required claim `sub` is missing']);
    await expectRefused(bearer(await sign(claims({ sub: 7 }))), 'TOKEN_CLAIMS_INVALID', ['`sub` must be a non-empty string, not the number 7']);
    await expectRefused(bearer(await sign(claims({ sub: '' }))), 'TOKEN_CLAIMS_INVALID', ['`sub` must be a non-empty string']);
  });

  it('refuses a malformed `jti`, `scope` or `scp`', async () => {
    await expectRefused(bearer(await sign(claims({ jti: 12 }))), 'TOKEN_CLAIMS_INVALID', ['`jti` must be a non-empty string, not the number 12']);
    await expectRefused(bearer(await sign(claims({ scope: ['decide'] }))), 'TOKEN_CLAIMS_INVALID', ['`scope` must be a space-separated string, not a list']);
    await expectRefused(bearer(await sign(claims({ scope: undefined, scp: ['decide', 3] }))), 'TOKEN_CLAIMS_INVALID', ['`scp[1]`', 'the number 3']);
    await expectRefused(bearer(await sign(claims({ scope: undefined, scp: { decide: true } }))), 'TOKEN_CLAIMS_INVALID', ['`scp` must be a list']);
  });
});

describe('the delegation chain (RFC 8693 `act`)', () => {
  it('reads a three-actor chain, outermost (current) actor first', async () => {
    const act = {
      sub: 'agent-planner',
      client_id: 'planner-app',
      act: { sub: 'agent-broker', iss: 'https://broker.example', act: { sub: 'agent-origin', iss: 'https://idp.example', client_id: 'origin-cli' } },
    };
    const caller = await expectCaller(verifier.verify(bearer(await sign(claims({ act }))), NOW));
    expect(caller.delegation).toEqual([
      { subject: 'agent-planner', issuer: null, clientId: 'planner-app' },
      { subject: 'agent-broker', issuer: 'https://broker.example', clientId: null },
      { subject: 'agent-origin', issuer: 'https://idp.example', clientId: 'origin-cli' },
    ]);
    expect(caller.subject).toBe('user-7');
  });

  it('refuses a malformed actor, naming its JSON path', async () => {
    const refusedAct = (act: unknown, ...fragments: string[]) => sign(claims({ act })).then((t) => expectRefused(bearer(t), 'TOKEN_CLAIMS_INVALID', fragments));
    await refusedAct({ sub: 'a', act: { sub: 42 } }, '`act.act.sub` must be a non-empty string, not the number 42');
    await refusedAct({ sub: 'a', act: { sub: 'b', act: { sub: 'c', act: {} } } }, '`act.act.act.act.sub` is missing');
    await refusedAct({ sub: 'a', act: { iss: 'https://x.example' } }, '`act.act.sub` is missing');
    await refusedAct({ sub: 'a', act: 'b' }, '`act.act` must be a JSON object, not string `b`');
    await refusedAct(['a'], '`act` must be a JSON object, not a list');
    await refusedAct(null, '`act` must be a JSON object, not null');
    await refusedAct({ sub: 'a', iss: false }, '`act.iss` must be a non-empty string, not boolean false');
    await refusedAct({ sub: 'a', act: { sub: 'b', client_id: '' } }, '`act.act.client_id` must be a non-empty string');
  });

  it(`accepts ${MAX_DELEGATION_DEPTH} actors and refuses ${MAX_DELEGATION_DEPTH + 1}`, async () => {
    const deepest = await expectCaller(verifier.verify(bearer(await sign(claims({ act: actChain(MAX_DELEGATION_DEPTH) }))), NOW));
    expect(deepest.delegation.map((actor) => actor.subject)).toEqual(Array.from({ length: MAX_DELEGATION_DEPTH }, (_, i) => `agent-${i + 1}`));
    const tooDeep = await sign(claims({ act: actChain(MAX_DELEGATION_DEPTH + 1) }));
    await expectRefused(bearer(tooDeep), 'TOKEN_CLAIMS_INVALID', [`more than ${MAX_DELEGATION_DEPTH} actors deep`, `\`act${'.act'.repeat(MAX_DELEGATION_DEPTH)}\``]);
  });
});

describe('loadJwks', () => {
  function jwksFile(name: string, content: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  async function expectJwksRefused(path: string, ...fragments: string[]): Promise<void> {
    const load = await loadJwks(path);
    if (load.ok) throw new Error(`${path} was accepted`);
    expect(load.message).toMatch(/^jwks file `/);
    expect(load.message).toContain(`\`${path}\``);
    for (const fragment of fragments) expect(load.message).toContain(fragment);
  }

  it('reads a key set that a verifier then uses', async () => {
    const load = await loadJwks(jwksFile('good.json', { keys: [ed.jwk, es.jwk, rs.jwk] }));
    if (!load.ok) throw new Error(load.message);
    expect(load.keys.map((key) => key.kid)).toEqual(['ed-1', 'es-1', 'rs-1']);
    const fromFile = new TokenVerifier(config({ keys: load.keys }));
    expect((await fromFile.verify(bearer(await sign(claims(), rs)), NOW)).ok).toBe(true);
  });

  it('refuses a private key, naming it', async () => {
    const privateJwk = { ...(await jose.exportJWK(ed.pair.privateKey)), kid: 'ed-private', alg: 'EdDSA' };
    await expectJwksRefused(jwksFile('private.json', { keys: [es.jwk, privateJwk] }), '`keys[1]` (kid `ed-private`)', 'private key (it has `d`)');
  });

  it('refuses a symmetric key, naming it', async () => {
    const oct = { kty: 'oct', k: Buffer.from('secret-secret-secret').toString('base64url'), kid: 'shared', alg: 'HS256' };
    const message = await loadJwks(jwksFile('oct.json', { keys: [oct] })).then((load) => (load.ok ? '' : load.message));
    expect(message).toContain('`keys[0]` (kid `shared`) is a symmetric (`oct`) key');
    expect(message).not.toContain(oct.k);
  });

  it('refuses a duplicate kid', async () => {
    await expectJwksRefused(jwksFile('duplicate.json', { keys: [ed.jwk, es.jwk, { ...rogue.jwk }] }), '`keys[2]` (kid `ed-1`) has the same kid as `keys[0]`');
  });

  it('refuses a key without `alg`, `kid` or `kty`, or with an algorithm not accepted', async () => {
    const noAlg = withoutMembers(es.jwk, 'alg');
    await expectJwksRefused(jwksFile('no-alg.json', { keys: [noAlg] }), '`keys[0]` (kid `es-1`) has no `alg`', '`ES256`');
    const noKid = withoutMembers(es.jwk, 'kid');
    await expectJwksRefused(jwksFile('no-kid.json', { keys: [ed.jwk, noKid] }), '`keys[1]` has no `kid`');
    await expectJwksRefused(jwksFile('no-kty.json', { keys: [{ kid: 'k', alg: 'EdDSA' }] }), '`keys[0]` (kid `k`) has no `kty`');
    await expectJwksRefused(jwksFile('es512.json', { keys: [{ ...es.jwk, alg: 'ES512' }] }), '`keys[0]` (kid `es-1`) declares `alg` `ES512`, which is not accepted');
    await expectJwksRefused(jwksFile('hs.json', { keys: [{ ...ed.jwk, alg: 'HS256' }] }), 'declares `alg` `HS256`');
  });

  it('refuses a key whose type does not fit its algorithm, or that may not verify', async () => {
    await expectJwksRefused(jwksFile('mismatch.json', { keys: [{ ...es.jwk, alg: 'EdDSA' }] }), 'has key type `EC` `P-256`, but `alg` `EdDSA` verifies with key type `OKP` `Ed25519`');
    await expectJwksRefused(jwksFile('enc.json', { keys: [{ ...rs.jwk, use: 'enc' }] }), '(kid `rs-1`) declares `use` `enc`');
    await expectJwksRefused(jwksFile('ops.json', { keys: [{ ...rs.jwk, key_ops: ['encrypt'] }] }), '`key_ops` without `verify`');
  });

  it('refuses key material that does not import, and short RSA keys', async () => {
    await expectJwksRefused(jwksFile('bad-x.json', { keys: [{ ...ed.jwk, x: 'AAAA' }] }), '`keys[0]` (kid `ed-1`) is not a usable `EdDSA` public key');
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const short = { ...publicKey.export({ format: 'jwk' }), kid: 'rs-short', alg: 'RS256' };
    await expectJwksRefused(jwksFile('short.json', { keys: [short] }), '(kid `rs-short`) is a 1024-bit RSA key', 'at least 2048 bits');
  });

  it('refuses a file that is not a JWK set', async () => {
    await expectJwksRefused(jwksFile('not-json.json', '{ "keys": ['), 'is not valid JSON');
    await expectJwksRefused(jwksFile('list.json', [ed.jwk]), 'is not a JWK set');
    await expectJwksRefused(jwksFile('single.json', ed.jwk), 'is not a JWK set');
    await expectJwksRefused(jwksFile('empty.json', { keys: [] }), 'no keys are given');
    await expectJwksRefused(jwksFile('latin1.json', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1')), 'is not valid');
  });

  it('refuses a missing file, a directory and a file over 1 MiB', async () => {
    await expectJwksRefused(join(dir, 'absent.json'), 'does not exist');
    await expectJwksRefused(dir, 'is a directory');
    await expectJwksRefused(jwksFile('huge.json', `{"keys":[],"pad":"${'x'.repeat(1024 * 1024)}"}`), 'over the limit of 1 MiB');
  });
});

describe('a configuration built in code', () => {
  it('is refused at construction when it cannot work', async () => {
    const privateJwk = { ...(await jose.exportJWK(ed.pair.privateKey)), kid: 'p', alg: 'EdDSA' };
    expect(() => new TokenVerifier(config({ keys: [privateJwk] }))).toThrow(/`keys\[0\]` \(kid `p`\) is a private key/);
    expect(() => new TokenVerifier(config({ keys: [] }))).toThrow(/no keys are given/);
    expect(() => new TokenVerifier(config({ issuer: [] }))).toThrow(/`issuer` must be a non-empty string/);
    expect(() => new TokenVerifier(config({ audience: '' }))).toThrow(/`audience`/);
    expect(() => new TokenVerifier(config({ clockToleranceSeconds: -1 }))).toThrow(/`clockToleranceSeconds`/);
  });
});

describe('properties', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  function expectRefusal(result: TokenVerification): void {
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(AUTH_ERROR_CODES).toContain(result.code);
    expect(result.message).toMatch(/^[a-z]/);
  }

  it('refuses any random Authorization header, never throwing', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ maxLength: 200 }).map((s) => `Bearer ${s}`),
      fc.array(fc.string({ unit: fc.constantFrom(...Array.from(ALPHABET)), maxLength: 60 }), { minLength: 1, maxLength: 6 }).map((parts) => `Bearer ${parts.join('.')}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => expectRefusal(await verifier.verify(authorization, NOW))),
      { numRuns: 500 },
    );
  });

  it('refuses every one-character mutation of a valid token, never throwing', async () => {
    const tokens = await Promise.all([sign(), sign(claims({ act: actChain(2) }), es), sign(claims(), rs)]);
    for (const token of tokens) expect((await verifier.verify(bearer(token), NOW)).ok).toBe(true);
    const mutation = fc.record({
      token: fc.constantFrom(...tokens),
      at: fc.nat(),
      replacement: fc.oneof(fc.constantFrom(...Array.from(ALPHABET), '.', ' ', '=', '+', '/'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ token, at, replacement }) => {
        const index = at % token.length;
        fc.pre(token[index] !== replacement);
        const mutated = `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
        expectRefusal(await verifier.verify(bearer(mutated), NOW));
      }),
      { numRuns: 1000 },
    );
  });

  it('verifies or refuses a validly signed token whatever its claims hold, never throwing', async () => {
    const claim = fc.option(fc.jsonValue({ maxDepth: 4 }), { nil: undefined });
    const payload = fc.record({ sub: claim, org_id: claim, act: claim, scope: claim, scp: claim, jti: claim, aud: claim, nbf: claim, exp: claim });
    await fc.assert(
      fc.asyncProperty(payload, async (overrides) => {
        const result = await verifier.verify(bearer(await sign(claims(overrides))), NOW);
        if (!result.ok) expect(AUTH_ERROR_CODES).toContain(result.code);
      }),
      { numRuns: 300 },
    );
  });
});

// Runs last (vitest keeps file order): a catalogued code no test produced is a gap in this file.
it('produces every catalogued code', () => {
  expect([...codesSeen].sort()).toEqual([...AUTH_ERROR_CODES].sort());
});

describe('remembering verified tokens', () => {
  it('answers a token verified before without checking its signature again, and never past its times', async () => {
    const cached = new TokenVerifier(config());
    const token = await sign(claims({ nbf: NOW_S - 10, exp: NOW_S + 60 }));
    expect(await cached.verify(bearer(token), NOW)).toMatchObject({ ok: true, caller: { tenant: 'acme' } });
    // Later verifications check no signature: count WebCrypto's (jose's) verify calls.
    const signatureChecks = vi.spyOn(globalThis.crypto.subtle, 'verify');
    try {
      for (let i = 0; i < 100; i++) expect(await cached.verify(bearer(token), NOW)).toMatchObject({ ok: true });
      expect(signatureChecks).toHaveBeenCalledTimes(0);
      expect(await new TokenVerifier(config()).verify(bearer(token), NOW)).toMatchObject({ ok: true });
      expect(signatureChecks).toHaveBeenCalledTimes(1);
    } finally {
      signatureChecks.mockRestore();
    }
    // Exactly as jose judges times, with the 30 s tolerance: valid until exp + 30 s, from nbf − 30 s.
    expect(await cached.verify(bearer(token), (NOW_S + 60 + 30) * 1000 - 1)).toMatchObject({ ok: true });
    expect(await cached.verify(bearer(token), (NOW_S + 60 + 30) * 1000)).toMatchObject({ ok: false, code: 'TOKEN_EXPIRED' });
    expect(await cached.verify(bearer(token), (NOW_S - 10 - 31) * 1000)).toMatchObject({ ok: false, code: 'TOKEN_NOT_YET_VALID' });
  });

  it('remembers nothing of a refused token, and keys each token by its exact text', async () => {
    const cached = new TokenVerifier(config());
    const token = await sign(claims({ aud: 'someone-else' }));
    for (let i = 0; i < 2; i++) expect(await cached.verify(bearer(token), NOW)).toMatchObject({ ok: false, code: 'TOKEN_AUDIENCE_INVALID' });
    const good = await sign();
    expect(await cached.verify(bearer(good), NOW)).toMatchObject({ ok: true });
    const [header, payload, signature] = good.split('.');
    const forged = `${header}.${b64({ ...claims(), org_id: 'globex' })}.${signature}`;
    expect(payload).not.toBe(forged.split('.')[1]);
    expect(await cached.verify(bearer(forged), NOW)).toMatchObject({ ok: false, code: 'TOKEN_SIGNATURE_INVALID' });
  });
});
