/**
 * `adec deploy` puts a bundle where `adec serve` reads it: the README's "Deploying a bundle"
 * runs as written in an empty directory (init, build, keys, sign, approve, deploy, serve, one
 * decision), with no directory made by hand; a running service picks up what is deployed under
 * its reload rules; and a bundle the loader would refuse (untrusted, tampered, unapproved, an
 * older approval replacing a newer one) is refused with the loader's code, nothing written. Every
 * signature is real: keys from `adec keygen`, bundles signed and approved by the CLI.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTrustConfig } from '@adec/runtime';
import { runCli } from './run-cli.js';
import { fencedBlocks } from '../../../test/docs/markdown-blocks.js';
import { addDependent, BY_STATUS, startService } from '../../server/test/service-fixture.js';
import { repoPath } from '../../../test/support/repo.js';
import { injectIntoBundle } from '../../../test/support/runtime.js';

const WORLD_DIR = 'modules/acme/hr.benefits/1.4.0';
const BUNDLE_FILES = ['approval.json', 'bundle.js', 'manifest.json', 'signature.json'];

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

const cli = (cwd: string, ...argv: string[]) => runCli(argv, cwd);

/** The README's sh blocks under "## Deploying a bundle", in order. */
function deploymentSection(): string[] {
  const markdown = readFileSync(repoPath('README.md'), 'utf8');
  const start = markdown.indexOf('\n## Deploying a bundle\n');
  expect(start, 'README.md has a "Deploying a bundle" section').toBeGreaterThan(0);
  const end = markdown.indexOf('\n## ', start + 1);
  return fencedBlocks(markdown.slice(start, end), 'README.md')
    .filter((block) => block.language === 'sh')
    .map((block) => block.text);
}

