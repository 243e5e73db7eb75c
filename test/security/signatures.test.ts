/**
 * Forgeable signatures under weak keys (issue 12, finding 4). OpenSSL, under Node's
 * `crypto.verify`, accepts an Ed25519 public key of small order, and under the identity key the
 * signature R = identity, S = 0 verifies for every message: whoever gets such a key into a
 * trust file can sign and approve anything. Every weak key — the 8 points of small order, the
 * 40 non-canonical encodings, a point off the curve — is refused wherever a key enters (a key
 * file as JWK or PEM, a trust file, `trustConfig`) and again at verification; every
 * non-canonical signature (S >= L, R small-order or non-canonical) is refused at verification.
 * Real bundles, real keys, real signatures.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approveModule,
  formatSignatureFile,
  keyId,
  loadTrustConfig,
  parseKey,
  readKeyFile,
  signManifest,
  trustConfig,
  verifyBundle,
  type BundleFiles,
  type TrustConfig,
  type VerificationCode,
} from '@adec/runtime';
import { buildBenefits, tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from '../../packages/runtime/test/trust/trust-fixtures.js';
import {
  IDENTITY,
  keyFileText,
  keyFromEncoding,
  L,
  NON_CANONICAL_ENCODINGS,
  NOT_ON_CURVE_ENCODING,
  S_PLUS_L,
  signatureOf,
  SMALL_ORDER_POINTS,
} from './ed25519-vectors.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_204 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 100 : Number(process.env['ADEC_PROPERTY_RUNS']);

const WORLD = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
const json = (value: unknown) => new Uint8Array(Buffer.from(formatSignatureFile(value as never), 'utf8'));

/** Every weak encoding, with the code it must be refused with. */
const WEAK_KEYS: ReadonlyArray<readonly [name: string, hex: string, code: VerificationCode & `KEY_${string}`]> = [
  ...SMALL_ORDER_POINTS.map(([hex, order], index) => [`small-order point ${index} (order ${order})`, hex, 'KEY_SMALL_ORDER'] as const),
  ...NON_CANONICAL_ENCODINGS.map((hex, index) => [`non-canonical encoding ${index} (${hex.slice(0, 4)}…${hex.slice(-2)})`, hex, 'KEY_NON_CANONICAL'] as const),
  ['a point off the curve (y = 2)', NOT_ON_CURVE_ENCODING, 'KEY_NOT_ON_CURVE'],
];

let ci: KeyPairFiles;
let ops: KeyPairFiles;
let trust: TrustConfig;
let keysDir: string;
/** examples/benefits, signed by ci and approved by ops. */
let signed: Required<BundleFiles>;
let moduleHash: string;

beforeAll(async () => {
  const dir = await buildBenefits();
  keysDir = tempDir();
  ci = writeKeyPair(keysDir, 'ci', 'jwk');
  ops = writeKeyPair(keysDir, 'ops', 'pem');
  trust = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey] });
  const manifest = new Uint8Array(readFileSync(join(dir, 'manifest.json')));
  moduleHash = (JSON.parse(Buffer.from(manifest).toString('utf8')) as { module_hash: string }).module_hash;
  signed = {
    manifest,
    bundle: new Uint8Array(readFileSync(join(dir, 'bundle.js'))),
    signature: json(signManifest(manifest, ci.privateKey)),
    approval: json(approveModule({ moduleHash, world: WORLD }, ops.privateKey)),
  };
});

/** The universal forgery: R = identity, S = 0, by the weak key `hex`. */
const forgedSignature = (hex: string) => json({ key_id: keyId(keyFromEncoding(hex)), signature: signatureOf(IDENTITY, 0n).toString('base64') });
const forgedApproval = (hex: string) =>
  json({ ...approveModule({ moduleHash, world: WORLD }, ops.privateKey), key_id: keyId(keyFromEncoding(hex)), signature: signatureOf(IDENTITY, 0n).toString('base64') });

