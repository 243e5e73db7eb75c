/**
 * Rollback and revocation (issue 12, finding 6): a bundle once signed and approved must not load
 * forever. Approvals expire and name the world version they approve; the trust file revokes
 * module hashes and keys and sets a minimum version per module; and a host refuses to replace a
 * module it loaded by one whose approval is older. Each refusal has its own code. The time of
 * verification is injected (`verifyBundle(…, { now })`), never waited for. Real builds, real
 * keys, real trust files, a real loader.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  approveModule,
  compareSemver,
  DirectoryModuleStore,
  formatSignatureFile,
  LoadedApprovals,
  loadTrustConfig,
  ModuleLoader,
  moduleHashOf,
  signManifest,
  trustConfig,
  verifyBundle,
  type Approval,
  type BundleFiles,
  type TrustConfig,
  type VerifiedBundle,
} from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, publish, testKeys, type TestBundle, type TestKeys } from '../support/runtime.js';
import { tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from '../../packages/runtime/test/trust/trust-fixtures.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_206 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 150 : Number(process.env['ADEC_PROPERTY_RUNS']);

const WORLD = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
const DAY = 86_400_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const json = (value: unknown) => bytes(formatSignatureFile(value as never));

let benefits: TestBundle;
let ci: KeyPairFiles;
let ops: KeyPairFiles;
let trust: TrustConfig;
let keysDir: string;

beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
  keysDir = tempDir();
  ci = writeKeyPair(keysDir, 'ci', 'jwk');
  ops = writeKeyPair(keysDir, 'ops', 'pem');
  trust = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey] });
});

/** examples/benefits with its world `version` set (re-signed, as CI would for another release). */
function release(version: string, approval: Partial<Approval> = {}): Required<BundleFiles> {
  const manifest = bytes(benefits.manifestJson.replace('"version": "1.4.0"', `"version": ${JSON.stringify(version)}`));
  const moduleHash = String(benefits.manifest['module_hash']);
  return {
    manifest,
    bundle: bytes(benefits.bundle),
    signature: json(signManifest(manifest, ci.privateKey)),
    approval: json(approveModule({ moduleHash, world: { ...WORLD, version }, issuedAt: T0, expiresAt: T0 + 90 * DAY, ...approval }, ops.privateKey)),
  };
}

describe('approvals expire', () => {
  it('an approval verifies exactly from issued_at, less the 5 minutes a clock may be off, while now < expires_at, to the second (property over issue times, lifetimes and nows)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3650 * DAY }),
        fc.integer({ min: 1000, max: 400 * DAY }),
        fc.oneof(fc.integer({ min: -2 * DAY, max: 800 * DAY }), fc.integer({ min: -6 * 60_000, max: -4 * 60_000 })),
        (issuedOffset, lifetime, nowOffset) => {
          const issuedAt = T0 + issuedOffset;
          const files = release('1.4.0', { issuedAt, expiresAt: issuedAt + lifetime });
          const expiresAt = Math.floor((issuedAt + lifetime) / 1000) * 1000;
          const now = issuedAt + nowOffset;
          const result = verifyBundle(files, trust, { now });
          if (Math.floor(issuedAt / 1000) * 1000 > now + 5 * 60_000) {
            expect(result).toMatchObject({ ok: false, failure: { code: 'APPROVAL_NOT_YET_VALID', check: 'approval' } });
          } else if (now < expiresAt) {
            expect(result).toMatchObject({ ok: true, bundle: { approvalExpiresAt: expiresAt } });
          } else {
            expect(result).toMatchObject({ ok: false, failure: { code: 'APPROVAL_EXPIRED', check: 'approval' } });
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a verification time that is not a number counts as expired, never as valid forever', () => {
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(verifyBundle(release('1.4.0'), trust, { now })).toMatchObject({ ok: false, failure: { code: 'APPROVAL_EXPIRED' } });
    }
  });

  it('an expiry edited into the future no longer verifies: the validity is signed', () => {
    const files = release('1.4.0', { issuedAt: T0, expiresAt: T0 + DAY });
    const approval = JSON.parse(Buffer.from(files.approval).toString('utf8')) as Record<string, unknown>;
    for (const field of ['expires_at', 'issued_at'] as const) {
      const edited = json({ ...approval, [field]: '2099-01-01T00:00:00Z' });
      expect(verifyBundle({ ...files, approval: edited }, trust, { now: T0 + 2 * DAY })).toMatchObject({
        ok: false,
        failure: { code: field === 'issued_at' ? 'APPROVAL_MALFORMED' : 'APPROVAL_SIGNATURE_INVALID' },
      });
    }
  });

  it('an approval of the first format (no format, no world, no expiry) is refused as outdated, however it is signed', () => {
    const files = release('1.4.0');
    const moduleHash = String(benefits.manifest['module_hash']);
    const { key_id, signature } = approveModule({ moduleHash, world: WORLD }, ops.privateKey);
    for (const approval of [{ key_id, module_hash: moduleHash, signature }, { key_id, module_hash: moduleHash, signature, expires_at: '2099-01-01T00:00:00Z' }]) {
      expect(verifyBundle({ ...files, approval: json(approval) }, trust, { now: T0 })).toMatchObject({ ok: false, failure: { code: 'APPROVAL_OUTDATED' } });
    }
  });
});

