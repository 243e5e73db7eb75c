/**
 * `adec init [dir]`: a world that checks and tests clean, written only into an empty or new
 * directory, from templates the package ships.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { REPO_ROOT, repoPath } from '../../../test/support/repo.js';

const TEMPLATES = 'packages/cli/templates/init';
const SCAFFOLD = ['README.md', 'world.adec', 'world.tests.adec'];

function emptyWorkspace(): string {
  return mkdtempSync(join(tmpdir(), 'adec-init-'));
}

describe('adec init', () => {
  it('writes the templates into a new directory and says what to run next', async () => {
    const cwd = emptyWorkspace();
    const run = await runCli(['init', 'refunds'], cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(join(cwd, 'refunds')).sort()).toEqual(SCAFFOLD);
    for (const file of SCAFFOLD) {
      expect(readFileSync(join(cwd, 'refunds', file), 'utf8'), file).toBe(readFileSync(repoPath(TEMPLATES, file), 'utf8'));
    }
    expect(run.stdout.split('\n')[0]).toBe('created a world in refunds');
    expect(run.stdout).toContain('  refunds/world.tests.adec  a golden test for every rule\n');
    expect(run.stdout).toContain('next:\n  adec check refunds\n  adec test refunds\n');
  });

  it('scaffolds a world that checks with no diagnostics and whose tests pass and match every rule', async () => {
    const cwd = emptyWorkspace();
    expect((await runCli(['init', 'w'], cwd)).code).toBe(0);

    const check = await runCli(['check', 'w'], cwd);
    expect(check).toEqual({ code: 0, stdout: 'w: ok (0 errors, 0 warnings)\n', stderr: '' });

    const test = await runCli(['test', 'w', '--format', 'json'], cwd);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    const report = JSON.parse(test.stdout) as {
      ok: boolean;
      diagnostics: unknown[];
      tests: { passed: boolean; expected: { rule: string | null } }[];
      coverage: { rules: { covered: number; total: number } };
    };
    expect(report.ok).toBe(true);
    expect(report.diagnostics).toEqual([]);
    expect(report.tests.every((t) => t.passed)).toBe(true);
    expect(report.coverage.rules.total).toBeGreaterThanOrEqual(3);
    expect(report.coverage.rules.covered).toBe(report.coverage.rules.total);
    // Each rule decides at least one test, not only matches one.
    const rules = [...readFileSync(join(cwd, 'w/world.adec'), 'utf8').matchAll(/^\s*rule (\w+)/gm)].map((m) => m[1]);
    expect(new Set(report.tests.map((t) => t.expected.rule))).toEqual(new Set([...rules, null]));
  });

  it('scaffolds into the current directory when it is empty', async () => {
    const cwd = emptyWorkspace();
    const run = await runCli(['init'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('created a world in .\n  world.adec ');
    expect(readdirSync(cwd).sort()).toEqual(SCAFFOLD);
    expect((await runCli(['check', '.'], cwd)).code).toBe(0);
  });

  it('refuses a directory that holds anything, naming it, and writes nothing', async () => {
    const cwd = emptyWorkspace();
    mkdirSync(join(cwd, 'mine'));
    writeFileSync(join(cwd, 'mine', 'notes.txt'), 'keep me');
    const run = await runCli(['init', 'mine'], cwd);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec init: `mine` is not empty (notes.txt): adec init writes a new world only into an empty or new directory\n',
    });
    expect(readdirSync(join(cwd, 'mine'))).toEqual(['notes.txt']);
    expect(readFileSync(join(cwd, 'mine', 'notes.txt'), 'utf8')).toBe('keep me');

    // A second init over a scaffold is refused the same way.
    expect((await runCli(['init', 'w'], cwd)).code).toBe(0);
    expect((await runCli(['init', 'w'], cwd)).stderr).toContain('`w` is not empty (README.md, world.adec, world.tests.adec)');
  });

  it('refuses a file in place of the directory (exit 1) and a second argument (exit 2)', async () => {
    const cwd = emptyWorkspace();
    writeFileSync(join(cwd, 'plain'), '');
    expect(await runCli(['init', 'plain'], cwd)).toEqual({ code: 1, stdout: '', stderr: 'adec init: `plain` is not a directory\n' });
    const twice = await runCli(['init', 'a', 'b'], cwd);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^adec init: unexpected argument `b`\n\nusage: adec init/);
    expect(existsSync(join(cwd, 'a'))).toBe(false);
  });

  it('is listed by `adec --help`', async () => {
    const run = await runCli(['--help'], emptyWorkspace());
    expect(run.stdout).toMatch(/^ {2}init +scaffold a small world/m);
  });

  it('ships its templates in the package', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '-w', '@adec/cli'], { cwd: REPO_ROOT, encoding: 'utf8' })) as { files: { path: string }[] }[];
    const paths = packed[0]!.files.map((file) => file.path);
    for (const file of SCAFFOLD) expect(paths).toContain(`templates/init/${file}`);
  });
});
