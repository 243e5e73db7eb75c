/**
 * Keys and trust files: key ids are RFC 7638 thumbprints whatever the file format, only
 * Ed25519 keys are accepted anywhere, and every problem in a trust file is a message naming
 * the file and the entry.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approveModule, generateKey, keyId, loadTrustConfig, parseKey, readPrivateKeyFile, signManifest, trustConfig } from '@adec/runtime';
import { tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from './trust-fixtures.js';
import { jsonError } from '../../../../test/support/json-error.js';

const pem = (key: KeyObject) => key.export({ format: 'pem', type: key.type === 'private' ? 'pkcs8' : 'spki' }).toString();
const jwkText = (key: KeyObject) => JSON.stringify(key.export({ format: 'jwk' }));

describe('key ids', () => {
  it('are the RFC 7638 thumbprint (RFC 8037 appendix A.3 test vector)', () => {
    const read = parseKey('{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}', 'rfc8037.jwk');
    expect(read.ok && read.keyId).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('are the same for a key as PEM and as JWK, private and public', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const ids = [pem(privateKey), pem(publicKey), jwkText(privateKey), jwkText(publicKey)].map((text) => {
      const read = parseKey(text, 'key');
      return read.ok ? read.keyId : read.message;
    });
    expect(new Set(ids)).toEqual(new Set([keyId(publicKey)]));
  });

  it('are written by keygen into both JWK files as kid, with alg EdDSA and use sig', () => {
    const key = generateKey('jwk');
    const privateJwk = JSON.parse(key.privateText) as Record<string, unknown>;
    const publicJwk = JSON.parse(key.publicText) as Record<string, unknown>;
    expect(privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: key.keyId, alg: 'EdDSA', use: 'sig', d: expect.any(String) });
    expect(publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: privateJwk['x'], kid: key.keyId, alg: 'EdDSA', use: 'sig' });
    const read = parseKey(key.publicText, 'k');
    expect(read.ok && read.keyId).toBe(key.keyId);
  });

  it('never come from a kid written in the file', () => {
    const key = generateKey('jwk');
    const relabelled = JSON.stringify({ ...(JSON.parse(key.publicText) as object), kid: 'trusted-ops-key' });
    const read = parseKey(relabelled, 'k');
    expect(read.ok && read.keyId).toBe(key.keyId);
  });
});

describe('only Ed25519 keys are accepted', () => {
  const others = {
    rsa: () => generateKeyPairSync('rsa', { modulusLength: 1024 }),
    ec: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    ed448: () => generateKeyPairSync('ed448'),
    x25519: () => generateKeyPairSync('x25519'),
  };

  it.each([
    ['rsa', 'RSA'],
    ['ec', 'EC P-256'],
    ['ed448', 'Ed448'],
    ['x25519', 'X25519'],
  ] as const)('a %s PEM key is refused, naming its type', (type, shown) => {
    const { privateKey, publicKey } = others[type]();
    for (const [text, name] of [
      [pem(privateKey), 'other.key.pem'],
      [pem(publicKey), 'other.pub.pem'],
    ] as const) {
      expect(parseKey(text, name)).toEqual({ ok: false, code: 'KEY_INVALID', message: `key file \`${name}\` holds a key of type ${shown}: only Ed25519 keys are accepted` });
    }
  });

  it.each([
    ['rsa', 'RSA'],
    ['ec', 'EC P-256'],
    ['ed448', 'Ed448'],
    ['x25519', 'X25519'],
  ] as const)('a %s JWK is refused, naming its type', (type, shown) => {
    expect(parseKey(jwkText(others[type]().publicKey), 'other.jwk')).toEqual({
      ok: false,
      code: 'KEY_INVALID',
      message: `key file \`other.jwk\` holds a key of type ${shown}: only Ed25519 keys are accepted`,
    });
  });

  it('a symmetric JWK (an HMAC secret) is refused', () => {
    expect(parseKey('{"kty":"oct","k":"c2VjcmV0"}', 'hmac.jwk')).toEqual({
      ok: false,
      code: 'KEY_INVALID',
      message: 'key file `hmac.jwk` holds a key of type oct (symmetric): only Ed25519 keys are accepted',
    });
  });

  it('an Ed25519 JWK that declares another algorithm is refused', () => {
    const key = generateKey('jwk');
    const lying = JSON.stringify({ ...(JSON.parse(key.publicText) as object), alg: 'HS256' });
    expect(parseKey(lying, 'ops.pub.jwk')).toEqual({
      ok: false,
      code: 'KEY_INVALID',
      message: 'key file `ops.pub.jwk` declares `alg` `HS256`: an Ed25519 key signs only with EdDSA',
    });
  });

  it('an Ed25519 JWK meant for encryption is refused', () => {
    const key = generateKey('jwk');
    const encryption = JSON.stringify({ ...(JSON.parse(key.publicText) as object), use: 'enc' });
    expect(parseKey(encryption, 'ops.pub.jwk')).toEqual({
      ok: false,
      code: 'KEY_INVALID',
      message: 'key file `ops.pub.jwk` declares `use` `enc`: a signing key must have `use` `sig`',
    });
  });

  it.each([
    ['not a key', 'key file `k` is neither a PEM key nor a JWK'],
    ['{"keys": []}', 'key file `k` is a JWK set: give a file holding a single key'],
    ['{"crv": "Ed25519"}', 'key file `k` is not a JWK: it has no `kty`'],
    ['{"kty":"OKP","crv":"Ed25519","x":"abc"}', 'key file `k` is not a valid Ed25519 JWK: Invalid JWK data'],
  ])('%s is refused', (text, message) => {
    expect(parseKey(text, 'k')).toEqual({ ok: false, code: 'KEY_INVALID', message });
  });

  it('trustConfig and signing throw for a key of another type: a programming error, not input', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => trustConfig({ signingKeys: [rsa.publicKey], approvalKeys: [] })).toThrow(
      'trustConfig: signingKeys[0] is a key of type RSA: only Ed25519 keys are accepted',
    );
    expect(() => signManifest(new Uint8Array(), rsa.privateKey)).toThrow('the signing key is a key of type RSA: only Ed25519 keys are accepted');
    const ed = generateKeyPairSync('ed25519');
    expect(() => approveModule({ moduleHash: `sha256:${'0'.repeat(64)}`, world: { org: 'acme', domain: 'hr', version: '1.0.0' } }, ed.publicKey)).toThrow('the signing key is a public key');
  });
});

describe('reading a private key to sign with', () => {
  let dir: string;
  let pair: KeyPairFiles;
  beforeAll(() => {
    dir = tempDir();
    pair = writeKeyPair(dir, 'ci');
  });

  it('accepts the private key and refuses the public one', async () => {
    expect(await readPrivateKeyFile(pair.privateFile, dir)).toMatchObject({ ok: true, keyId: pair.keyId });
    expect(await readPrivateKeyFile(pair.publicFile, dir)).toEqual({
      ok: false,
      code: 'KEY_INVALID',
      message: 'key file `ci.pub.jwk` holds a public key: signing needs the private key (`*.key.jwk` or `*.key.pem`)',
    });
  });

  it('names a missing key file', async () => {
    expect(await readPrivateKeyFile('missing.key.jwk', dir)).toEqual({ ok: false, code: 'FILE_MISSING', message: 'key file `missing.key.jwk` does not exist' });
  });
});

/** The trust files below refused for their key or a file rather than for their own content (TRUST_FILE_INVALID). */
const TRUST_FILE_CODES: Readonly<Record<string, string>> = { 'unreadable.json': 'FILE_MISSING', 'missing-key.json': 'FILE_MISSING', 'rsa.json': 'KEY_INVALID' };

