/**
 * verifyBundle over a real build of examples/benefits: a signed and approved bundle verifies,
 * and every way of breaking it is refused with its own code and a message naming what failed.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approvalMessage,
  approveModule,
  formatSignatureFile,
  keyId,
  LoadedApprovals,
  loadTrustConfig,
  moduleHashOf,
  readBundleFiles,
  signManifest,
  trustConfig,
  verifyBundle,
  VERIFICATION_CODES,
  type Approval,
  type BundleFiles,
  type TrustConfig,
  type VerificationCode,
  type VerificationResult,
} from '@adec/runtime';
import { buildBenefits, buildOtherBundle, copyBundle, tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from './trust-fixtures.js';
import { jsonError } from '../../../../test/support/json-error.js';
import { IDENTITY, keyFromEncoding, NON_CANONICAL_ENCODINGS, NOT_ON_CURVE_ENCODING, S_PLUS_L, SMALL_ORDER_POINTS } from '../../../../test/security/ed25519-vectors.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const json = (value: unknown) => bytes(formatSignatureFile(value as never));
/** The world of examples/benefits, as its manifest names it. */
const WORLD = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
/** An approval of `hash` for examples/benefits' world, valid for 90 days from now unless told otherwise. */
const approve = (hash: string, key: KeyObject, approval: Partial<Approval> = {}) => approveModule({ moduleHash: hash, world: WORLD, ...approval }, key);

let pristine: string;
let other: { readonly manifest: Uint8Array; readonly moduleHash: string };
let ci: KeyPairFiles;
let ops: KeyPairFiles;
let rogue: KeyPairFiles;
let keysDir: string;
let trust: TrustConfig;
/** examples/benefits signed by ci and approved by ops, as bytes. */
let signed: Required<BundleFiles>;
let moduleHash: string;

beforeAll(async () => {
  pristine = await buildBenefits();
  const otherDir = await buildOtherBundle();
  const otherManifest = readFileSync(join(otherDir, 'manifest.json'));
  other = { manifest: otherManifest, moduleHash: (JSON.parse(otherManifest.toString('utf8')) as { module_hash: string }).module_hash };
  keysDir = tempDir();
  ci = writeKeyPair(keysDir, 'ci', 'jwk');
  ops = writeKeyPair(keysDir, 'ops', 'pem');
  rogue = writeKeyPair(keysDir, 'rogue', 'jwk');
  trust = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey] });

  const manifest = new Uint8Array(readFileSync(join(pristine, 'manifest.json')));
  const bundle = new Uint8Array(readFileSync(join(pristine, 'bundle.js')));
  moduleHash = (JSON.parse(Buffer.from(manifest).toString('utf8')) as { module_hash: string }).module_hash;
  signed = {
    manifest,
    bundle,
    signature: json(signManifest(manifest, ci.privateKey)),
    approval: json(approve(moduleHash, ops.privateKey)),
  };
});

function expectRefused(result: VerificationResult, code: VerificationCode, message: string): void {
  expect(result.ok ? result : result.failure).toEqual({ code, check: expect.any(String), message });
}

describe('a signed and approved bundle', () => {
  it('verifies from its files with a trust file of JWK and PEM keys, and hands on exactly the bytes it checked', async () => {
    const dir = copyBundle(pristine);
    writeFileSync(join(dir, 'signature.json'), signed.signature);
    writeFileSync(join(dir, 'approval.json'), signed.approval);
    const trustPath = writeTrustFile(join(keysDir, 'trust.json'), { signing_keys: [ci.publicFile], approval_keys: [ops.publicFile] });

    const loaded = await loadTrustConfig(trustPath);
    const read = await readBundleFiles(dir);
    if (!loaded.ok || !read.ok) throw new Error('set-up failed');
    const result = verifyBundle(read.files, loaded.trust);

    expect(result).toEqual({
      ok: true,
      bundle: {
        manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as unknown,
        moduleHash,
        bundleSource: readFileSync(join(dir, 'bundle.js'), 'utf8'),
        world: WORLD,
        signedBy: ci.keyId,
        approvedBy: ops.keyId,
        approvedAt: expect.any(Number),
        approvalExpiresAt: expect.any(Number),
      },
    });
    expect(moduleHash).toBe(moduleHashOf(signed.bundle));
  });

  it('verifies with the formats the other way round: a PEM signing key and a JWK approval key', async () => {
    const signer = writeKeyPair(keysDir, 'ci-pem', 'pem');
    const approver = writeKeyPair(keysDir, 'ops-jwk', 'jwk');
    const trustPath = writeTrustFile(join(keysDir, 'swapped.json'), { signing_keys: [signer.publicFile], approval_keys: [approver.publicFile] });
    const loaded = await loadTrustConfig(trustPath);
    if (!loaded.ok) throw new Error(loaded.message);
    const files = {
      ...signed,
      signature: json(signManifest(signed.manifest, signer.privateKey)),
      approval: json(approve(moduleHash, approver.privateKey)),
    };
    const result = verifyBundle(files, loaded.trust);
    expect(result.ok && [result.bundle.signedBy, result.bundle.approvedBy]).toEqual([signer.keyId, approver.keyId]);
  });

  it('verifies against a trust file that lists private key files, using only their public part', async () => {
    const trustPath = writeTrustFile(join(keysDir, 'private.json'), { signing_keys: [ci.privateFile], approval_keys: [ops.privateFile] });
    const loaded = await loadTrustConfig(trustPath);
    if (!loaded.ok) throw new Error(loaded.message);
    expect([...loaded.trust.signingKeys.values()].map((key) => key.type)).toEqual(['public']);
    expect(verifyBundle(signed, loaded.trust).ok).toBe(true);
  });

  it('does not read the disk: verification of bytes already read survives the directory being deleted', async () => {
    const dir = copyBundle(pristine);
    writeFileSync(join(dir, 'signature.json'), signed.signature);
    writeFileSync(join(dir, 'approval.json'), signed.approval);
    const read = await readBundleFiles(dir);
    rmSync(dir, { recursive: true });
    expect(read.ok && verifyBundle(read.files, trust).ok).toBe(true);
  });
});

