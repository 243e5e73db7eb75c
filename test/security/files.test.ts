/**
 * Files (issue 12, finding 8). adec reads files an attacker may shape — a module store, a bundle
 * handed to `adec verify` — and writes into directories others may write to. Every read goes
 * through one reader (regular files only, size-capped, bundle files never through a link):
 * each hazard below, in place of each file a bundle holds, is refused with a code naming the
 * file, by every reader (readBundleFiles, the loader's DirectoryModuleStore, `adec verify`,
 * `adec sign`), and key and trust files likewise. Every write goes through one writer (a temp
 * file renamed into place, never through a link): a link planted at any output of `adec build`,
 * `adec sign`, `adec approve` or `adec keygen`, or in place of the output directory, is refused
 * and its target left untouched.
 *
 * No test can hang: a FIFO is what a regression would block on, so every read races a deadline
 * and every FIFO is opened for writing afterwards, which frees a reader stuck in open(2).
 */
import { execFileSync } from 'node:child_process';
import { constants, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLE_FILES,
  DEFAULT_BUNDLE_FILE_LIMITS,
  DirectoryModuleStore,
  loadTrustConfig,
  ModuleLoader,
  readBundleFiles,
  readKeyFile,
  readRegularFile,
  trustConfig,
} from '@adec/runtime';
import { writeOutputFiles } from '../../packages/cli/src/output-files.js';
import { runCli } from '../../packages/cli/test/run-cli.js';
import { buildBenefits, copyBundle, tempDir, writeKeyPair } from '../../packages/runtime/test/trust/trust-fixtures.js';

/** What a regression would hang on, bounded: a read that takes longer than this fails the test. */
const DEADLINE_MS = 10_000;
const fifos: string[] = [];

afterAll(() => {
  // Free any reader a regression left blocked in open(2) on a FIFO, so the worker can exit.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: no reader is waiting, which is the expected case.
    }
  }
});

