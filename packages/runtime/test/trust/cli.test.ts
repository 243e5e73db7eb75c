/**
 * `adec keygen`, `adec sign`, `adec approve` and `adec verify`, run in process on a real build
 * of examples/benefits: the exit codes and exactly what a user reads.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPILER_VERSION } from '@adec/compiler';
import { moduleHashOf } from '@adec/runtime';
import { runCli } from '../../../cli/test/run-cli.js';
import { buildBenefits, buildOtherBundle, copyBundle, flipByte, readJson, tempDir, writeKeyPair, writeTrustFile, type KeyPairFiles } from './trust-fixtures.js';
import { jsonError } from '../../../../test/support/json-error.js';

let pristine: string;
let otherBundle: string;
let moduleHash: string;

beforeAll(async () => {
  pristine = await buildBenefits();
  otherBundle = await buildOtherBundle();
  moduleHash = readJson(join(pristine, 'manifest.json'))['module_hash'] as string;
});

const LABEL = 'acme/hr.benefits@1.4.0 (world benefits)';

/** A workspace holding `build/` (examples/benefits), keys ci (JWK), ops (PEM), rogue, and trust.json. */
interface Workspace {
  readonly cwd: string;
  readonly ci: KeyPairFiles;
  readonly ops: KeyPairFiles;
  readonly rogue: KeyPairFiles;
}

function workspace(trust: Readonly<Record<string, unknown>> = {}): Workspace {
  const cwd = tempDir('adec-trust-cli-');
  copyBundle(pristine, cwd, 'build');
  mkdirSync(join(cwd, 'keys'));
  const ws = {
    cwd,
    ci: writeKeyPair(join(cwd, 'keys'), 'ci', 'jwk'),
    ops: writeKeyPair(join(cwd, 'keys'), 'ops', 'pem'),
    rogue: writeKeyPair(join(cwd, 'keys'), 'rogue', 'jwk'),
  };
  writeTrustFile(join(cwd, 'trust.json'), { signing_keys: ['keys/ci.pub.jwk'], approval_keys: ['keys/ops.pub.pem'], ...trust });
  return ws;
}

/** A workspace whose build/ is signed by ci and approved by ops through the CLI. */
async function signedWorkspace(trust: Readonly<Record<string, unknown>> = {}): Promise<Workspace> {
  const ws = workspace(trust);
  expect((await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd)).code).toBe(0);
  expect((await runCli(['approve', 'build', '--key', 'keys/ops.key.pem'], ws.cwd)).code).toBe(0);
  return ws;
}

const verify = (cwd: string, ...extra: string[]) => runCli(['verify', 'build', '--trust', 'trust.json', ...extra], cwd);

/** What `adec verify` prints for a refused bundle. */
const refused = (code: string, message: string) => ({ code: 1, stdout: '', stderr: `adec verify: ${code}: ${message}\n` });