describe('an approval is for one world version', () => {
  const segment = fc.stringMatching(/^[a-z][a-z0-9.]{0,8}$/);
  const version = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`);

  it('an approval naming any other org, domain or version is refused; the same world verifies (property)', () => {
    fc.assert(
      fc.property(fc.record({ org: segment, domain: segment, version }), (approved) => {
        const same = approved.org === WORLD.org && approved.domain === WORLD.domain && approved.version === WORLD.version;
        const result = verifyBundle(release('1.4.0', { world: approved }), trust, { now: T0 });
        expect(result).toMatchObject(same ? { ok: true } : { ok: false, failure: { code: 'APPROVAL_WORLD_MISMATCH' } });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('the approval of release 1.4.0 does not carry over to 1.4.1 of the same bytes', () => {
    const older = release('1.4.0');
    const newer = release('1.4.1');
    expect(verifyBundle({ ...newer, approval: older.approval }, trust, { now: T0 })).toMatchObject({
      ok: false,
      failure: { code: 'APPROVAL_WORLD_MISMATCH', message: 'approval.json approves `acme/hr.benefits@1.4.0` but manifest.json says this bundle is `acme/hr.benefits@1.4.1`: the approval is for another version' },
    });
  });
});

describe('the trust file revokes and sets minimums', () => {
  const loadWith = async (fields: Readonly<Record<string, unknown>>) => {
    const path = writeTrustFile(join(keysDir, 'trust.json'), { signing_keys: [ci.publicFile], approval_keys: [ops.publicFile], ...fields });
    const loaded = await loadTrustConfig(path);
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.trust;
  };
  it('revoked_modules refuses exactly the listed module hashes (property over revocation lists)', async () => {
    const moduleHash = String(benefits.manifest['module_hash']);
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 8 }), { maxLength: 5 }), fc.boolean(), (others, includes) => {
        const revoked = [...others.map((other) => moduleHashOf(other)), ...(includes ? [moduleHash] : [])];
        const config = trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], revokedModules: revoked });
        const result = verifyBundle(release('1.4.0'), config, { now: T0 });
        expect(result).toMatchObject(includes ? { ok: false, failure: { code: 'MODULE_REVOKED', check: 'revocation' } } : { ok: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(verifyBundle(release('1.4.0'), await loadWith({ revoked_modules: [moduleHash] }), { now: T0 })).toMatchObject({
      ok: false,
      failure: { message: `module \`${moduleHash}\` (\`acme/hr.benefits@1.4.0\`) is revoked by the trust file` },
    });
  });

  it('revoked_keys refuses the signing key and the approval key, each with its own code, while they stay listed as trusted', async () => {
    const files = release('1.4.0');
    expect(verifyBundle(files, await loadWith({ revoked_keys: [ci.keyId] }), { now: T0 })).toMatchObject({ ok: false, failure: { code: 'SIGNING_KEY_REVOKED' } });
    expect(verifyBundle(files, await loadWith({ revoked_keys: [ops.keyId] }), { now: T0 })).toMatchObject({ ok: false, failure: { code: 'APPROVAL_KEY_REVOKED' } });
    expect(verifyBundle(files, await loadWith({ revoked_keys: [ops.keyId, ci.keyId] }), { now: T0 })).toMatchObject({ ok: false, failure: { code: 'SIGNING_KEY_REVOKED' } });
    const rogue = writeKeyPair(keysDir, 'unrelated');
    expect(verifyBundle(files, await loadWith({ revoked_keys: [rogue.keyId] }), { now: T0 }).ok).toBe(true);
  });

  it('minimum_versions refuses exactly the versions below the minimum, in semantic version order (property)', async () => {
    // semver.org §11's own example, in ascending order, and numeric (not textual) comparison.
    const ordered = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.2.0', '1.10.0', '2.0.0', '10.0.0'];
    const tuple = fc.tuple(fc.nat(12), fc.nat(12), fc.nat(12));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.tuple(tuple, tuple).map(([a, b]) => [a.join('.'), b.join('.'), Math.sign(a[0] - b[0] || a[1] - b[1] || a[2] - b[2])] as const),
          fc.tuple(fc.nat(ordered.length - 1), fc.nat(ordered.length - 1)).map(([a, b]) => [ordered[a]!, ordered[b]!, Math.sign(a - b)] as const)),
        async ([version, minimum, order]) => {
          expect(Math.sign(compareSemver(version, minimum))).toBe(order);
          const minimums = [{ org: 'acme', domain: 'hr.other', version: '99.0.0' }, { ...WORLD, version: minimum }];
          const result = verifyBundle(release(version), trustConfig({ signingKeys: [ci.privateKey], approvalKeys: [ops.privateKey], minimumVersions: minimums }), { now: T0 });
          expect(result).toMatchObject(order < 0 ? { ok: false, failure: { code: 'VERSION_BELOW_MINIMUM', check: 'revocation' } } : { ok: true });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    expect(verifyBundle(release('1.4.0'), await loadWith({ minimum_versions: [{ ...WORLD, version: '1.4.1' }] }), { now: T0 })).toMatchObject({
      ok: false,
      failure: { message: '`acme/hr.benefits@1.4.0` is below the minimum version `1.4.1` the trust file sets for `acme/hr.benefits`' },
    });
  });

  it.each([
    [{ revoked_modules: ['sha256:ABC'] }, 'has `revoked_modules[0]` `sha256:ABC`, expected "sha256:" and 64 lowercase hex digits'],
    [{ revoked_keys: ['ops'] }, 'has `revoked_keys[0]` `ops`, expected a key id (43 base64url characters)'],
    [{ revoked_keys: 'x' }, 'has `revoked_keys` that is not a list of key ids'],
    [{ minimum_versions: [{ org: 'acme', domain: 'hr', version: 'v1' }] }, 'has `minimum_versions[0]` version `v1`, expected a semantic version (MAJOR.MINOR.PATCH)'],
    [{ minimum_versions: [{ org: 'acme', version: '1.0.0' }] }, 'has `minimum_versions[0]` that is not an object of exactly `org`, `domain` and `version` strings'],
    [{ minimum_versions: [{ ...WORLD }, { ...WORLD, version: '2.0.0' }] }, 'has `minimum_versions[1]` for acme/hr.benefits a second time'],
  ])('a malformed revocation or minimum is refused at load: %j', async (fields, problem) => {
    const path = writeTrustFile(join(keysDir, 'bad.json'), { signing_keys: [ci.publicFile], approval_keys: [ops.publicFile], ...fields });
    expect(await loadTrustConfig(path)).toEqual({ ok: false, code: 'TRUST_FILE_INVALID', message: `trust file \`${path}\` ${problem}` });
  });
});