describe('a weak key is refused where it enters', () => {
  it.each(WEAK_KEYS)('%s: as a JWK and as a PEM key file', async (_, hex, code) => {
    for (const format of ['jwk', 'pem'] as const) {
      const read = parseKey(keyFileText(hex, format), `weak.pub.${format}`);
      expect(read).toMatchObject({ ok: false, code, message: expect.stringMatching(new RegExp(`^key file \`weak\\.pub\\.${format}\` holds a key that `)) });
      const path = join(keysDir, `weak-${hex}.pub.${format}`);
      writeFileSync(path, keyFileText(hex, format));
      expect(await readKeyFile(path)).toMatchObject({ ok: false, code });
    }
  });

  it.each(WEAK_KEYS)('%s: in a trust file, as a signing or an approval key', async (_, hex, code) => {
    const dir = tempDir();
    mkdirSync(join(dir, 'keys'));
    writeFileSync(join(dir, 'keys', 'weak.pub.jwk'), keyFileText(hex, 'jwk'));
    writeFileSync(join(dir, 'keys', 'weak.pub.pem'), keyFileText(hex, 'pem'));
    writeFileSync(join(dir, 'keys', 'ci.pub.jwk'), readFileSync(ci.publicPath));
    writeFileSync(join(dir, 'keys', 'ops.pub.pem'), readFileSync(ops.publicPath));
    for (const [field, entry, file] of [
      ['signing_keys', 'signing_keys[1]', 'keys/weak.pub.jwk'],
      ['approval_keys', 'approval_keys[1]', 'keys/weak.pub.pem'],
    ] as const) {
      const lists = { signing_keys: ['keys/ci.pub.jwk'], approval_keys: ['keys/ops.pub.pem'] };
      lists[field].push(file);
      writeTrustFile(join(dir, 'trust.json'), lists);
      const loaded = await loadTrustConfig('trust.json', dir);
      expect(loaded).toMatchObject({ ok: false, code });
      expect(loaded.ok || loaded.message).toMatch(new RegExp(`^trust file \`trust\\.json\` entry \`${entry.replace(/[[\]]/g, '\\$&')}\`: key file \`${file}\` holds a key that `));
    }
  });

  it.each(WEAK_KEYS)('%s: given to trustConfig() in code (a programming error: TypeError naming the code)', (_, hex, code) => {
    expect(() => trustConfig({ signingKeys: [keyFromEncoding(hex)], approvalKeys: [] })).toThrow(`trustConfig: signingKeys[0] ${code}: `);
    expect(() => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [keyFromEncoding(hex)] })).toThrow(`trustConfig: approvalKeys[0] ${code}: `);
  });

  it('and every real key is still accepted (property over generated key pairs, JWK and PEM)', () => {
    fc.assert(
      fc.property(fc.constantFrom('jwk', 'pem'), fc.boolean(), (format, privatePart) => {
        const pair = generateKeyPairSync('ed25519');
        const key = privatePart ? pair.privateKey : pair.publicKey;
        const text =
          format === 'jwk' ? JSON.stringify(key.export({ format: 'jwk' })) : key.export({ format: 'pem', type: privatePart ? 'pkcs8' : 'spki' }).toString();
        expect(parseKey(text, 'k')).toMatchObject({ ok: true, keyId: keyId(pair.publicKey) });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('a weak key in a trust configuration built by hand is refused at verification', () => {
  /** What a host that bypasses `trustConfig()` could hold: a weak key trusted to sign, or to approve. */
  const handBuilt = (hex: string, role: 'signing' | 'approval'): TrustConfig => {
    const keys = new Map([[keyId(keyFromEncoding(hex)), keyFromEncoding(hex)]]);
    return role === 'signing'
      ? { signingKeys: keys, approvalKeys: trust.approvalKeys, requireApproval: true }
      : { signingKeys: trust.signingKeys, approvalKeys: keys, requireApproval: true };
  };

  it.each(WEAK_KEYS)('%s: a forged signature and a forged approval are refused', (_, hex, code) => {
    const signature = verifyBundle({ ...signed, signature: forgedSignature(hex) }, handBuilt(hex, 'signing'));
    expect(signature).toMatchObject({ ok: false, failure: { code, check: 'key', message: expect.stringContaining('the trusted signing key') } });
    const approval = verifyBundle({ ...signed, approval: forgedApproval(hex) }, handBuilt(hex, 'approval'));
    expect(approval).toMatchObject({ ok: false, failure: { code, check: 'key', message: expect.stringContaining('the trusted approval key') } });
  });

  it('a tampered bundle with forged signature and approval under the identity key never verifies, whatever it says (property)', () => {
    const signing = handBuilt(IDENTITY, 'signing');
    const both: TrustConfig = { ...signing, approvalKeys: handBuilt(IDENTITY, 'approval').approvalKeys };
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom(...SMALL_ORDER_POINTS.map(([hex]) => hex)), fc.bigInt({ min: 0n, max: 7n }), (text, r, s) => {
        const bundle = new Uint8Array(Buffer.from(`globalThis.evil = ${JSON.stringify(text)};`));
        const manifest = new Uint8Array(Buffer.from(JSON.stringify({ module_hash: `sha256:${'0'.repeat(64)}`, world: WORLD, note: text })));
        const forged = signatureOf(r, s).toString('base64');
        const files = {
          manifest,
          bundle,
          signature: json({ key_id: keyId(keyFromEncoding(IDENTITY)), signature: forged }),
          approval: json({ ...approveModule({ moduleHash, world: WORLD }, ops.privateKey), key_id: keyId(keyFromEncoding(IDENTITY)), signature: forged }),
        };
        expect(verifyBundle(files, both)).toMatchObject({ ok: false, failure: { code: 'KEY_SMALL_ORDER' } });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('a non-canonical signature is refused, by a sound key too', () => {
  const scalarOf = (signature: Uint8Array) => [...signature.subarray(32)].reverse().reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
  /** Ways to re-spell a valid signature: S + k·L (still < 2^256), or R replaced by a weak encoding. */
  const respelling = fc.oneof(
    fc.integer({ min: 1, max: 15 }).map((k) => ({ name: `S + ${k}L`, edit: (sig: Buffer) => signatureOf(sig.subarray(0, 32).toString('hex'), scalarOf(sig) + BigInt(k) * L), problem: 'S is not below the group order L' })),
    fc.constantFrom(...SMALL_ORDER_POINTS.map(([hex]) => hex)).map((hex) => ({ name: `R = ${hex.slice(0, 4)}`, edit: (sig: Buffer) => signatureOf(hex, scalarOf(sig)), problem: 'R is a point of small order' })),
    fc.constantFrom(...NON_CANONICAL_ENCODINGS).map((hex) => ({ name: `R = ${hex.slice(0, 4)}`, edit: (sig: Buffer) => signatureOf(hex, scalarOf(sig)), problem: 'R is not a canonical point encoding' })),
  );

  it('S + L of a valid manifest signature and of a valid approval: refused with their own codes', () => {
    const manifestSignature = Buffer.from(signManifest(signed.manifest, ci.privateKey).signature, 'base64');
    const result = verifyBundle({ ...signed, signature: json({ key_id: ci.keyId, signature: S_PLUS_L(manifestSignature).toString('base64') }) }, trust);
    expect(result).toMatchObject({ ok: false, failure: { code: 'SIGNATURE_NON_CANONICAL', check: 'signature' } });
    const approval = approveModule({ moduleHash, world: WORLD }, ops.privateKey);
    const edited = json({ ...approval, signature: S_PLUS_L(Buffer.from(approval.signature, 'base64')).toString('base64') });
    expect(verifyBundle({ ...signed, approval: edited }, trust)).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_NON_CANONICAL', check: 'approval' } });
  });

  it('every re-spelling of a valid signature or approval is refused, and the original still verifies (property)', () => {
    fc.assert(
      fc.property(respelling, fc.boolean(), ({ edit, problem }, onApproval) => {
        expect(verifyBundle(signed, trust).ok).toBe(true);
        const file = JSON.parse(Buffer.from(onApproval ? signed.approval : signed.signature).toString('utf8')) as { signature: string };
        const respelled = json({ ...file, signature: edit(Buffer.from(file.signature, 'base64')).toString('base64') });
        const result = verifyBundle({ ...signed, [onApproval ? 'approval' : 'signature']: respelled }, trust);
        expect(result).toMatchObject({
          ok: false,
          failure: { code: onApproval ? 'APPROVAL_SIGNATURE_NON_CANONICAL' : 'SIGNATURE_NON_CANONICAL', message: expect.stringContaining(`(${problem})`) },
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('signatures adec makes are canonical: random messages signed by random keys verify (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const pair = generateKeyPairSync('ed25519');
        const manifest = new Uint8Array(Buffer.concat([Buffer.from(signed.manifest), Buffer.from(bytes)]));
        // Only the signature step matters here: the edited manifest fails later checks.
        const own = trustConfig({ signingKeys: [createPublicKey(pair.privateKey)], approvalKeys: [ops.privateKey] });
        const result = verifyBundle({ ...signed, manifest, signature: json(signManifest(manifest, pair.privateKey)) }, own);
        expect(result.ok ? 'verified' : result.failure.check).not.toMatch(/^(signature|key)$/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