describe('the README\'s deployment section', () => {
  it('runs as written in an empty directory: deploy, then serve, then one decision', async () => {
    const [prepare, serve, decide] = deploymentSection();
    expect(prepare).toMatch(/^adec deploy /m);
    expect(prepare).not.toMatch(/\bmkdir\b|\bcp\b/);
    const dir = tempDir('adec-readme-deploy-');
    const bin = tempDir('adec-readme-bin-');
    writeFileSync(join(bin, 'adec'), `#!/bin/sh\nexec "${process.execPath}" "${repoPath('packages/cli/bin/adec.js')}" "$@"\n`);
    chmodSync(join(bin, 'adec'), 0o755);
    const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` };

    const prepared = spawnSync('bash', ['-e', '-c', prepare!], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    expect(prepared.status, `${prepared.stdout}${prepared.stderr}`).toBe(0);
    expect(prepared.stdout).toMatch(/^deployed example\/support\.refunds@0\.1\.0 \(world support\.refunds\) sha256:[0-9a-f]{64} → modules\/example\/support\.refunds\/0\.1\.0$/m);
    expect(readdirSync(join(dir, 'modules/example/support.refunds/0.1.0')).sort()).toEqual(BUNDLE_FILES);

    // The serve command as shown, the node process itself (not the launcher), on any free port.
    const argv = serve!.trim().split(/\s+/);
    expect(argv.slice(0, 2)).toEqual(['adec', 'serve']);
    const child = spawn(process.execPath, ['--no-node-snapshot', repoPath('packages/cli/bin/adec.js'), ...argv.slice(1)], { cwd: dir, env: { ...process.env, ADEC_PORT: '0', ADEC_AUDIT: join(dir, 'audit.db') }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await readyUrl(child);
      const decided = spawnSync('bash', ['-e', '-c', decide!.replaceAll('http://127.0.0.1:8080', url)], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      expect(decided.status, decided.stderr).toBe(0);
      expect(JSON.parse(decided.stdout)).toMatchObject({ status: 'GREEN', decision_metadata: { aggregation_outcome: { winning_rule: 'small_refund' }, module: { org: 'example', domain: 'support.refunds', version: '0.1.0' } } });
    } finally {
      child.kill('SIGTERM');
      await new Promise((stopped) => (child.exitCode === null ? child.once('exit', stopped) : stopped(undefined)));
    }
  }, 180_000);
});

/** The URL of `adec serve`'s ready log line. */
function readyUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((found, failed) => {
    let buffered = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'adec serve is ready') found(String(entry.url));
      }
    });
    child.once('exit', (code) => failed(new Error(`adec serve exited (${code}) before it was ready: ${stderr}`)));
  });
}

describe('adec deploy', () => {
  /** A workspace: the benefits world built, keys, a trust file, and the bundle signed and approved in `build/`. */
  let workspace: string;
  beforeAll(async () => {
    workspace = tempDir('adec-deploy-');
    expect((await cli(workspace, 'build', repoPath('examples/benefits'), '--out', 'build')).code).toBe(0);
    for (const name of ['ci', 'operator', 'other']) expect((await cli(workspace, 'keygen', '--out', 'keys', '--name', name)).code).toBe(0);
    writeFileSync(join(workspace, 'trust.json'), JSON.stringify({ signing_keys: ['keys/ci.pub.jwk'], approval_keys: ['keys/operator.pub.jwk'] }));
    writeFileSync(join(workspace, 'other-trust.json'), JSON.stringify({ signing_keys: ['keys/other.pub.jwk'], approval_keys: ['keys/operator.pub.jwk'] }));
    expect((await cli(workspace, 'sign', 'build', '--key', 'keys/ci.key.jwk')).code).toBe(0);
    expect((await cli(workspace, 'approve', 'build', '--key', 'keys/operator.key.jwk')).code).toBe(0);
  }, 120_000);

  /** A copy of the signed, approved bundle in a directory of its own. */
  function copyOfBundle(name: string): string {
    cpSync(join(workspace, 'build'), join(workspace, name), { recursive: true });
    return name;
  }

  it('creates <modules>/<org>/<domain>/<version>/ with the bundle\'s files, which verify there', async () => {
    const run = await cli(workspace, 'deploy', 'build', '--modules', 'fresh/modules', '--trust', 'trust.json', '--format', 'json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, directory: `fresh/${WORLD_DIR}`, world: { org: 'acme', domain: 'hr.benefits', version: '1.4.0' }, verified: true, replaced: null });
    expect(readdirSync(join(workspace, 'fresh', WORLD_DIR)).sort()).toEqual(BUNDLE_FILES);
    for (const file of BUNDLE_FILES) expect(readFileSync(join(workspace, 'fresh', WORLD_DIR, file))).toEqual(readFileSync(join(workspace, 'build', file)));
    expect((await cli(workspace, 'verify', `fresh/${WORLD_DIR}`, '--trust', 'trust.json')).code).toBe(0);
    // Deploying the same bundle again changes nothing and succeeds.
    expect((await cli(workspace, 'deploy', 'build', '--modules', 'fresh/modules', '--trust', 'trust.json')).code).toBe(0);
  });

  it.each([
    ['signed by a key the trust file does not list', async () => ['build', 'other-trust.json'], 'SIGNER_UNTRUSTED'],
    ['whose bundle.js changed after signing', async () => {
      const dir = copyOfBundle('tampered');
      appendFileSync(join(workspace, dir, 'bundle.js'), '\n;globalThis.x = 1;\n');
      return [dir, 'trust.json'];
    }, 'MODULE_HASH_MISMATCH'],
    ['without an approval', async () => {
      const dir = copyOfBundle('unapproved');
      rmSync(join(workspace, dir, 'approval.json'));
      return [dir, 'trust.json'];
    }, 'APPROVAL_MISSING'],
  ])('refuses a bundle %s with the loader\'s code, writing nothing', async (_, prepare, code) => {
    const [bundle, trust] = await prepare();
    const run = await cli(workspace, 'deploy', bundle!, '--modules', 'refused/modules', '--trust', trust!);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(new RegExp(`^adec deploy: refusing to deploy \`${bundle}\`: ${code}: `));
    expect(existsSync(join(workspace, 'refused'))).toBe(false);
  });

  it('never writes through a symbolic link on the way to the bundle directory', async () => {
    const elsewhere = tempDir('adec-deploy-elsewhere-');
    mkdirSync(join(workspace, 'linked/modules'), { recursive: true });
    symlinkSync(elsewhere, join(workspace, 'linked/modules/acme'));
    const run = await cli(workspace, 'deploy', 'build', '--modules', 'linked/modules', '--trust', 'trust.json');
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining('`linked/modules/acme` is a symbolic link') });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('without --trust, checks the module and its signature file and says that nothing was verified', async () => {
    const run = await cli(workspace, 'deploy', 'build', '--modules', 'untrusted/modules');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: the signature and approval were not verified against a trust configuration');
    const unsigned = copyOfBundle('unsigned');
    rmSync(join(workspace, unsigned, 'signature.json'));
    expect(await cli(workspace, 'deploy', unsigned, '--modules', 'untrusted/modules')).toMatchObject({ code: 1, stderr: expect.stringContaining('SIGNATURE_MISSING') });
  });

  it('is a usage error without --modules or a bundle', async () => {
    expect((await cli(workspace, 'deploy', 'build')).code).toBe(2);
    expect((await cli(workspace, 'deploy', '--modules', 'm')).code).toBe(2);
  });

  it('feeds a running service: a new bundle is served after the next scan, a newer approval replaces it, an older one is refused until approved again', async () => {
    const trust = await loadTrustConfig(join(workspace, 'trust.json'));
    if (!trust.ok) throw new Error(trust.message);
    const modules = join(workspace, 'live/modules');
    const service = await startService({ modules, trust: trust.trust });
    const servedHash = async () => {
      await service.host.scanModules();
      const answer = await service.post('/v1/decide', addDependent(BY_STATUS.GREEN));
      return answer.status === 200 ? ((await answer.json()) as { decision_metadata: { module: { module_hash: string } } }).decision_metadata.module.module_hash : answer.status;
    };
    const servedOnceLoaded = async () => {
      for (let waited = 0; waited < 5_000; waited += 50) {
        const served = await servedHash();
        if (served !== 404) return served;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return servedHash();
    };
    const hashOf = (dir: string) => (JSON.parse(readFileSync(join(workspace, dir, 'manifest.json'), 'utf8')) as { module_hash: string }).module_hash;
    try {
      expect(await servedHash()).toBe(404);

      // The original bundle, approved an hour ago.
      const original = copyOfBundle('original');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3_600_000 });
      try {
        expect((await cli(workspace, 'approve', original, '--key', 'keys/operator.key.jwk')).code).toBe(0);
      } finally {
        vi.useRealTimers();
      }
      expect((await cli(workspace, 'deploy', original, '--modules', 'live/modules', '--trust', 'trust.json')).code).toBe(0);
      // The 404 above was a refused load (and the service's own scan may have met the bundle
      // half-written), which the loader tries again only after its backoff (100 ms, doubling:
      // SECURITY.md "Loader and host faults"); asking within it answers the refusal again.
      expect(await servedOnceLoaded()).toBe(hashOf(original));

      // A changed bundle of the same world version, approved now, replaces it.
      const updated = 'updated';
      const built = injectIntoBundle({ bundle: readFileSync(join(workspace, original, 'bundle.js'), 'utf8'), manifest: JSON.parse(readFileSync(join(workspace, original, 'manifest.json'), 'utf8')) as Record<string, unknown>, manifestJson: '' }, 'm.__revision = 2;');
      mkdirSync(join(workspace, updated));
      writeFileSync(join(workspace, updated, 'bundle.js'), built.bundle);
      writeFileSync(join(workspace, updated, 'manifest.json'), built.manifestJson);
      expect((await cli(workspace, 'sign', updated, '--key', 'keys/ci.key.jwk')).code).toBe(0);
      expect((await cli(workspace, 'approve', updated, '--key', 'keys/operator.key.jwk', '--without-rebuild')).code).toBe(0);
      const replaced = await cli(workspace, 'deploy', updated, '--modules', 'live/modules', '--trust', 'trust.json');
      expect(replaced).toMatchObject({ code: 0, stdout: expect.stringContaining(`(replacing ${hashOf(original)})`) });
      expect(await servedHash()).toBe(hashOf(updated));

      // Putting the original back is a rollback, refused as the loader refuses it; nothing changes.
      const rollback = await cli(workspace, 'deploy', original, '--modules', 'live/modules', '--trust', 'trust.json');
      expect(rollback).toMatchObject({ code: 1, stderr: expect.stringContaining('APPROVAL_OLDER_THAN_LOADED') });
      expect(readFileSync(join(workspace, WORLD_DIR.replace('modules', 'live/modules'), 'bundle.js'))).toEqual(readFileSync(join(workspace, updated, 'bundle.js')));
      expect(await servedHash()).toBe(hashOf(updated));

      // Approved again, it is the newest approval: deployed and served.
      await new Promise((later) => setTimeout(later, 1_100));
      expect((await cli(workspace, 'approve', original, '--key', 'keys/operator.key.jwk')).code).toBe(0);
      expect((await cli(workspace, 'deploy', original, '--modules', 'live/modules', '--trust', 'trust.json')).code).toBe(0);
      expect(await servedHash()).toBe(hashOf(original));
    } finally {
      await service.close();
    }
  }, 120_000);
});