function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DEADLINE_MS} ms: the read blocks`)), DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
  fifos.push(path);
}

/** A hazard in place of a file, and how the one reader names it. */
interface Hazard {
  readonly name: string;
  /** Puts the hazard at `path`, which is where bundle file `file` goes. */
  readonly plant: (path: string, file: string) => void;
  readonly code: 'BUNDLE_FILE_NOT_REGULAR' | 'BUNDLE_FILE_TOO_LARGE';
  readonly problem: (file: string) => string;
}

const HAZARDS: readonly Hazard[] = [
  { name: 'a FIFO', plant: mkfifo, code: 'BUNDLE_FILE_NOT_REGULAR', problem: () => 'is a FIFO (named pipe), not a regular file' },
  {
    name: '/dev/zero linked in',
    plant: (path) => symlinkSync('/dev/zero', path),
    code: 'BUNDLE_FILE_NOT_REGULAR',
    problem: () => 'is a symbolic link, not a regular file (links are not followed)',
  },
  {
    name: 'a link to a file outside the bundle',
    plant: (path) => {
      const outside = join(tempDir(), 'outside.json');
      writeFileSync(outside, '{}');
      symlinkSync(outside, path);
    },
    code: 'BUNDLE_FILE_NOT_REGULAR',
    problem: () => 'is a symbolic link, not a regular file (links are not followed)',
  },
  { name: 'a directory', plant: (path) => mkdirSync(path), code: 'BUNDLE_FILE_NOT_REGULAR', problem: () => 'is a directory, not a regular file' },
  {
    name: 'a file one byte over its limit (sparse)',
    plant: (path, file) => {
      writeFileSync(path, '');
      truncateSync(path, limitOf(file) + 1);
    },
    code: 'BUNDLE_FILE_TOO_LARGE',
    problem: (file) => `is ${limitOf(file) + 1} bytes, over the limit of ${describeLimit(limitOf(file))}`,
  },
];

const FILE_NAMES = Object.keys(BUNDLE_FILES) as (keyof typeof BUNDLE_FILES)[];
const limitOf = (file: string) => DEFAULT_BUNDLE_FILE_LIMITS[FILE_NAMES.find((name) => BUNDLE_FILES[name] === file)!];
const describeLimit = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);

let pristine: string;

beforeAll(async () => {
  pristine = await buildBenefits();
  const ci = writeKeyPair(pristine, 'ci');
  await runCli(['sign', '.', '--key', ci.privateFile], pristine);
  rmSync(join(pristine, ci.privateFile));
  rmSync(join(pristine, ci.publicFile));
});

/** A copy of the signed bundle at `<store>/acme/hr.benefits/1.4.0` with `file` replaced by the hazard. */
function storeWithHazard(hazard: Hazard, file: string): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'adec-files-'));
  mkdirSync(join(root, 'acme', 'hr.benefits'), { recursive: true });
  const dir = copyBundle(pristine, join(root, 'acme', 'hr.benefits'), '1.4.0');
  rmSync(join(dir, file), { force: true });
  hazard.plant(join(dir, file), file);
  return { root, dir };
}

const CASES = HAZARDS.flatMap((hazard) => FILE_NAMES.map((name) => [hazard.name, BUNDLE_FILES[name], hazard] as const));

describe.each(CASES)('%s as %s', (_, file, hazard) => {
  const expected = (shown: string) => ({ code: hazard.code, check: 'files', message: `\`${shown}\` ${hazard.problem(file)}` });

  it('readBundleFiles refuses it, naming the file', async () => {
    const { root } = storeWithHazard(hazard, file);
    const read = await bounded(readBundleFiles('acme/hr.benefits/1.4.0', root));
    expect(read).toEqual({ ok: false, failure: expected(`acme/hr.benefits/1.4.0/${file}`) });
  });

  it('the loader refuses it with the same code (DirectoryModuleStore)', async () => {
    const { root, dir } = storeWithHazard(hazard, file);
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(root), trust: trustConfig({ signingKeys: [], approvalKeys: [] }), sandbox: { isolation: 'in-process' } });
    try {
      const lookup = await bounded(loader.get({ org: 'acme', domain: 'hr.benefits', version: '1.4.0', action: 'add_dependent' }));
      expect(lookup).toMatchObject({ ok: false, error: { code: hazard.code, message: expect.stringContaining(`\`${join(dir, file)}\` ${hazard.problem(file)}`) } });
    } finally {
      await bounded(loader.close());
    }
  });

  it('adec verify and adec sign refuse it (exit 1)', async () => {
    const { root } = storeWithHazard(hazard, file);
    const keys = writeKeyPair(root, 'ci');
    writeFileSync(join(root, 'trust.json'), JSON.stringify({ signing_keys: [keys.publicFile], require_approval: false }));
    const verify = await bounded(runCli(['verify', 'acme/hr.benefits/1.4.0', '--trust', 'trust.json'], root));
    expect(verify).toEqual({ code: 1, stdout: '', stderr: `adec verify: ${hazard.code}: \`acme/hr.benefits/1.4.0/${file}\` ${hazard.problem(file)}\n` });
    const sign = await bounded(runCli(['sign', 'acme/hr.benefits/1.4.0', '--key', keys.privateFile], root));
    expect(sign).toMatchObject({ code: 1, stderr: expect.stringContaining(`${hazard.code}: \`acme/hr.benefits/1.4.0/${file}\``) });
  });
});