describe('adec keygen', () => {
  it('writes a JWK key pair with the private key at mode 0600 and prints the key id and both paths', async () => {
    const cwd = tempDir();
    const run = await runCli(['keygen', '--out', 'keys', '--name', 'ci'], cwd);
    const privateJwk = readJson(join(cwd, 'keys/ci.key.jwk'));
    const publicJwk = readJson(join(cwd, 'keys/ci.pub.jwk'));
    const kid = privateJwk['kid'] as string;
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `generated Ed25519 key ${kid}\n  private  keys/ci.key.jwk (mode 0600: keep it secret)\n  public   keys/ci.pub.jwk\n`,
    });
    expect(statSync(join(cwd, 'keys/ci.key.jwk')).mode & 0o777).toBe(0o600);
    expect(privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', d: expect.any(String) });
    expect(publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: privateJwk['x'], kid, alg: 'EdDSA', use: 'sig' });
  });

  it('writes PEM files with --format pem, named adec by default', async () => {
    const cwd = tempDir();
    const run = await runCli(['keygen', '--out', '.', '--format', 'pem'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^generated Ed25519 key [A-Za-z0-9_-]{43}\n {2}private {2}adec\.key\.pem \(mode 0600: keep it secret\)\n {2}public {3}adec\.pub\.pem\n$/);
    expect(readFileSync(join(cwd, 'adec.key.pem'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(join(cwd, 'adec.pub.pem'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(statSync(join(cwd, 'adec.key.pem')).mode & 0o777).toBe(0o600);
  });

  it('refuses to overwrite an existing key file, and leaves it untouched', async () => {
    const cwd = tempDir();
    await runCli(['keygen', '--out', 'keys'], cwd);
    const before = readFileSync(join(cwd, 'keys/adec.key.jwk'), 'utf8');
    expect(await runCli(['keygen', '--out', 'keys'], cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec keygen: `keys/adec.key.jwk` already exists: refusing to overwrite it\n',
    });
    expect(readFileSync(join(cwd, 'keys/adec.key.jwk'), 'utf8')).toBe(before);

    rmSync(join(cwd, 'keys/adec.key.jwk'));
    const run = await runCli(['keygen', '--out', 'keys'], cwd);
    expect(run).toMatchObject({ code: 1, stderr: 'adec keygen: `keys/adec.pub.jwk` already exists: refusing to overwrite it\n' });
    expect(existsSync(join(cwd, 'keys/adec.key.jwk'))).toBe(false);
  });

  it.each([
    [['keygen'], 'adec keygen: missing --out'],
    [['keygen', '--out', 'k', '--format', 'der'], 'adec keygen: invalid --format `der`: expected jwk or pem'],
    [['keygen', '--out', 'k', '--name', '../ci'], 'adec keygen: invalid --name `../ci`: expected a file name, not a path'],
    [['keygen', 'keys'], 'adec keygen: unexpected argument `keys`'],
  ])('%j is a usage error (exit 2)', async (argv, first) => {
    const run = await runCli(argv, tempDir());
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(first);
    expect(run.stderr).toContain('usage: adec keygen --out <dir>');
  });
});

describe('adec sign and adec approve', () => {
  it('write signature.json and approval.json and say what they signed', async () => {
    const ws = workspace();
    const sign = await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd);
    expect(sign).toEqual({ code: 0, stderr: '', stdout: `signed ${LABEL} ${moduleHash} with key ${ws.ci.keyId} → build/signature.json\n` });
    const approve = await runCli(['approve', 'build', '--key', 'keys/ops.key.pem'], ws.cwd);
    const approval = readJson(join(ws.cwd, 'build/approval.json'));
    expect(approve).toEqual({ code: 0, stderr: '', stdout: `approved ${LABEL} ${moduleHash}, rebuilt identically by adec 0.1.0, with key ${ws.ops.keyId} until ${String(approval['expires_at'])} → build/approval.json\n` });
    expect(Object.keys(readJson(join(ws.cwd, 'build/signature.json')))).toEqual(['key_id', 'signature']);
    expect(approval).toEqual({
      format: 'adec.approval.v3',
      key_id: ws.ops.keyId,
      module_hash: moduleHash,
      world: { org: 'acme', domain: 'hr.benefits', version: '1.4.0' },
      issued_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      expires_at: expect.any(String),
      rebuilt_by: { name: 'adec', version: COMPILER_VERSION },
      signature: expect.any(String),
    });
    // The default validity is 90 days.
    expect(Date.parse(String(approval['expires_at'])) - Date.parse(String(approval['issued_at']))).toBe(90 * 86_400_000);
  });

  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['90m', 90 * 60_000],
  ])('approve --expires %s sets the approval to expire that long after it is issued', async (expires, ms) => {
    const ws = workspace();
    expect((await runCli(['approve', 'build', '--key', 'keys/ops.key.pem', '--expires', expires], ws.cwd)).code).toBe(0);
    const approval = readJson(join(ws.cwd, 'build/approval.json'));
    expect(Date.parse(String(approval['expires_at'])) - Date.parse(String(approval['issued_at']))).toBe(ms);
  });

  it('approve --expires takes a time, and refuses one in the past or that is not a time (exit 2)', async () => {
    const ws = workspace();
    expect((await runCli(['approve', 'build', '--key', 'keys/ops.key.pem', '--expires', '2999-12-31T23:00:00+01:00'], ws.cwd)).code).toBe(0);
    expect(readJson(join(ws.cwd, 'build/approval.json'))['expires_at']).toBe('2999-12-31T22:00:00Z');
    for (const expires of ['2001-01-01', 'tomorrow', '0d', '1y']) {
      const run = await runCli(['approve', 'build', '--key', 'keys/ops.key.pem', '--expires', expires], ws.cwd);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(`adec approve: invalid --expires \`${expires}\`: expected a duration (90d, 12h, 30m) or a time in the future`);
    }
  });

  it.each(['sign', 'approve'])('%s refuses a bundle whose bundle.js does not match its manifest, and writes nothing', async (verb) => {
    const ws = workspace();
    flipByte(join(ws.cwd, 'build/bundle.js'), 100);
    const actual = moduleHashOf(readFileSync(join(ws.cwd, 'build/bundle.js')));
    const run = await runCli([verb, 'build', '--key', 'keys/ci.key.jwk'], ws.cwd);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `adec ${verb}: refusing to ${verb} \`build\`: MODULE_HASH_MISMATCH: bundle.js hashes to \`${actual}\` but manifest.json declares \`${moduleHash}\`: bundle.js was changed after the build\n`,
    });
    expect(existsSync(join(ws.cwd, 'build/signature.json'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'build/approval.json'))).toBe(false);
  });

  it('approve refuses a bundle with code injected after the build, because its sources rebuild to another bundle.js; writes nothing', async () => {
    const ws = workspace();
    const bundle = `${readFileSync(join(ws.cwd, 'build/bundle.js'), 'utf8')}\n;((m) => { m._RULE_FUNCTIONS = {}; })(__adec_module);\n`;
    writeFileSync(join(ws.cwd, 'build/bundle.js'), bundle);
    const manifest = readJson(join(ws.cwd, 'build/manifest.json'));
    writeFileSync(join(ws.cwd, 'build/manifest.json'), `${JSON.stringify({ ...manifest, module_hash: moduleHashOf(Buffer.from(bundle)) }, null, 2)}\n`);
    expect((await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd)).code).toBe(0);
    const run = await runCli(['approve', 'build', '--key', 'keys/ops.key.pem'], ws.cwd);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^adec approve: refusing to approve `build`: REBUILD_DIFFERS: bundle\.js is not what its sources build: they differ from line \d+, column 1 \(the bundle has "\\n;\(\(m\) => \{ m\._RULE_FUNC", the rebuild ""; \d+ and \d+ characters\)\n$/);
    expect(existsSync(join(ws.cwd, 'build/approval.json'))).toBe(false);
  });

  it('approve refuses a bundle that carries no sources, unless told to approve it without a rebuild; verify says which', async () => {
    const ws = workspace();
    rmSync(join(ws.cwd, 'build/sources.json'));
    expect((await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd)).code).toBe(0);
    expect(await runCli(['approve', 'build', '--key', 'keys/ops.key.pem'], ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec approve: refusing to approve `build`: SOURCES_MISSING: `build/sources.json` is missing: the bundle carries no sources to rebuild it from (build it with this adec)\n',
    });
    const run = await runCli(['approve', 'build', '--key', 'keys/ops.key.pem', '--without-rebuild', '--format', 'json'], ws.cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, module_hash: moduleHash, rebuilt_by: null });
    expect(readJson(join(ws.cwd, 'build/approval.json'))['rebuilt_by']).toBeNull();
    expect(await verify(ws.cwd)).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`approved by ${ws.ops.keyId} until `)) });
    expect(JSON.parse((await verify(ws.cwd, '--format', 'json')).stdout)).toMatchObject({ ok: true, approved_by: ws.ops.keyId, rebuilt_by: null });
  });

  it('verify says that the approver rebuilt the bundle identically, and with which compiler', async () => {
    const ws = await signedWorkspace();
    expect(await verify(ws.cwd)).toMatchObject({ code: 0, stdout: expect.stringContaining(`approved by ${ws.ops.keyId} (rebuilt identically by adec ${COMPILER_VERSION}) until `) });
    expect(JSON.parse((await verify(ws.cwd, '--format', 'json')).stdout)).toMatchObject({ rebuilt_by: { name: 'adec', version: COMPILER_VERSION } });
  });

  it('sign refuses a bundle without bundle.js', async () => {
    const ws = workspace();
    rmSync(join(ws.cwd, 'build/bundle.js'));
    expect(await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec sign: refusing to sign `build`: BUNDLE_FILE_MISSING: `build/bundle.js` does not exist\n',
    });
  });

  it('sign refuses a key that is not Ed25519, naming its type', async () => {
    const ws = workspace();
    writeFileSync(join(ws.cwd, 'keys/rsa.key.pem'), generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(await runCli(['sign', 'build', '--key', 'keys/rsa.key.pem'], ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec sign: KEY_INVALID: key file `keys/rsa.key.pem` holds a key of type RSA: only Ed25519 keys are accepted\n',
    });
    expect(existsSync(join(ws.cwd, 'build/signature.json'))).toBe(false);
  });

  it('approve refuses a public key', async () => {
    const ws = workspace();
    expect(await runCli(['approve', 'build', '--key', 'keys/ops.pub.pem'], ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec approve: KEY_INVALID: key file `keys/ops.pub.pem` holds a public key: signing needs the private key (`*.key.jwk` or `*.key.pem`)\n',
    });
  });

  it.each([
    [['sign', 'build'], 'adec sign: missing --key'],
    [['sign', '--key', 'k'], 'adec sign: missing <bundle>'],
    [['approve', 'build'], 'adec approve: missing --key'],
  ])('%j is a usage error (exit 2)', async (argv, first) => {
    const run = await runCli(argv, tempDir());
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(first);
  });
});

