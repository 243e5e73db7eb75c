import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli, SMALL_WORLD, tempWorkspace } from './run-cli.js';

const BIN = fileURLToPath(new URL('../bin/adec.js', import.meta.url));

describe('adec check', () => {
  it('exits 0 and reports ok for a valid world', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD });
    const run = await runCli(['check', 'world'], cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('world: ok (0 errors, 0 warnings)\n');
  });

  it('exits 1 and renders path:line:col, code, excerpt and caret on stderr', async () => {
    const broken = SMALL_WORLD.replace('relationship == "child"', 'relationship == "chlid"');
    const cwd = tempWorkspace({ 'world/main.adec': broken });
    const run = await runCli(['check', 'world'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n');
    expect(lines[0]).toBe('world/main.adec:16:30: error ADEC3006: "chlid" is not a member of "child" | "spouse"');
    expect(lines[2]).toBe('16 |     when     relationship == "chlid" and dependent_age >= 26');
    expect(lines[3]).toBe(`   |${" ".repeat(30)}^^^^^^^`);
    expect(run.stderr).toContain('help: did you mean "child"?');
    expect(run.stderr).toMatch(/1 error, 0 warnings\n$/);
  });

  it('prints a JSON array of diagnostics with --format json', async () => {
    const broken = SMALL_WORLD.replace('severity t1', 'severity tier1');
    const cwd = tempWorkspace({ 'w/main.adec': broken });
    const run = await runCli(['check', 'w', '--format', 'json'], cwd);
    expect(run.code).toBe(1);
    const diagnostics = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: 'ADEC4006',
      severity: 'error',
      file: 'w/main.adec',
      line: 15,
      column: 14,
      message: 'invalid severity `tier1`: expected t1, t2 or t3',
    });
  });

  it('reports an unreadable world as an input error, not a crash', async () => {
    const cwd = tempWorkspace({ 'empty/readme.txt': 'no worlds here' });
    expect(await runCli(['check', 'missing'], cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'adec: world directory `missing` does not exist\n',
    });
    expect((await runCli(['check', 'empty'], cwd)).stderr).toBe('adec: world directory `empty` contains no .adec files\n');
  });
});

describe('adec build', () => {
  it('writes module, bundle, manifest and types, and prints the summary with the hash', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD });
    const run = await runCli(['build', 'world', '--out', 'out'], cwd);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(cwd, 'out/manifest.json'), 'utf8')) as { module_hash: string };
    expect(run.stdout).toContain('built acme/hr.benefits@1.0.0 (world hr.benefits) → out');
    expect(run.stdout).toContain('  rules      1 (RED 1; t1 1)\n');
    expect(run.stdout).toContain(`  module     ${manifest.module_hash}`);
    for (const file of ['module.ts', 'bundle.js', 'manifest.json', 'types.d.ts']) {
      expect(existsSync(join(cwd, 'out', file)), file).toBe(true);
    }
  });

  it('prints the result as one JSON object with --format json', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD });
    const run = await runCli(['build', 'world', '--format', 'json'], cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(run.stdout) as { ok: boolean; diagnostics: unknown[]; out: string; manifest: { rules: unknown[] } };
    expect(result).toMatchObject({ ok: true, diagnostics: [], out: 'world/build' });
    expect(result.manifest.rules).toEqual([
      {
        id: 'child_over_age',
        action: 'add_dependent',
        outcome: 'RED',
        severity: 't1',
        span: { file: 'main.adec', line: 13, column: 3, endLine: 18, endColumn: 4 },
      },
    ]);
  });

  it('writes nothing and exits 1 when the world has errors', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD.replace('outcome  RED', 'outcome  BLUE') });
    const run = await runCli(['build', 'world'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error ADEC4005: invalid outcome `BLUE`');
    expect(existsSync(join(cwd, 'world/build'))).toBe(false);
  });

  it('shows progress only on a terminal', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD });
    expect((await runCli(['build', 'world'], cwd, { tty: false })).stderr).toBe('');
    expect((await runCli(['build', 'world'], cwd, { tty: true })).stderr).toContain('bundle…');
  });
});

describe('usage errors', () => {
  it.each([
    [['frobnicate'], 'adec: unknown command `frobnicate`'],
    [['check'], 'adec check: missing <world>'],
    [['check', 'a', 'b'], 'adec check: unexpected argument `b`'],
    [['build', 'w', '--format', 'yaml'], 'adec build: invalid --format `yaml`: expected text or json'],
    [['build', 'w', '--colour'], "adec build: Unknown option '--colour'"],
  ])('adec %j exits 2', async (argv, message) => {
    const run = await runCli(argv, tempWorkspace({}));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('prints each command usage with --help and exits 0', async () => {
    const run = await runCli(['build', '--help'], tempWorkspace({}));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^usage: adec build <world> \[--out <dir>\]/);
  });
});

describe('the installed launcher', () => {
  it('runs as an executable and returns the contract exit codes', async () => {
    const cwd = tempWorkspace({ 'world/main.adec': SMALL_WORLD.replace('dependent_age >= 26', 'dependent_agee >= 26') });
    const exec = promisify(execFile);
    const failure = await exec(BIN, ['check', 'world'], { cwd }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain("world/main.adec:16:42: error ADEC2001: unknown name `dependent_agee`");
    const usage = await exec(BIN, [], { cwd }).catch((error: unknown) => error);
    expect(usage).toMatchObject({ code: 2 });
  });
});
