/**
 * verifyBundle over a real build of examples/benefits: a signed and approved bundle verifies,
 * and every way of breaking it is refused with its own code and a message naming what failed.
 */
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approveModule,
  formatSignatureFile,
  loadTrustConfig,
  moduleHashOf,
  readBundleFiles,
  signManifest,
  trustConfig,
  verifyBundle,
  VERIFICATION_CODES,
  type BundleFiles,
  type TrustConfig,
  type VerificationCode,
  type VerificationResult,
} from '@adec/runtime';
import { buildBenefits, buildOtherBundle, copyBundle, tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from './trust-fixtures.js';
import { jsonError } from '../support/json-error.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const json = (value: unknown) => bytes(formatSignatureFile(value as never));

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
    approval: json(approveModule(moduleHash, ops.privateKey)),
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
        manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')),
        moduleHash,
        bundleSource: readFileSync(join(dir, 'bundle.js'), 'utf8'),
        signedBy: ci.keyId,
        approvedBy: ops.keyId,
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
      approval: json(approveModule(moduleHash, approver.privateKey)),
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

describe('require_approval', () => {
  it('false accepts a signed bundle without approval.json, with no approver', () => {
    const { approval: _, ...unapproved } = signed;
    const result = verifyBundle(unapproved, trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [], requireApproval: false }));
    expect(result.ok && result.bundle.approvedBy).toBeUndefined();
    expect(result.ok && result.bundle.signedBy).toBe(ci.keyId);
  });

  it('false still checks an approval that is present', () => {
    const lax = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], requireApproval: false });
    const approval = json(approveModule(other.moduleHash, ops.privateKey));
    expect(verifyBundle({ ...signed, approval }, lax)).toMatchObject({ ok: false, failure: { code: 'APPROVAL_HASH_MISMATCH' } });
    expect(verifyBundle(signed, lax)).toMatchObject({ ok: true, bundle: { approvedBy: ops.keyId } });
  });

  it('defaults to true', () => {
    const { approval: _, ...unapproved } = signed;
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
  readonly message: () => string;
}

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
    files: () => ({ ...signed, approval: json({ key_id: ops.keyId, signature: Buffer.alloc(64).toString('base64') }) }),
    message: () => 'approval.json has no `module_hash` string',
  },
  {
    name: 'approval.json with a key_id that is not a thumbprint',
    code: 'APPROVAL_MALFORMED',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approveModule(moduleHash, ops.privateKey), key_id: 'ops' }) }),
    message: () => 'approval.json has `key_id` `ops`, expected a JWK thumbprint (43 base64url characters)',
  },
  {
    name: 'an approval by a key trusted only as a signer',
    code: 'APPROVER_UNTRUSTED',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approveModule(moduleHash, ci.privateKey)) }),
    message: () =>
      `approval.json is by key \`${ci.keyId}\`, which is not a trusted approval key: it is trusted only as a signing key (trusted approval keys: \`${ops.keyId}\`)`,
  },
  {
    name: 'an approval by an unknown key',
    code: 'APPROVER_UNTRUSTED',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approveModule(moduleHash, rogue.privateKey)) }),
    message: () => `approval.json is by key \`${rogue.keyId}\`, which is not a trusted approval key (trusted approval keys: \`${ops.keyId}\`)`,
  },
  {
    name: 'an approval of another build',
    code: 'APPROVAL_HASH_MISMATCH',
    check: 'approval',
    files: () => ({ ...signed, approval: json(approveModule(other.moduleHash, ops.privateKey)) }),
    message: () => `approval.json approves module \`${other.moduleHash}\` but this bundle is \`${moduleHash}\`: the approval is for another bundle`,
  },
  {
    name: "another build's approval relabelled with this module_hash",
    code: 'APPROVAL_SIGNATURE_INVALID',
    check: 'approval',
    files: () => ({ ...signed, approval: json({ ...approveModule(other.moduleHash, ops.privateKey), module_hash: moduleHash }) }),
    message: () =>
      `the approval by key \`${ops.keyId}\` does not verify over module hash \`${moduleHash}\`: the approval is forged or was edited`,
  },
];

describe('each broken bundle is refused with its own code', () => {
  it.each(REFUSALS.map((refusal) => [refusal.name, refusal] as const))('%s', (_, refusal) => {
    const result = verifyBundle(refusal.files(), refusal.trust?.() ?? trust);
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
  const forged = (file: Uint8Array) => json({ ...(JSON.parse(Buffer.from(file).toString('utf8')) as object), signature: Buffer.alloc(64).toString('base64') });

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
    const approval = json({ key_id: ci.keyId, module_hash: moduleHash, signature: manifestSignature.signature });
    expect(verifyBundle({ ...signed, approval }, both())).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('a manifest signature cannot pass as an approval even when the "manifest" is exactly a module hash', () => {
    const { signature } = signManifest(bytes(moduleHash), ci.privateKey);
    const approval = json({ key_id: ci.keyId, module_hash: moduleHash, signature });
    expect(verifyBundle({ ...signed, approval }, both())).toMatchObject({ ok: false, failure: { code: 'APPROVAL_SIGNATURE_INVALID' } });
  });

  it('signs exactly `adec.manifest.v1\\n` + manifest bytes and `adec.approval.v1\\n` + module hash', () => {
    const publicKey = createPublicKey(ci.privateKey);
    const signature = Buffer.from(signManifest(signed.manifest, ci.privateKey).signature, 'base64');
    expect(verify(null, Buffer.concat([Buffer.from('adec.manifest.v1\n'), signed.manifest]), publicKey, signature)).toBe(true);
    const approval = Buffer.from(approveModule(moduleHash, ci.privateKey).signature, 'base64');
    expect(verify(null, Buffer.from(`adec.approval.v1\n${moduleHash}`), publicKey, approval)).toBe(true);
  });

  it('an approval signature cannot pass as a manifest signature', () => {
    const { key_id, signature } = approveModule(moduleHash, ci.privateKey);
    const result = verifyBundle({ ...signed, signature: json({ key_id, signature }), approval: json(approveModule(moduleHash, ci.privateKey)) }, both());
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
