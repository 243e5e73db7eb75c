/**
 * The packages are installable: `npm pack` of every package gives tarballs holding their built
 * code, and an empty project that installs them (the adec packages from the tarballs only;
 * third-party packages from the npm cache or registry, native addons built by their install
 * scripts as a user's install would) runs the main job with them: `scripts/quickstart.mjs`
 * against the installed `adec` builds the example world, signs and approves it, serves it on
 * SQLite, makes one authenticated decision over HTTP and verifies the audit chain.
 *
 * Slow by nature (the native addons compile for minutes), so it runs once, in one file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo.js';

const WORKSPACES = ['@adec/abi', '@adec/contracts', '@adec/diagnostics', '@adec/grammar', '@adec/compiler', '@adec/runtime', '@adec/audit', '@adec/engine', '@adec/server', '@adec/cli'];
const dir = mkdtempSync(join(tmpdir(), 'adec-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('installing adec from its packed tarballs', () => {
  it('packs built code only, installs into an empty project, and runs build, serve and one decision', () => {
    const packs = join(dir, 'packs');
    mkdirSync(packs);
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packs, ...WORKSPACES.flatMap((name) => ['-w', name])], { cwd: REPO_ROOT, encoding: 'utf8' })) as { name: string; filename: string; files: { path: string }[] }[];
    expect(packed.map((pack) => pack.name)).toEqual(WORKSPACES);
    for (const pack of packed) {
      const paths = pack.files.map((file) => file.path);
      expect(paths, pack.name).toContain('dist/index.js');
      expect(paths, pack.name).toContain('dist/index.d.ts');
      expect(paths.filter((path) => path.startsWith('src/') || path.endsWith('.tsbuildinfo') || path.endsWith('.map')), pack.name).toEqual([]);
    }
    expect(packed.find((pack) => pack.name === '@adec/runtime')!.files.map((file) => file.path)).toContain('dist/sandbox/sandbox-process.js');
    expect(packed.find((pack) => pack.name === '@adec/cli')!.files.map((file) => file.path)).toContain('bin/adec.js');

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'adec-consumer', version: '1.0.0', private: true, allowScripts: { 'isolated-vm': true, 'better-sqlite3': true, esbuild: true } }));
    const tarballs = readdirSync(packs).map((file) => join(packs, file));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'], timeout: 15 * 60_000 });
    // Installed copies, not links back into this repository.
    expect(lstatSync(join(project, 'node_modules/@adec/cli')).isSymbolicLink()).toBe(false);

    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/quickstart.mjs'), '--adec', join(project, 'node_modules/@adec/cli/bin/adec.js'), '--dir', join(project, 'demo'), '--json'], { encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).toContain('HTTP 200');
    expect(run.stderr).toContain('all 1 chains verify');
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'YELLOW', decision_metadata: { aggregation_outcome: { winning_rule: 'student_extension' }, module: { org: 'acme', domain: 'hr.benefits' } } });
    expect(run.status).toBe(0);
  }, 20 * 60_000);
});