describe('the one reader', () => {
  it('bounds what it reads even when the size says otherwise (/proc files say 0)', async () => {
    const read = await bounded(readRegularFile('/proc/self/status', { maxBytes: 16, followSymlinks: true }));
    expect(read).toEqual({ ok: false, code: 'FILE_TOO_LARGE', problem: 'is larger than the limit of 16 bytes' });
  });

  it('honours configured limits: a DirectoryModuleStore with a 1 KiB manifest limit refuses the real manifest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'adec-files-'));
    mkdirSync(join(root, 'acme', 'hr.benefits'), { recursive: true });
    copyBundle(pristine, join(root, 'acme', 'hr.benefits'), '1.4.0');
    const store = new DirectoryModuleStore(root, { limits: { manifest: 1024 } });
    const read = await store.read({ org: 'acme', domain: 'hr.benefits', version: '1.4.0' });
    expect(read).toMatchObject({ ok: false, error: { code: 'BUNDLE_FILE_TOO_LARGE', message: expect.stringContaining('over the limit of 1 KiB') } });
    expect((await new DirectoryModuleStore(root).read({ org: 'acme', domain: 'hr.benefits', version: '1.4.0' })).ok).toBe(true);
  });

  it('reads key and trust files through links (secret stores mount them so), but never a FIFO, a device or a huge file', async () => {
    const dir = tempDir();
    const ci = writeKeyPair(dir, 'ci');
    symlinkSync(ci.publicPath, join(dir, 'linked.pub.jwk'));
    expect(await readKeyFile('linked.pub.jwk', dir)).toMatchObject({ ok: true, keyId: ci.keyId });
    mkfifo(join(dir, 'fifo.pub.jwk'));
    symlinkSync('/dev/zero', join(dir, 'zero.pub.jwk'));
    writeFileSync(join(dir, 'huge.pub.jwk'), '');
    truncateSync(join(dir, 'huge.pub.jwk'), 64 * 1024 + 1);
    expect(await bounded(readKeyFile('fifo.pub.jwk', dir))).toEqual({ ok: false, code: 'FILE_NOT_REGULAR', message: 'key file `fifo.pub.jwk` is a FIFO (named pipe), not a regular file' });
    expect(await bounded(readKeyFile('zero.pub.jwk', dir))).toEqual({ ok: false, code: 'FILE_NOT_REGULAR', message: 'key file `zero.pub.jwk` is a character device, not a regular file' });
    expect(await bounded(readKeyFile('huge.pub.jwk', dir))).toEqual({ ok: false, code: 'FILE_TOO_LARGE', message: 'key file `huge.pub.jwk` is 65537 bytes, over the limit of 64 KiB' });
    for (const [name, code] of [
      ['fifo.pub.jwk', 'FILE_NOT_REGULAR'],
      ['zero.pub.jwk', 'FILE_NOT_REGULAR'],
    ] as const) {
      writeFileSync(join(dir, 'trust.json'), JSON.stringify({ signing_keys: [name], require_approval: false }));
      expect(await bounded(loadTrustConfig('trust.json', dir))).toMatchObject({ ok: false, code });
      expect(await bounded(loadTrustConfig(name, dir))).toMatchObject({ ok: false, code, message: expect.stringMatching(new RegExp(`^trust file \`${name.replace('.', '\\.')}\``)) });
    }
  });
});