/** `files` as a bundle directory without approval.json. */
function withoutApproval({ manifest, bundle, signature }: Required<BundleFiles>): BundleFiles {
  return { manifest, bundle, signature };
}

describe('require_approval', () => {
  it('false accepts a signed bundle without approval.json, with no approver', () => {
    const unapproved = withoutApproval(signed);
    const result = verifyBundle(unapproved, trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [], requireApproval: false }));
    expect(result.ok && result.bundle.approvedBy).toBeUndefined();
    expect(result.ok && result.bundle.signedBy).toBe(ci.keyId);
  });

  it('false still checks an approval that is present', () => {
    const lax = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], requireApproval: false });
    const approval = json(approve(other.moduleHash, ops.privateKey));
    expect(verifyBundle({ ...signed, approval }, lax)).toMatchObject({ ok: false, failure: { code: 'APPROVAL_HASH_MISMATCH' } });
    expect(verifyBundle(signed, lax)).toMatchObject({ ok: true, bundle: { approvedBy: ops.keyId } });
  });

  it('defaults to true', () => {
    const unapproved = withoutApproval(signed);
    expect(trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey] }).requireApproval).toBe(true);
    expect(verifyBundle(unapproved, trust)).toMatchObject({ ok: false, failure: { code: 'APPROVAL_MISSING' } });
  });
});

/** One way to break a bundle, the code it must be refused with, and the exact message. */
interface Refusal {
  readonly name: string;
  readonly code: VerificationCode;
  readonly check: string;
  readonly files: () => BundleFiles;
  readonly trust?: () => TrustConfig;
  /** The time of verification; default: now. */
  readonly now?: number;
  /** A bundle the host loaded before: `files` is then the replacement the loader is offered. */
  readonly loadedBefore?: () => BundleFiles;
  /** For failures of reading a bundle directory rather than of verifying its bytes. */
  readonly read?: () => Promise<VerificationResult>;
  readonly message: () => string;
}

/** A trust configuration built by hand, as a host that bypasses `trustConfig()` could: with a weak key. */
const trustingWeakKey = (hex: string, role: 'signing' | 'approval'): TrustConfig => {
  const weak = keyFromEncoding(hex);
  const keys = new Map([[keyId(weak), weak]]);
  return role === 'signing'
    ? { signingKeys: keys, approvalKeys: trust.approvalKeys, requireApproval: true }
    : { signingKeys: trust.signingKeys, approvalKeys: keys, requireApproval: true };
};
/** The universal forgery under a key of small order: R = identity, S = 0. */
const FORGED = Buffer.concat([Buffer.from(IDENTITY, 'hex'), Buffer.alloc(32)]).toString('base64');
const forgery = (hex: string) => json({ key_id: keyId(keyFromEncoding(hex)), signature: FORGED });
const forgedApproval = (hex: string) => json({ ...approve(moduleHash, ops.privateKey), key_id: keyId(keyFromEncoding(hex)), signature: FORGED });
/** A bundle directory whose `name` is replaced by `make(path)`. */
const bundleDirWith = (name: string, make: (path: string) => void) => {
  const dir = copyBundle(pristine, tempDir(), 'build');
  rmSync(join(dir, name));
  make(join(dir, name));
  return dir;
};
const JAN_2030 = Date.parse('2030-01-01T00:00:00Z');

