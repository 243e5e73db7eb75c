/**
 * `adec fmt`, driven through the CLI's entry point on real files in a temporary directory:
 * rewriting in place, `--check` for CI (writes nothing, exit 1 and the paths when a file is
 * not formatted), standard input to standard output, and a file with a syntax error refused
 * with its diagnostics and left byte for byte as it was.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '@adec/cli';
import { describe, expect, test } from 'vitest';
import { runCli, tempWorkspace } from './run-cli.js';
import { REPO_ROOT } from '../../../test/support/repo.js';

const UNFORMATTED = `// The review world.
world { org "acme" domain "fmt" version "1.0.0" }
context { supplied amount:int   // in cents
supplied vip : bool }
action review { rule large { outcome RED severity t1 when amount>1000 and not vip reason "Too large: {amount}" } }
`;

const FORMATTED = `// The review world.
world {
  org     "acme"
  domain  "fmt"
  version "1.0.0"
}

context {
  supplied amount: int // in cents
  supplied vip:    bool
}

action review {
  rule large {
    outcome  RED
    severity t1
    when     amount > 1000 and not vip
    reason   "Too large: {amount}"
  }
}
`;

const TESTS = `test "a large amount is refused" {
  action  review
  context { amount: 5000, vip: false }
  expect  RED by large
}
`;

/** The same world with a syntax error (an operator without its right operand). */
const BROKEN = `context { supplied amount: int }
action   review {
  rule large { outcome RED   severity t1 when amount > }
}
`;

function workspace(files: Readonly<Record<string, string>> = { 'world/world.adec': UNFORMATTED, 'world/review.tests.adec': TESTS }): string {
  return tempWorkspace(files);
}

const LAUNCHER = fileURLToPath(new URL('../bin/adec.js', import.meta.url));

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

async function withStdin(args: readonly string[], input: string | Uint8Array) {
  let stdout = '';
  let stderr = '';
  const code = await main(['fmt', ...args], {
    cwd: REPO_ROOT,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: async () => (typeof input === 'string' ? Buffer.from(input) : input),
  });
  return { code, stdout, stderr };
}