describe('trust files', () => {
  let dir: string;
  let ci: KeyPairFiles;
  let ops: KeyPairFiles;
  beforeAll(() => {
    dir = tempDir();
    mkdirSync(join(dir, 'keys'));
    ci = writeKeyPair(join(dir, 'keys'), 'ci', 'jwk');
    ops = writeKeyPair(join(dir, 'keys'), 'ops', 'pem');
    writeFileSync(join(dir, 'keys', 'rsa.pub.pem'), pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey));
  });

  const load = (name: string, content: string) => {
    writeFileSync(join(dir, name), content);
    return loadTrustConfig(name, dir);
  };

  it('resolve key paths relative to the trust file, and default require_approval to true', async () => {
    mkdirSync(join(dir, 'config'), { recursive: true });
    writeTrustFile(join(dir, 'config', 'trust.json'), { signing_keys: ['../keys/ci.pub.jwk'], approval_keys: ['../keys/ops.pub.pem'] });
    const loaded = await loadTrustConfig('config/trust.json', dir);
    if (!loaded.ok) throw new Error(loaded.message);
    expect([...loaded.trust.signingKeys.keys()]).toEqual([ci.keyId]);
    expect([...loaded.trust.approvalKeys.keys()]).toEqual([ops.keyId]);
    expect(loaded.trust.requireApproval).toBe(true);
  });

  it('accept require_approval false with no approval keys', async () => {
    const loaded = await load('lax.json', '{"signing_keys": ["keys/ci.pub.jwk"], "require_approval": false}');
    expect(loaded.ok && [loaded.trust.requireApproval, loaded.trust.approvalKeys.size]).toEqual([false, 0]);
  });

  it.each([
    ['unreadable.json', undefined, 'trust file `unreadable.json` does not exist'],
    ['bad.json', '{"signing_keys": [', `trust file \`bad.json\` is not valid JSON: ${jsonError('{"signing_keys": [')}`],
    ['list.json', '[]', 'trust file `list.json` is not a JSON object'],
    [
      'unknown.json',
      '{"signing_keys": ["keys/ci.pub.jwk"], "approval_keys": ["keys/ops.pub.pem"], "requireApproval": false}',
      'trust file `unknown.json` has unknown field `requireApproval` (expected signing_keys, approval_keys, require_approval, revoked_modules, revoked_keys, minimum_versions)',
    ],
    [
      'rsa.json',
      '{"signing_keys": ["keys/ci.pub.jwk", "keys/rsa.pub.pem"], "approval_keys": ["keys/ops.pub.pem"]}',
      'trust file `rsa.json` entry `signing_keys[1]`: key file `keys/rsa.pub.pem` holds a key of type RSA: only Ed25519 keys are accepted',
    ],
    [
      'missing-key.json',
      '{"signing_keys": ["keys/ci.pub.jwk"], "approval_keys": ["keys/gone.pub.pem"]}',
      'trust file `missing-key.json` entry `approval_keys[0]`: key file `keys/gone.pub.pem` does not exist',
    ],
    ['no-signers.json', '{"approval_keys": ["keys/ops.pub.pem"]}', 'trust file `no-signers.json` has no `signing_keys`'],
    [
      'empty-signers.json',
      '{"signing_keys": [], "approval_keys": ["keys/ops.pub.pem"]}',
      'trust file `empty-signers.json` has an empty `signing_keys`: no bundle could verify',
    ],
    [
      'no-approvers.json',
      '{"signing_keys": ["keys/ci.pub.jwk"]}',
      'trust file `no-approvers.json` requires approval but lists no `approval_keys`: no bundle could verify',
    ],
    [
      'string-list.json',
      '{"signing_keys": "keys/ci.pub.jwk", "require_approval": false}',
      'trust file `string-list.json` has `signing_keys` that is not a list of key file paths',
    ],
    [
      'number-entry.json',
      '{"signing_keys": ["keys/ci.pub.jwk", 7], "require_approval": false}',
      'trust file `number-entry.json` has `signing_keys[1]` that is not a key file path',
    ],
    [
      'yes.json',
      '{"signing_keys": ["keys/ci.pub.jwk"], "require_approval": "yes"}',
      'trust file `yes.json` has `require_approval` that is not true or false',
    ],
  ])('%s is refused with a message naming the file and entry', async (name, content, message) => {
    const loaded = content === undefined ? await loadTrustConfig(name, dir) : await load(name, content);
    expect(loaded).toEqual({ ok: false, code: TRUST_FILE_CODES[name] ?? 'TRUST_FILE_INVALID', message });
  });
});

describe('JWK and PEM forms of one key', () => {
  it('sign interchangeably: a signature by the PEM private key has the JWK key id', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const fromPem = createPrivateKey(pem(privateKey));
    const fromJwk = createPrivateKey({ key: privateKey.export({ format: 'jwk' }), format: 'jwk' });
    expect(signManifest(new Uint8Array([1]), fromPem)).toEqual(signManifest(new Uint8Array([1]), fromJwk));
    expect(signManifest(new Uint8Array([1]), fromPem).key_id).toBe(keyId(createPublicKey(privateKey)));
  });
});