const editedManifest = () => bytes(Buffer.from(signed.manifest).toString('utf8').replace('"version": "1.4.0"', '"version": "1.4.1"'));
const flipped = () => {
  const bundle = new Uint8Array(signed.bundle);
  bundle[100] = bundle[100]! ^ 0x01;
  return bundle;
};
/** A manifest signed by a trusted key, which is not what a build writes (a buggy signer). */
const signedManifest = (manifest: Uint8Array): Partial<BundleFiles> => ({ manifest, signature: json(signManifest(manifest, ci.privateKey)) });

const REFUSALS: readonly Refusal[] = [
  {
    name: 'no manifest bytes',
    code: 'BUNDLE_FILE_MISSING',
    check: 'files',
    files: () => ({ ...signed, manifest: undefined as never }),
    message: () => 'manifest.json was not given',
  },
  {
    name: 'a bundle.js that is a symbolic link',
    code: 'BUNDLE_FILE_NOT_REGULAR',
    check: 'files',
    files: () => signed,
    read: async () => {
      const dir = bundleDirWith('bundle.js', (path) => symlinkSync(join(pristine, 'bundle.js'), path));
      const read = await readBundleFiles('build', join(dir, '..'));
      return read.ok ? verifyBundle(read.files, trust) : read;
    },
    message: () => '`build/bundle.js` is a symbolic link, not a regular file (links are not followed)',
  },
  {
    name: 'a manifest.json over its size limit',
    code: 'BUNDLE_FILE_TOO_LARGE',
    check: 'files',
    files: () => signed,
    read: async () => {
      const dir = copyBundle(pristine, tempDir(), 'build');
      const read = await readBundleFiles('build', join(dir, '..'), { manifest: 1024 });
      return read.ok ? verifyBundle(read.files, trust) : read;
    },
    message: () => `\`build/manifest.json\` is ${signed.manifest.length} bytes, over the limit of 1 KiB`,
  },
  {
    name: 'no signature.json',
    code: 'SIGNATURE_MISSING',
    check: 'signature',
    files: () => ({ manifest: signed.manifest, bundle: signed.bundle, approval: signed.approval }),
    message: () => 'the bundle is not signed: it has no signature.json',
  },
  {
    name: 'signature.json that is not JSON',
    code: 'SIGNATURE_MALFORMED',
    check: 'signature',
    files: () => ({ ...signed, signature: bytes('key_id: abc') }),
    message: () => `signature.json is not valid JSON: ${jsonError('key_id: abc')}`,
  },
  {
    name: 'signature.json without key_id',
    code: 'SIGNATURE_MALFORMED',
    check: 'signature',
    files: () => ({ ...signed, signature: bytes('{"signature": "AAAA"}') }),
    message: () => 'signature.json has no `key_id` string',
  },
  {
    name: 'a signature of the wrong length',
    code: 'SIGNATURE_MALFORMED',
    check: 'signature',
    files: () => ({ ...signed, signature: json({ key_id: ci.keyId, signature: Buffer.alloc(32).toString('base64') }) }),
    message: () => 'signature.json `signature` decodes to 32 bytes, expected 64 (Ed25519)',
  },
  {
    name: 'a signature in base64url rather than base64',
    code: 'SIGNATURE_MALFORMED',
    check: 'signature',
    files: () => ({ ...signed, signature: json({ key_id: ci.keyId, signature: Buffer.alloc(64, 0xff).toString('base64url') }) }),
    message: () => 'signature.json `signature` is not standard base64',
  },
  {
    name: 'a signature by an untrusted key',
    code: 'SIGNER_UNTRUSTED',
    check: 'signature',
    files: () => ({ ...signed, signature: json(signManifest(signed.manifest, rogue.privateKey)) }),
    message: () => `signature.json is by key \`${rogue.keyId}\`, which is not a trusted signing key (trusted signing keys: \`${ci.keyId}\`)`,
  },
  {
    name: 'a signature by a revoked signing key',
    code: 'SIGNING_KEY_REVOKED',
    check: 'revocation',
    files: () => signed,
    trust: () => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], revokedKeys: [ci.keyId] }),
    message: () => `signature.json is by key \`${ci.keyId}\`, which the trust file revokes`,
  },
  {
    name: 'a trusted signing key that is not canonically encoded (y = p + 1)',
    code: 'KEY_NON_CANONICAL',
    check: 'key',
    files: () => ({ ...signed, signature: forgery(NON_CANONICAL_ENCODINGS[2]!) }),
    trust: () => trustingWeakKey(NON_CANONICAL_ENCODINGS[2]!, 'signing'),
    message: () => `the trusted signing key \`${keyId(keyFromEncoding(NON_CANONICAL_ENCODINGS[2]!))}\` is not the canonical encoding of an Ed25519 point, so it is not used`,
  },
  {
    name: 'a trusted signing key that is not on the curve',
    code: 'KEY_NOT_ON_CURVE',
    check: 'key',
    files: () => ({ ...signed, signature: forgery(NOT_ON_CURVE_ENCODING) }),
    trust: () => trustingWeakKey(NOT_ON_CURVE_ENCODING, 'signing'),
    message: () => `the trusted signing key \`${keyId(keyFromEncoding(NOT_ON_CURVE_ENCODING))}\` is not a point of the Ed25519 curve, so it is not used`,
  },
  {
    name: 'a forged signature under a trusted signing key of small order (the identity)',
    code: 'KEY_SMALL_ORDER',
    check: 'key',
    files: () => ({ ...signed, signature: forgery(IDENTITY) }),
    trust: () => trustingWeakKey(IDENTITY, 'signing'),
    message: () => `the trusted signing key \`${keyId(keyFromEncoding(IDENTITY))}\` is a point of small order, under which signatures can be forged, so it is not used`,
  },
  {
    name: 'a valid signature with S + L in place of S',
    code: 'SIGNATURE_NON_CANONICAL',
    check: 'signature',
    files: () => ({ ...signed, signature: json({ key_id: ci.keyId, signature: S_PLUS_L(Buffer.from(signManifest(signed.manifest, ci.privateKey).signature, 'base64')).toString('base64') }) }),
    message: () => `the signature by key \`${ci.keyId}\` is not in canonical form (S is not below the group order L): a strict verifier refuses it`,
  },
  {
    name: 'an edited manifest',
    code: 'SIGNATURE_INVALID',
    check: 'signature',
    files: () => ({ ...signed, manifest: editedManifest() }),
    message: () => `the signature by key \`${ci.keyId}\` does not verify over manifest.json: the manifest was changed after it was signed, or the signature is forged`,
  },
  {
    name: "another bundle's signature by the same key",
    code: 'SIGNATURE_INVALID',
    check: 'signature',
    files: () => ({ ...signed, signature: json(signManifest(other.manifest, ci.privateKey)) }),
    message: () => `the signature by key \`${ci.keyId}\` does not verify over manifest.json: the manifest was changed after it was signed, or the signature is forged`,
  },
  {
    name: 'a signed manifest without module_hash',
    code: 'MANIFEST_INVALID',
    check: 'manifest',
    files: () => ({ ...signed, ...signedManifest(bytes('{"abi_version": 2}')) }),
    message: () => 'manifest.json has no `module_hash` string',
  },
  {
    name: 'a signed manifest that is not an object',
    code: 'MANIFEST_INVALID',
    check: 'manifest',
    files: () => ({ ...signed, ...signedManifest(bytes('[1, 2]')) }),
    message: () => 'manifest.json is not a JSON object',
  },
  {
    name: 'a signed manifest with a module_hash of the wrong form',
    code: 'MANIFEST_INVALID',
    check: 'manifest',
    files: () => ({ ...signed, ...signedManifest(bytes(`{"module_hash": "${moduleHash.toUpperCase()}"}`)) }),
    message: () => `manifest.json has \`module_hash\` \`${moduleHash.toUpperCase()}\`, expected "sha256:" and 64 lowercase hex digits`,
  },
  {
    name: 'a flipped byte in bundle.js',
    code: 'MODULE_HASH_MISMATCH',
    check: 'module_hash',
    files: () => ({ ...signed, bundle: flipped() }),
    message: () => `bundle.js hashes to \`${moduleHashOf(flipped())}\` but manifest.json declares \`${moduleHash}\`: bundle.js was changed after the build`,
  },
  {
    name: 'a hashed and signed bundle.js that is not UTF-8',
    code: 'BUNDLE_NOT_UTF8',
    check: 'module_hash',
    files: () => {
      const bundle = new Uint8Array([...signed.bundle, 0xff]);
      return { ...signed, bundle, ...signedManifest(bytes(`{"module_hash": "${moduleHashOf(bundle)}"}`)) };
    },
    message: () => 'bundle.js matches its module hash but is not valid UTF-8, so it cannot be run as the script that was hashed',
  },
  {
    name: 'a signed manifest that names no world',
    code: 'MANIFEST_INVALID',
    check: 'manifest',
    files: () => ({ ...signed, ...signedManifest(bytes(`{"module_hash": "${moduleHash}"}`)) }),
    message: () => 'manifest.json has no `world` with `org`, `domain` and `version` strings',
  },
  {
    name: 'a revoked module hash',
    code: 'MODULE_REVOKED',
    check: 'revocation',
    files: () => signed,
    trust: () => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], revokedModules: [moduleHash] }),
    message: () => `module \`${moduleHash}\` (\`acme/hr.benefits@1.4.0\`) is revoked by the trust file`,
  },
  {
    name: 'a version below the minimum of its module',
    code: 'VERSION_BELOW_MINIMUM',
    check: 'revocation',
    files: () => signed,
    trust: () => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], minimumVersions: [{ ...WORLD, version: '1.10.0' }] }),
    message: () => '`acme/hr.benefits@1.4.0` is below the minimum version `1.10.0` the trust file sets for `acme/hr.benefits`',
  },
  {
    name: 'no approval.json when approval is required',
    code: 'APPROVAL_MISSING',
    check: 'approval',
    files: () => ({ manifest: signed.manifest, bundle: signed.bundle, signature: signed.signature }),
    message: () => 'approval is required but the bundle has no approval.json',
  },
  {
    name: 'approval.json that is an array',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: bytes('[]') }),
    message: () => 'approval.json is not a JSON object',
  },
  {
    name: 'approval.json without module_hash',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ format: 'adec.approval.v2', key_id: ops.keyId, signature: Buffer.alloc(64).toString('base64') }) }),
    message: () => 'approval.json has no `module_hash` string',
  },
  {
    name: 'approval.json of an unknown format',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(moduleHash, ops.privateKey), format: 'adec.approval.v4' }) }),
    message: () => 'approval.json has `format` `adec.approval.v4`, expected `adec.approval.v3`',
  },
  ...[undefined, 'adec 0.1.0', { name: 'adec' }, { name: 'adec', version: 1 }, ['adec', '0.1.0'], true].map((rebuiltBy) => ({
    name: `approval.json whose \`rebuilt_by\` is ${rebuiltBy === undefined ? 'missing' : JSON.stringify(rebuiltBy)}`,
    code: 'APPROVAL_MALFORMED' as const,
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(moduleHash, ops.privateKey), rebuilt_by: rebuiltBy }) }),
    message: () => 'approval.json has no `rebuilt_by`: `null` or the compiler `{ "name", "version" }` (strings) that rebuilt the bundle',
  })),
  {
    name: 'approval.json whose expiry is not a time',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(moduleHash, ops.privateKey), expires_at: '2030-02-30T00:00:00Z' }) }),
    message: () => 'approval.json has no `expires_at` time of the form YYYY-MM-DDTHH:MM:SSZ',
  },
  {
    name: 'an approval of the first format (no format, no world, no expiry), validly signed',
    code: 'APPROVAL_OUTDATED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ key_id: ops.keyId, module_hash: moduleHash, signature: v1Signature(moduleHash, ops.privateKey) }) }),
    message: () =>
      'approval.json has no `format`: it is an approval of the first format, which names no world version and never expires; approve the bundle again with `adec approve`',
  },
  {
    name: 'approval.json with a key_id that is not a thumbprint',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(moduleHash, ops.privateKey), key_id: 'ops' }) }),
    message: () => 'approval.json has `key_id` `ops`, expected a JWK thumbprint (43 base64url characters)',
  },
  {
    name: 'an approval by a key trusted only as a signer',
    code: 'APPROVER_UNTRUSTED',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, ci.privateKey)) }),
    message: () =>
      `approval.json is by key \`${ci.keyId}\`, which is not a trusted approval key: it is trusted only as a signing key (trusted approval keys: \`${ops.keyId}\`)`,
  },
  {
    name: 'an approval by an unknown key',
    code: 'APPROVER_UNTRUSTED',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, rogue.privateKey)) }),
    message: () => `approval.json is by key \`${rogue.keyId}\`, which is not a trusted approval key (trusted approval keys: \`${ops.keyId}\`)`,
  },
  {
    name: 'an approval by a revoked approval key',
    code: 'APPROVAL_KEY_REVOKED',
    check: 'revocation',
    files: () => signed,
    trust: () => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], revokedKeys: [ops.keyId] }),
    message: () => `approval.json is by key \`${ops.keyId}\`, which the trust file revokes`,
  },
  {
    name: 'a forged approval under a trusted approval key of small order (order 8)',
    code: 'KEY_SMALL_ORDER',
    check: 'key',
    files: () => ({ ...signed, approval: forgedApproval(SMALL_ORDER_POINTS[4]![0]) }),
    trust: () => trustingWeakKey(SMALL_ORDER_POINTS[4]![0], 'approval'),
    message: () => `the trusted approval key \`${keyId(keyFromEncoding(SMALL_ORDER_POINTS[4]![0]))}\` is a point of small order, under which signatures can be forged, so it is not used`,
  },
  {
    name: 'an approval of another build',
    code: 'APPROVAL_HASH_MISMATCH',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(other.moduleHash, ops.privateKey)) }),
    message: () => `approval.json approves module \`${other.moduleHash}\` but this bundle is \`${moduleHash}\`: the approval is for another bundle`,
  },
  {
    name: 'a valid approval with S + L in place of S',
    code: 'APPROVAL_SIGNATURE_NON_CANONICAL',
    check: 'approval',
    files: () => {
      const approval = approve(moduleHash, ops.privateKey);
      return { ...signed, approval: json({ ...approval, signature: S_PLUS_L(Buffer.from(approval.signature, 'base64')).toString('base64') }) };
    },
    message: () => `the approval by key \`${ops.keyId}\` is not in canonical form (S is not below the group order L): a strict verifier refuses it`,
  },
  {
    name: "another build's approval relabelled with this module_hash",
    code: 'APPROVAL_SIGNATURE_INVALID',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(other.moduleHash, ops.privateKey), module_hash: moduleHash }) }),
    message: () =>
      `the approval by key \`${ops.keyId}\` does not verify over module hash \`${moduleHash}\` with its world and validity: the approval is forged or was edited`,
  },
  {
    name: 'an approval whose expiry was pushed back after signing',
    code: 'APPROVAL_SIGNATURE_INVALID',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approve(moduleHash, ops.privateKey), expires_at: '2099-01-01T00:00:00Z' }) }),
    message: () =>
      `the approval by key \`${ops.keyId}\` does not verify over module hash \`${moduleHash}\` with its world and validity: the approval is forged or was edited`,
  },
  {
    name: 'an approval of this module hash for another version',
    code: 'APPROVAL_WORLD_MISMATCH',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, ops.privateKey, { world: { ...WORLD, version: '1.3.0' } })) }),
    message: () => 'approval.json approves `acme/hr.benefits@1.3.0` but manifest.json says this bundle is `acme/hr.benefits@1.4.0`: the approval is for another version',
  },
  ...[{ name: 'adec', version: '0.0.9' }, { name: 'adek', version: '0.1.0' }].map((rebuiltBy) => ({
    name: `an approval saying ${rebuiltBy.name} ${rebuiltBy.version} rebuilt a bundle adec 0.1.0 built`,
    code: 'APPROVAL_REBUILD_MISMATCH' as const,
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, ops.privateKey, { rebuiltBy })) }),
    message: () =>
      `approval.json says \`${rebuiltBy.name} ${rebuiltBy.version}\` rebuilt this bundle, but manifest.json says \`adec 0.1.0\` built it: a rebuild by another compiler cannot have given the same bytes`,
  })),
  {
    name: 'an approval issued later than now and the clock skew a host allows',
    code: 'APPROVAL_NOT_YET_VALID',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, ops.privateKey, { issuedAt: JAN_2030 + 301_000, expiresAt: JAN_2030 + 86_400_000 })) }),
    now: JAN_2030,
    message: () => `the approval by key \`${ops.keyId}\` was issued at 2030-01-01T00:05:01Z, after now (2030-01-01T00:00:00Z) and the 5 minutes a clock may be off: an approval from the future would outrank every later one`,
  },
  {
    name: 'an expired approval',
    code: 'APPROVAL_EXPIRED',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approve(moduleHash, ops.privateKey, { issuedAt: JAN_2030, expiresAt: JAN_2030 + 86_400_000 })) }),
    now: JAN_2030 + 86_400_000,
    message: () => `the approval by key \`${ops.keyId}\` expired at 2030-01-02T00:00:00Z (now 2030-01-02T00:00:00Z)`,
  },
  {
    name: 'a replacement whose approval is older than the one loaded',
    code: 'APPROVAL_OLDER_THAN_LOADED',
    check: 'replacement',
    loadedBefore: () => ({ ...signed, approval: json(approve(moduleHash, ops.privateKey, { issuedAt: JAN_2030 })) }),
    files: () => ({ ...rebuilt(), approval: json(approve(moduleHashOf(rebuilt().bundle), ops.privateKey, { issuedAt: JAN_2030 - 1000 })) }),
    now: JAN_2030 + 1000,
    message: () =>
      `module \`${moduleHashOf(rebuilt().bundle)}\` cannot replace module \`${moduleHash}\` of \`acme/hr.benefits@1.4.0\`: its approval (2029-12-31T23:59:59Z) is older than the approval of the module this host already loaded (2030-01-01T00:00:00Z)`,
  },
];