describe('adec fmt <world>: in place', () => {
  test('rewrites the files that are not formatted, names them, and leaves the others alone', async () => {
    const root = workspace();
    const run = await runCli(['fmt', 'world'], root);
    expect(run).toEqual({ code: 0, stdout: 'world/world.adec\n', stderr: '' });
    expect(read(root, 'world/world.adec')).toBe(FORMATTED);
    expect(read(root, 'world/review.tests.adec')).toBe(TESTS);

    // A second run finds nothing to do.
    expect(await runCli(['fmt', 'world'], root)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(read(root, 'world/world.adec')).toBe(FORMATTED);
  });

  test('the formatted world still checks and passes its tests', async () => {
    const root = workspace();
    await runCli(['fmt', 'world'], root);
    const checked = await runCli(['check', 'world'], root);
    expect(checked.code).toBe(0);
    const tested = await runCli(['test', 'world'], root);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
  });

  test('takes files as well as directories, and keeps a file\'s permissions', async () => {
    const root = workspace({ 'a.adec': UNFORMATTED, 'nested/b.adec': UNFORMATTED });
    chmodSync(join(root, 'a.adec'), 0o640);
    const run = await runCli(['fmt', 'a.adec', 'nested'], root);
    expect(run).toEqual({ code: 0, stdout: 'a.adec\nnested/b.adec\n', stderr: '' });
    expect(read(root, 'a.adec')).toBe(FORMATTED);
    expect(read(root, 'nested/b.adec')).toBe(FORMATTED);
    expect(lstatSync(join(root, 'a.adec')).mode & 0o777).toBe(0o640);
  });

  test('a file with a syntax error is reported and left untouched; the other files are formatted', async () => {
    const root = workspace({ 'world/world.adec': UNFORMATTED, 'world/broken.adec': BROKEN });
    const run = await runCli(['fmt', 'world'], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^world\/broken\.adec:3:\d+: error ADEC1\d{3}: /m);
    expect(run.stdout).toBe('world/world.adec\n');
    expect(read(root, 'world/broken.adec')).toBe(BROKEN);
    expect(read(root, 'world/world.adec')).toBe(FORMATTED);
  });

  test('a file that is not UTF-8 is left as it is', async () => {
    const root = workspace({ 'world/world.adec': FORMATTED });
    const bytes = Buffer.concat([Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from('\nworld {  org "acme" }\n')]);
    writeFileSync(join(root, 'world/latin1.adec'), bytes);
    const run = await runCli(['fmt', 'world'], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('adec: `world/latin1.adec` is not UTF-8 text');
    expect(readFileSync(join(root, 'world/latin1.adec'))).toEqual(bytes);
  });

  test('names what it cannot format: a missing path, a directory without .adec files, a symbolic link', async () => {
    const root = workspace({ 'world/world.adec': UNFORMATTED, 'empty/readme.txt': 'nothing here' });
    symlinkSync(join(root, 'world/world.adec'), join(root, 'link.adec'));
    const run = await runCli(['fmt', 'missing', 'empty', 'link.adec'], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'adec: `missing` does not exist\n' +
        'adec: `empty` contains no .adec files\n' +
        'adec: `link.adec` is a symbolic link: adec fmt rewrites only regular files\n',
    );
    expect(read(root, 'world/world.adec')).toBe(UNFORMATTED);
  });
});

describe('adec fmt --check', () => {
  test('writes nothing, prints the files that are not formatted and exits 1', async () => {
    const root = workspace();
    const run = await runCli(['fmt', '--check', 'world'], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('world/world.adec\n');
    expect(run.stderr).toBe('adec fmt: 1 file is not formatted (run `adec fmt` to rewrite)\n');
    expect(read(root, 'world/world.adec')).toBe(UNFORMATTED);

    await runCli(['fmt', 'world'], root);
    expect(await runCli(['fmt', '--check', 'world'], root)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('a syntax error fails the check with its diagnostics', async () => {
    const root = workspace({ 'world/broken.adec': BROKEN });
    const run = await runCli(['fmt', '--check', 'world'], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/error ADEC1\d{3}/);
    expect(read(root, 'world/broken.adec')).toBe(BROKEN);
  });

  test('the example worlds are formatted', async () => {
    expect(await runCli(['fmt', '--check', 'examples'], REPO_ROOT)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('--format json reports each file', async () => {
    const root = workspace({ 'world/world.adec': UNFORMATTED, 'world/review.tests.adec': TESTS, 'world/broken.adec': BROKEN });
    const run = await runCli(['fmt', '--check', '--format', 'json', 'world'], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { ok: boolean; files: unknown[]; diagnostics: unknown[] };
    expect(report.ok).toBe(false);
    expect(report.files).toEqual([
      { path: 'world/broken.adec', status: 'error' },
      { path: 'world/review.tests.adec', status: 'unchanged' },
      { path: 'world/world.adec', status: 'unformatted' },
    ]);
    expect(report.diagnostics[0]).toMatchObject({ file: 'world/broken.adec', severity: 'error' });
  });
});

describe('adec fmt - and --stdout', () => {
  test('formats standard input to standard output', async () => {
    expect(await withStdin(['-'], UNFORMATTED)).toEqual({ code: 0, stdout: FORMATTED, stderr: '' });
    expect(await withStdin(['--check', '-'], FORMATTED)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await withStdin(['--check', '-'], UNFORMATTED)).toEqual({ code: 1, stdout: '<stdin>\n', stderr: '' });
  });

  test('refuses standard input with a syntax error: diagnostics on stderr, nothing on stdout', async () => {
    const run = await withStdin(['-'], BROKEN);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^<stdin>:3:\d+: error ADEC1\d{3}: /m);
  });

  test('refuses standard input that is not UTF-8', async () => {
    const run = await withStdin(['-'], new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'adec: standard input is not UTF-8 text\n' });
  });

  test('--stdout prints one file formatted and leaves it as it is', async () => {
    const root = workspace();
    const run = await runCli(['fmt', '--stdout', 'world/world.adec'], root);
    expect(run).toEqual({ code: 0, stdout: FORMATTED, stderr: '' });
    expect(read(root, 'world/world.adec')).toBe(UNFORMATTED);
  });
});

describe('adec fmt: usage errors (exit 2)', () => {
  test.each([
    [[], /missing <world dir \| file\.adec>/],
    [['--bogus', 'world'], /Unknown option '--bogus'/],
    [['-', 'world'], /`-` \(standard input\) is formatted alone/],
    [['--stdout', 'a.adec', 'b.adec'], /--stdout prints one file/],
    [['--stdout', 'world'], /--stdout prints one file/],
    [['--format', 'yaml', 'world'], /invalid --format `yaml`/],
    [['--format', 'json', '--stdout', 'world/world.adec'], /--format json reports on files/],
  ])('adec fmt %j', async (args, message) => {
    const root = workspace();
    const run = await runCli(['fmt', ...args], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(read(root, 'world/world.adec')).toBe(UNFORMATTED);
  });

  test('adec fmt --help prints the usage', async () => {
    const run = await runCli(['fmt', '--help'], REPO_ROOT);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: adec fmt /);
  });
});

describe('adec fmt through the launcher (a real process, real standard streams)', () => {
  test('standard input to standard output, and --check on a directory', () => {
    const root = workspace();
    const run = (args: string[], input?: string) => spawnSync(LAUNCHER, ['fmt', ...args], { cwd: root, input, encoding: 'utf8', timeout: 30_000 });
    const piped = run(['-'], UNFORMATTED);
    expect({ status: piped.status, stdout: piped.stdout, stderr: piped.stderr }).toEqual({ status: 0, stdout: FORMATTED, stderr: '' });
    const checked = run(['--check', 'world']);
    expect({ status: checked.status, stdout: checked.stdout }).toEqual({ status: 1, stdout: 'world/world.adec\n' });
    const rewritten = run(['world']);
    expect({ status: rewritten.status, stdout: rewritten.stdout }).toEqual({ status: 0, stdout: 'world/world.adec\n' });
    expect(read(root, 'world/world.adec')).toBe(FORMATTED);
  });
});