describe('the one writer', () => {
  const WORLD = `world {\n  org     "acme"\n  domain  "hr.files"\n  version "1.0.0"\n}\n\ncontext {\n  supplied age: int\n}\n\naction check_age {\n  rule too_old {\n    outcome  RED\n    severity t1\n    when     age >= 100\n    reason   "Too old at {age}"\n  }\n}\n`;
  const OUTPUTS = ['module.ts', 'bundle.js', 'manifest.json', 'types.d.ts', 'sources.json'];

  /** A workspace with the world in `world/` and a victim file outside the output directory. */
  function workspace(): { cwd: string; victim: string } {
    const cwd = tempDir('adec-writes-');
    mkdirSync(join(cwd, 'world'));
    writeFileSync(join(cwd, 'world', 'main.adec'), WORLD);
    writeFileSync(join(cwd, 'victim.txt'), 'precious\n');
    return { cwd, victim: join(cwd, 'victim.txt') };
  }

  it.each(OUTPUTS)('adec build refuses a link planted at out/%s: the victim is unchanged, nothing is written, the error names the path', async (name) => {
    const { cwd, victim } = workspace();
    mkdirSync(join(cwd, 'out'));
    symlinkSync(victim, join(cwd, 'out', name));
    const run = await runCli(['build', 'world', '--out', 'out'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`adec build: \`out/${name}\` is a symbolic link: adec never writes through one (remove it and run again)\n`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(join(cwd, 'out'))).toEqual([name]);
  });

  it('adec build refuses an output directory that is a link, and writes nothing into its target', async () => {
    const { cwd } = workspace();
    const target = join(cwd, 'elsewhere');
    mkdirSync(target);
    symlinkSync(target, join(cwd, 'out'));
    const run = await runCli(['build', 'world', '--out', 'out', '--format', 'json'], cwd);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      error: { code: 'OUTPUT_SYMLINK', message: 'the output directory `out` is a symbolic link: adec writes only into a real directory' },
    });
    expect(readdirSync(target)).toEqual([]);
  });

  it('adec build refuses a directory where a file goes, and leaves no temporary file behind when it succeeds', async () => {
    const { cwd } = workspace();
    mkdirSync(join(cwd, 'out', 'bundle.js'), { recursive: true });
    expect((await runCli(['build', 'world', '--out', 'out'], cwd)).stderr).toContain('adec build: `out/bundle.js` exists and is not a regular file\n');
    rmSync(join(cwd, 'out', 'bundle.js'), { recursive: true });
    writeFileSync(join(cwd, 'out', 'manifest.json'), 'stale');
    expect((await runCli(['build', 'world', '--out', 'out'], cwd)).code).toBe(0);
    expect(readdirSync(join(cwd, 'out')).sort()).toEqual([...OUTPUTS].sort());
    expect(readFileSync(join(cwd, 'out', 'manifest.json'), 'utf8')).toMatch(/"module_hash"/);
  });

  it.each([
    ['sign', 'signature.json', 'keys/ci.key.jwk'],
    ['approve', 'approval.json', 'keys/ops.key.jwk'],
  ])('adec %s refuses a link planted at the bundle’s %s: the victim is unchanged', async (verb, file, key) => {
    const cwd = tempDir('adec-writes-');
    copyBundle(pristine, cwd, 'build');
    rmSync(join(cwd, 'build', 'signature.json'), { force: true });
    mkdirSync(join(cwd, 'keys'));
    writeKeyPair(join(cwd, 'keys'), 'ci');
    writeKeyPair(join(cwd, 'keys'), 'ops');
    writeFileSync(join(cwd, 'victim.txt'), 'precious\n');
    symlinkSync(join(cwd, 'victim.txt'), join(cwd, 'build', file));
    // The bundle is read first, so the link is refused as a bundle file before the writer sees it.
    expect(await runCli([verb, 'build', '--key', key], cwd)).toEqual({
      code: 1,
      stdout: '',
      stderr: `adec ${verb}: refusing to ${verb} \`build\`: BUNDLE_FILE_NOT_REGULAR: \`build/${file}\` is a symbolic link, not a regular file (links are not followed)\n`,
    });
    expect(readFileSync(join(cwd, 'victim.txt'), 'utf8')).toBe('precious\n');
  });

  it('writeOutputFiles checks every target before writing any, and replaces files by rename, never writing through a link', async () => {
    const cwd = tempDir('adec-writes-');
    writeFileSync(join(cwd, 'victim.txt'), 'precious\n');
    mkdirSync(join(cwd, 'out'));
    writeFileSync(join(cwd, 'out', 'a.json'), 'old a');
    symlinkSync(join(cwd, 'victim.txt'), join(cwd, 'out', 'b.json'));
    const files = [
      { name: 'a.json', content: 'new a' },
      { name: 'b.json', content: 'new b' },
    ];
    expect(await writeOutputFiles(join(cwd, 'out'), 'out', files)).toEqual({
      code: 'OUTPUT_SYMLINK',
      message: '`out/b.json` is a symbolic link: adec never writes through one (remove it and run again)',
    });
    expect([readFileSync(join(cwd, 'out', 'a.json'), 'utf8'), readFileSync(join(cwd, 'victim.txt'), 'utf8')]).toEqual(['old a', 'precious\n']);
    rmSync(join(cwd, 'out', 'b.json'));
    expect(await writeOutputFiles(join(cwd, 'out'), 'out', files)).toBeUndefined();
    expect(readdirSync(join(cwd, 'out')).sort()).toEqual(['a.json', 'b.json']);
    expect(await writeOutputFiles(join(cwd, 'out'), 'out', files, { overwrite: false })).toEqual({ code: 'OUTPUT_EXISTS', message: '`out/a.json` already exists: refusing to overwrite it' });
  });

  it('adec keygen refuses a dangling link planted where the private key goes, and creates nothing at its target', async () => {
    const cwd = tempDir('adec-writes-');
    mkdirSync(join(cwd, 'keys'));
    symlinkSync(join(cwd, 'stolen.jwk'), join(cwd, 'keys', 'adec.key.jwk'));
    const run = await runCli(['keygen', '--out', 'keys'], cwd);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'adec keygen: `keys/adec.key.jwk` is a symbolic link: adec never writes through one (remove it and run again)\n' });
    expect(existsSync(join(cwd, 'stolen.jwk'))).toBe(false);
    expect(readdirSync(join(cwd, 'keys'))).toEqual(['adec.key.jwk']);
  });
});