describe('adec verify', () => {
  it('verifies a bundle signed with a JWK key and approved with a PEM key', async () => {
    const ws = await signedWorkspace();
    expect(await verify(ws.cwd)).toEqual({
      code: 0,
      stderr: '',
      stdout: `verified ${LABEL} ${moduleHash} signed by ${ws.ci.keyId}, approved by ${ws.ops.keyId} (rebuilt identically by adec ${COMPILER_VERSION}) until ${String(readJson(join(ws.cwd, 'build/approval.json'))['expires_at'])}\n`,
    });
  });

  it('verifies a bundle signed with a PEM key and approved with a JWK key made by adec keygen', async () => {
    const ws = workspace();
    await runCli(['keygen', '--out', 'keys', '--name', 'ci2', '--format', 'pem'], ws.cwd);
    await runCli(['keygen', '--out', 'keys', '--name', 'ops2'], ws.cwd);
    writeTrustFile(join(ws.cwd, 'trust.json'), { signing_keys: ['keys/ci2.pub.pem'], approval_keys: ['keys/ops2.pub.jwk'] });
    expect((await runCli(['sign', 'build', '--key', 'keys/ci2.key.pem'], ws.cwd)).code).toBe(0);
    expect((await runCli(['approve', 'build', '--key', 'keys/ops2.key.jwk'], ws.cwd)).code).toBe(0);
    const kid = readJson(join(ws.cwd, 'keys/ops2.pub.jwk'))['kid'] as string;
    const run = await verify(ws.cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^verified ${LABEL.replace(/[().]/g, '\\$&')} ${moduleHash} signed by [A-Za-z0-9_-]{43}, approved by ${kid} \\(rebuilt identically by adec ${COMPILER_VERSION}\\) until \\S+Z\n$`));
  });

  it('prints one JSON object with --format json', async () => {
    const ws = await signedWorkspace();
    const run = await verify(ws.cwd, '--format', 'json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      module_hash: moduleHash,
      signed_by: ws.ci.keyId,
      approved_by: ws.ops.keyId,
      approval_expires_at: readJson(join(ws.cwd, 'build/approval.json'))['expires_at'],
      rebuilt_by: { name: 'adec', version: COMPILER_VERSION },
    });

    flipByte(join(ws.cwd, 'build/bundle.js'), 100);
    const failed = await verify(ws.cwd, '--format', 'json');
    expect(failed).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(failed.stdout)).toEqual({
      ok: false,
      failure: { code: 'MODULE_HASH_MISMATCH', check: 'module_hash', message: expect.stringMatching(/^bundle\.js hashes to `sha256:/) },
    });
  });

  it('accepts an unapproved signed bundle when require_approval is false', async () => {
    const ws = workspace({ approval_keys: [], require_approval: false });
    await runCli(['sign', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd);
    expect(await verify(ws.cwd)).toEqual({
      code: 0,
      stderr: '',
      stdout: `verified ${LABEL} ${moduleHash} signed by ${ws.ci.keyId}, not approved (approval not required)\n`,
    });
  });

  it('refuses a flipped byte in bundle.js: MODULE_HASH_MISMATCH', async () => {
    const ws = await signedWorkspace();
    flipByte(join(ws.cwd, 'build/bundle.js'), -10);
    const actual = moduleHashOf(readFileSync(join(ws.cwd, 'build/bundle.js')));
    expect(await verify(ws.cwd)).toEqual(
      refused('MODULE_HASH_MISMATCH', `bundle.js hashes to \`${actual}\` but manifest.json declares \`${moduleHash}\`: bundle.js was changed after the build`),
    );
  });

  it('refuses an edited manifest: SIGNATURE_INVALID', async () => {
    const ws = await signedWorkspace();
    const path = join(ws.cwd, 'build/manifest.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"version": "1.4.0"', '"version": "9.9.9"'));
    expect(await verify(ws.cwd)).toEqual(
      refused(
        'SIGNATURE_INVALID',
        `the signature by key \`${ws.ci.keyId}\` does not verify over manifest.json: the manifest was changed after it was signed, or the signature is forged`,
      ),
    );
  });

  it('refuses a signature by an untrusted key: SIGNER_UNTRUSTED', async () => {
    const ws = await signedWorkspace();
    await runCli(['sign', 'build', '--key', 'keys/rogue.key.jwk'], ws.cwd);
    expect(await verify(ws.cwd)).toEqual(
      refused('SIGNER_UNTRUSTED', `signature.json is by key \`${ws.rogue.keyId}\`, which is not a trusted signing key (trusted signing keys: \`${ws.ci.keyId}\`)`),
    );
  });

  it('refuses a bundle without approval.json: APPROVAL_MISSING', async () => {
    const ws = await signedWorkspace();
    rmSync(join(ws.cwd, 'build/approval.json'));
    expect(await verify(ws.cwd)).toEqual(refused('APPROVAL_MISSING', 'approval is required but the bundle has no approval.json'));
  });

  it('refuses approval.json copied from a different build: APPROVAL_HASH_MISMATCH', async () => {
    const ws = await signedWorkspace();
    const other = copyBundle(otherBundle, ws.cwd, 'other');
    await runCli(['approve', 'other', '--key', 'keys/ops.key.pem'], ws.cwd);
    writeFileSync(join(ws.cwd, 'build/approval.json'), readFileSync(join(other, 'approval.json')));
    const otherHash = readJson(join(other, 'manifest.json'))['module_hash'] as string;
    expect(await verify(ws.cwd)).toEqual(
      refused('APPROVAL_HASH_MISMATCH', `approval.json approves module \`${otherHash}\` but this bundle is \`${moduleHash}\`: the approval is for another bundle`),
    );
  });

  it('refuses an approval by a key trusted only as a signer: APPROVER_UNTRUSTED', async () => {
    const ws = await signedWorkspace();
    await runCli(['approve', 'build', '--key', 'keys/ci.key.jwk'], ws.cwd);
    expect(await verify(ws.cwd)).toEqual(
      refused(
        'APPROVER_UNTRUSTED',
        `approval.json is by key \`${ws.ci.keyId}\`, which is not a trusted approval key: it is trusted only as a signing key (trusted approval keys: \`${ws.ops.keyId}\`)`,
      ),
    );
  });

  it('refuses an unsigned bundle: SIGNATURE_MISSING', async () => {
    const ws = await signedWorkspace();
    rmSync(join(ws.cwd, 'build/signature.json'));
    expect(await verify(ws.cwd)).toEqual(refused('SIGNATURE_MISSING', 'the bundle is not signed: it has no signature.json'));
  });

  it('refuses malformed signature.json and approval.json', async () => {
    const ws = await signedWorkspace();
    const approval = readFileSync(join(ws.cwd, 'build/approval.json'));
    writeFileSync(join(ws.cwd, 'build/approval.json'), '{"format": "adec.approval.v2", "key_id": 1}');
    expect(await verify(ws.cwd)).toEqual(refused('APPROVAL_MALFORMED', 'approval.json has no `key_id` string'));
    writeFileSync(join(ws.cwd, 'build/approval.json'), approval);
    writeFileSync(join(ws.cwd, 'build/signature.json'), '');
    expect(await verify(ws.cwd)).toEqual(refused('SIGNATURE_MALFORMED', `signature.json is not valid JSON: ${jsonError('')}`));
  });

  it('ignores an `alg` in signature.json and approval.json', async () => {
    const ws = await signedWorkspace();
    for (const [file, alg] of [
      ['signature.json', 'none'],
      ['approval.json', 'HS256'],
    ] as const) {
      const path = join(ws.cwd, 'build', file);
      writeFileSync(path, JSON.stringify({ alg, ...readJson(path) }));
    }
    expect((await verify(ws.cwd)).code).toBe(0);
    const path = join(ws.cwd, 'build/signature.json');
    // A well-formed signature, over something else (the approval).
    writeFileSync(path, JSON.stringify({ ...readJson(path), signature: readJson(join(ws.cwd, 'build/approval.json'))['signature'] }));
    expect((await verify(ws.cwd)).stderr).toMatch(/^adec verify: SIGNATURE_INVALID: /);
  });

  it('refuses a trust file listing a key that is not Ed25519 (exit 1, naming the file and entry)', async () => {
    const ws = await signedWorkspace();
    writeFileSync(join(ws.cwd, 'keys/ec.pub.pem'), generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'pem', type: 'spki' }));
    writeTrustFile(join(ws.cwd, 'trust.json'), { signing_keys: ['keys/ci.pub.jwk'], approval_keys: ['keys/ec.pub.pem'] });
    expect(await verify(ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec verify: KEY_INVALID: trust file `trust.json` entry `approval_keys[0]`: key file `keys/ec.pub.pem` holds a key of type EC P-256: only Ed25519 keys are accepted\n',
    });
  });

  it('reports an unreadable trust file (exit 1)', async () => {
    const ws = await signedWorkspace();
    expect(await runCli(['verify', 'build', '--trust', 'missing.json'], ws.cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec verify: FILE_MISSING: trust file `missing.json` does not exist\n',
    });
  });

  it('reports a missing bundle directory as a refusal', async () => {
    const ws = workspace();
    expect(await runCli(['verify', 'nowhere', '--trust', 'trust.json'], ws.cwd)).toEqual(
      refused('BUNDLE_FILE_MISSING', 'bundle directory `nowhere` does not exist'),
    );
  });

  it.each([
    [['verify', 'build'], 'adec verify: missing --trust'],
    [['verify', '--trust', 'trust.json'], 'adec verify: missing <bundle>'],
    [['verify', 'build', 'extra', '--trust', 'trust.json'], 'adec verify: unexpected argument `extra`'],
    [['verify', 'build', '--trust', 'trust.json', '--format', 'yaml'], 'adec verify: invalid --format `yaml`: expected text or json'],
    [['verify', 'build', '--trust'], "adec verify: Option '--trust <value>' argument missing"],
  ])('%j is a usage error (exit 2)', async (argv, first) => {
    const run = await runCli(argv, workspace().cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(first);
    expect(run.stderr).toContain('usage: adec verify <bundle> --trust <trust.json>');
  });
});