/** The approval of the first format: `adec.approval.v1\n` + the module hash, no world, no expiry. */
function v1Signature(hash: string, key: KeyObject): string {
  return sign(null, Buffer.from(`adec.approval.v1\n${hash}`), key).toString('base64');
}

/** Another build of the same world version: bundle.js with a trailing comment, re-hashed and re-signed. */
function rebuilt(): Required<Pick<BundleFiles, 'manifest' | 'bundle' | 'signature'>> {
  const bundle = new Uint8Array(Buffer.concat([signed.bundle, Buffer.from('\n// rebuilt\n')]));
  const manifest = bytes(Buffer.from(signed.manifest).toString('utf8').replace(moduleHash, moduleHashOf(bundle)));
  return { bundle, manifest, signature: json(signManifest(manifest, ci.privateKey)) };
}

/** What the loader does with `refusal`: read or verify it, after any bundle it loaded before. */
async function attempt(refusal: Refusal): Promise<VerificationResult> {
  if (refusal.read !== undefined) return refusal.read();
  const verify = (files: BundleFiles) => verifyBundle(files, refusal.trust?.() ?? trust, refusal.now === undefined ? {} : { now: refusal.now });
  if (refusal.loadedBefore === undefined) return verify(refusal.files());
  const approvals = new LoadedApprovals();
  for (const files of [refusal.loadedBefore(), refusal.files()]) {
    const result = verify(files);
    if (!result.ok) return result;
    const older = approvals.admit(result.bundle);
    if (older !== undefined) return { ok: false, failure: older };
  }
  throw new Error(`${refusal.name}: was not refused`);
}