describe('a host never replaces a loaded module by one of older approval', () => {
  const verified = (moduleHash: string, approvedAt: number | undefined, version = '1.4.0'): VerifiedBundle =>
    ({ manifest: {}, moduleHash, world: { ...WORLD, version }, bundleSource: '', signedBy: '', ...(approvedAt !== undefined && { approvedBy: '', approvedAt }) });

  it('LoadedApprovals refuses exactly the other modules of an older approval than the newest admitted, per world version (model-based property)', () => {
    const admission = fc.record({ module: fc.constantFrom('a', 'b', 'c'), approvedAt: fc.option(fc.nat(20), { nil: undefined }), version: fc.constantFrom('1.0.0', '2.0.0') });
    fc.assert(
      fc.property(fc.array(admission, { maxLength: 30 }), (admissions) => {
        const approvals = new LoadedApprovals();
        const newest = new Map<string, { module: string; approvedAt: number }>();
        for (const { module, approvedAt, version } of admissions) {
          const moduleHash = moduleHashOf(bytes(module));
          const refused = approvals.admit(verified(moduleHash, approvedAt, version));
          const model = newest.get(version);
          const older = approvedAt !== undefined && model !== undefined && model.module !== module && approvedAt < model.approvedAt;
          expect(refused?.code).toBe(older ? 'APPROVAL_OLDER_THAN_LOADED' : undefined);
          if (approvedAt !== undefined && !older && (model === undefined || approvedAt >= model.approvedAt)) newest.set(version, { module, approvedAt });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  describe('through a real loader and directory store', () => {
    const ADD_DEPENDENT = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
    let keys: TestKeys;
    let rebuilt: TestBundle;
    const loaders: ModuleLoader[] = [];
    beforeAll(() => {
      keys = testKeys();
      // Another build of the same world version: different bytes, different module hash.
      rebuilt = injectIntoBundle(benefits, '/* rebuilt */');
    });
    afterEach(async () => {
      await Promise.all(loaders.splice(0).map((loader) => loader.close()));
    });

    /** Publishes `bundle` into `root`, approved at `approvedAt`. */
    const publishApproved = (bundle: TestBundle, root: string, approvedAt: number) => {
      const dir = publish(bundle, root, keys);
      const approval = approveModule({ moduleHash: String(bundle.manifest['module_hash']), world: WORLD, issuedAt: approvedAt }, keys.approver);
      writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approval));
      return dir;
    };
    const loaderOn = (root: string, trustConfigOverride?: TrustConfig) => {
      const loader = new ModuleLoader({ store: new DirectoryModuleStore(root), trust: trustConfigOverride ?? keys.trust, sandbox: { isolation: 'in-process' } });
      loaders.push(loader);
      return loader;
    };
    const now = Date.now();

    it('after an unload, a rebuild approved earlier than the loaded module is refused: APPROVAL_OLDER_THAN_LOADED', async () => {
      const root = mkdtempSync(join(tmpdir(), 'adec-rollback-'));
      publishApproved(benefits, root, now - DAY);
      const loader = loaderOn(root);
      expect((await loader.get(ADD_DEPENDENT)).ok).toBe(true);
      await loader.unload(ADD_DEPENDENT);
      publishApproved(rebuilt, root, now - 2 * DAY);
      const lookup = await loader.get(ADD_DEPENDENT);
      expect(lookup).toMatchObject({ ok: false, error: { code: 'APPROVAL_OLDER_THAN_LOADED', message: expect.stringMatching(/^module acme\/hr\.benefits@1\.4\.0 was refused: module `sha256:/) } });
    });

    it('a rebuild approved later replaces it; putting the old bundle back with its old approval is then refused', async () => {
      const root = mkdtempSync(join(tmpdir(), 'adec-rollback-'));
      const dir = publishApproved(benefits, root, now - 2 * DAY);
      const oldFiles = ['bundle.js', 'manifest.json', 'signature.json', 'approval.json'].map((name) => [name, readFileSync(join(dir, name))] as const);
      const loader = loaderOn(root);
      expect((await loader.get(ADD_DEPENDENT)).ok).toBe(true);
      await loader.unload(ADD_DEPENDENT);
      publishApproved(rebuilt, root, now - DAY);
      const replaced = await loader.get(ADD_DEPENDENT);
      expect(replaced.ok && replaced.module.moduleHash).toBe(rebuilt.manifest['module_hash']);
      await loader.unload(ADD_DEPENDENT);
      for (const [name, content] of oldFiles) writeFileSync(join(dir, name), content);
      expect(await loader.get(ADD_DEPENDENT)).toMatchObject({ ok: false, error: { code: 'APPROVAL_OLDER_THAN_LOADED' } });
    });

    it('re-approving the old bundle makes it the newest: a deliberate rollback loads', async () => {
      const root = mkdtempSync(join(tmpdir(), 'adec-rollback-'));
      publishApproved(rebuilt, root, now - DAY);
      const loader = loaderOn(root);
      expect((await loader.get(ADD_DEPENDENT)).ok).toBe(true);
      await loader.unload(ADD_DEPENDENT);
      publishApproved(benefits, root, now);
      const back = await loader.get(ADD_DEPENDENT);
      expect(back.ok && back.module.moduleHash).toBe(benefits.manifest['module_hash']);
    });

    it('the loader refuses a version below the trust file minimum, a revoked module, and an expired approval', async () => {
      const root = mkdtempSync(join(tmpdir(), 'adec-rollback-'));
      publishApproved(benefits, root, now - DAY);
      const base = { signingKeys: [keys.signer], approvalKeys: [keys.approver] };
      const cases: ReadonlyArray<readonly [TrustConfig, string]> = [
        [trustConfig({ ...base, minimumVersions: [{ ...WORLD, version: '1.5.0' }] }), 'VERSION_BELOW_MINIMUM'],
        [trustConfig({ ...base, revokedModules: [String(benefits.manifest['module_hash'])] }), 'MODULE_REVOKED'],
      ];
      for (const [config, code] of cases) expect(await loaderOn(root, config).get(ADD_DEPENDENT)).toMatchObject({ ok: false, error: { code } });
      const expired = approveModule({ moduleHash: String(benefits.manifest['module_hash']), world: WORLD, issuedAt: now - 10 * DAY, expiresAt: now - DAY }, keys.approver);
      writeFileSync(join(root, 'acme/hr.benefits/1.4.0/approval.json'), formatSignatureFile(expired));
      expect(await loaderOn(root).get(ADD_DEPENDENT)).toMatchObject({ ok: false, error: { code: 'APPROVAL_EXPIRED' } });
    });
  });
});