describe('each broken bundle is refused with its own code', () => {
  it.each(REFUSALS.map((refusal) => [refusal.name, refusal] as const))('%s', async (_, refusal) => {
    const result = await attempt(refusal);
    expect(result.ok ? result : result.failure).toEqual({ code: refusal.code, check: refusal.check, message: refusal.message() });
  });

  it('covers every code of the catalogue, in check order', () => {
    const codes = [...new Set(REFUSALS.map((refusal) => refusal.code))];
    expect(codes).toEqual(VERIFICATION_CODES);
  });

  it('reports a file missing from the bundle directory, naming it', async () => {
    const dir = copyBundle(pristine, tempDir(), 'build');
    rmSync(join(dir, 'bundle.js'));
    expect(await readBundleFiles(dir)).toEqual({
      ok: false,
      failure: { code: 'BUNDLE_FILE_MISSING', check: 'files', message: `\`${join(dir, 'bundle.js')}\` does not exist` },
    });
    expect(await readBundleFiles('nowhere', dir)).toEqual({
      ok: false,
      failure: { code: 'BUNDLE_FILE_MISSING', check: 'files', message: 'bundle directory `nowhere` does not exist' },
    });
  });
});

describe('the signature files choose no algorithm', () => {
  const withAlg = (file: Uint8Array, alg: string) => json({ ...(JSON.parse(Buffer.from(file).toString('utf8')) as object), alg });
  // A well-formed signature, of something else.
  const forged = (file: Uint8Array) => json({ ...(JSON.parse(Buffer.from(file).toString('utf8')) as object), signature: signManifest(bytes('else'), rogue.privateKey).signature });

  it.each(['none', 'HS256', 'RS256'])('an `alg: %s` changes nothing: a valid signature still verifies', (alg) => {
    const result = verifyBundle({ ...signed, signature: withAlg(signed.signature, alg), approval: withAlg(signed.approval, alg) }, trust);
    expect(result).toMatchObject({ ok: true, bundle: { signedBy: ci.keyId, approvedBy: ops.keyId } });
  });

  it.each(['none', 'HS256'])('an `alg: %s` changes nothing: a forged signature still fails', (alg) => {
    const forgedSignature = verifyBundle({ ...signed, signature: withAlg(forged(signed.signature), alg) }, trust);
    expect(forgedSignature).toMatchObject({ ok: false, failure: { code: 'SIGNATURE_INVALID' } });
    const forgedApproval = verifyBundle({ ...signed, approval: withAlg(forged(signed.approval), alg) }, trust);
    expect(forgedApproval).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('an `alg: none` with an empty signature is malformed, not accepted', () => {
    const result = verifyBundle({ ...signed, signature: json({ key_id: ci.keyId, alg: 'none', signature: '' }) }, trust);
    expectRefused(result, 'SIGNATURE_MALFORMED', 'signature.json `signature` decodes to 0 bytes, expected 64 (Ed25519)');
  });
});

describe('domain separation', () => {
  // One key trusted both to sign and to approve: its signatures still cannot stand in for each other.
  const both = () => trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ci.privateKey] });

  it('a manifest signature cannot pass as an approval', () => {
    const manifestSignature = signManifest(signed.manifest, ci.privateKey);
    const approval = json({ ...approve(moduleHash, ci.privateKey), signature: manifestSignature.signature });
    expect(verifyBundle({ ...signed, approval }, both())).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('a manifest signature cannot pass as an approval even when the "manifest" is exactly an approval statement', () => {
    const file = approve(moduleHash, ci.privateKey);
    const statement = approvalMessage({ format: 'adec.approval.v3', moduleHash, world: WORLD, issuedAt: file.issued_at, expiresAt: file.expires_at, rebuiltBy: null }).subarray(
      'adec.approval.v3\n'.length,
    );
    const { signature } = signManifest(statement, ci.privateKey);
    const approval = json({ ...file, signature });
    expect(verifyBundle({ ...signed, approval }, both())).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('signs exactly `adec.manifest.v1\\n` + manifest bytes and `adec.approval.v3\\n` + the statement as compact JSON', () => {
    const publicKey = createPublicKey(ci.privateKey);
    const signature = Buffer.from(signManifest(signed.manifest, ci.privateKey).signature, 'base64');
    expect(verify(null, Buffer.concat([Buffer.from('adec.manifest.v1\n'), signed.manifest]), publicKey, signature)).toBe(true);
    const times = { issuedAt: JAN_2030, expiresAt: JAN_2030 + 1000 };
    const statement = `{"module_hash":"${moduleHash}","world":{"org":"acme","domain":"hr.benefits","version":"1.4.0"},"issued_at":"2030-01-01T00:00:00Z","expires_at":"2030-01-01T00:00:01Z"`;
    for (const [rebuiltBy, rebuiltJson] of [
      [undefined, 'null'],
      [{ name: 'adec', version: '0.1.0' }, '{"name":"adec","version":"0.1.0"}'],
    ] as const) {
      const file = approve(moduleHash, ci.privateKey, { ...times, ...(rebuiltBy !== undefined && { rebuiltBy }) });
      const message = `adec.approval.v3\n${statement},"rebuilt_by":${rebuiltJson}}`;
      expect(verify(null, Buffer.from(message), publicKey, Buffer.from(file.signature, 'base64'))).toBe(true);
      expect(file).toEqual({
        format: 'adec.approval.v3',
        key_id: ci.keyId,
        module_hash: moduleHash,
        world: WORLD,
        issued_at: '2030-01-01T00:00:00Z',
        expires_at: '2030-01-01T00:00:01Z',
        rebuilt_by: rebuiltBy ?? null,
        signature: file.signature,
      });
    }
  });

  it('still reads an approval of format v2, which states no rebuild, signed over `adec.approval.v2\\n` + the statement without `rebuilt_by`', () => {
    const file = approve(moduleHash, ops.privateKey);
    const { rebuilt_by: _, ...v2 } = { ...file, format: 'adec.approval.v2' };
    const statement = { format: 'adec.approval.v2', moduleHash, world: WORLD, issuedAt: file.issued_at, expiresAt: file.expires_at, rebuiltBy: null } as const;
    const signatureV2 = Buffer.from(sign(null, approvalMessage(statement), ops.privateKey)).toString('base64');
    const accepted = verifyBundle({ ...signed, approval: json({ ...v2, signature: signatureV2 }) }, trust);
    expect(accepted).toMatchObject({ ok: true, bundle: { approvedBy: ops.keyId } });
    expect(accepted.ok && accepted.bundle.rebuiltBy).toBeUndefined();
    // The v3 signature over the same statement does not verify as v2, nor the v2 one as v3.
    expect(verifyBundle({ ...signed, approval: json({ ...v2, signature: file.signature }) }, trust)).toMatchObject({ failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
    expect(verifyBundle({ ...signed, approval: json({ ...file, signature: signatureV2 }) }, trust)).toMatchObject({ failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('a rebuilt approval hands on who rebuilt the bundle; rebuilt_by cannot be added to an approval after it was signed', () => {
    const rebuilt = approve(moduleHash, ops.privateKey, { rebuiltBy: { name: 'adec', version: '0.1.0' } });
    expect(verifyBundle({ ...signed, approval: json(rebuilt) }, trust)).toMatchObject({ ok: true, bundle: { rebuiltBy: { name: 'adec', version: '0.1.0' } } });
    const plain = approve(moduleHash, ops.privateKey);
    expect(verifyBundle({ ...signed, approval: json({ ...plain, rebuilt_by: rebuilt.rebuilt_by }) }, trust)).toMatchObject({ failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
    expect(verifyBundle({ ...signed, approval: json({ ...rebuilt, rebuilt_by: null }) }, trust)).toMatchObject({ failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('an approval signature cannot pass as a manifest signature', () => {
    const { key_id, signature } = approve(moduleHash, ci.privateKey);
    const result = verifyBundle({ ...signed, signature: json({ key_id, signature }), approval: json(approve(moduleHash, ci.privateKey)) }, both());
    expect(result).toMatchObject({ ok: false, failure: { code: 'SIGNATURE_INVALID' } });
  });
});

describe('verifyBundle on arbitrary corruption', () => {
  it('never throws, and never accepts a changed manifest or bundle', () => {
    const names = ['manifest', 'bundle', 'signature', 'approval'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (name, edits, truncate) => {
          const file = new Uint8Array(signed[name]);
          for (const { at, value } of edits) file[at % file.length] = value;
          const changed = truncate ? file.subarray(0, edits[0]!.at % file.length) : file;
          const result = verifyBundle({ ...signed, [name]: changed }, trust);
          const same = Buffer.from(changed).equals(Buffer.from(signed[name]));
          if ((name === 'manifest' || name === 'bundle') && !same) expect(result.ok).toBe(false);
          if (same) expect(result.ok).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
