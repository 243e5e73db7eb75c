/**
 * Approval by rebuild trusts that a build depends on nothing but the world's sources and the
 * compiler version. Each thing a build could otherwise pick up from its machine is varied
 * here, and every artifact must stay byte for byte the same: the clock and randomness (in
 * process), and, through the real `adec build` in a child process, the time zone, the
 * locale, the working directory, the world directory's name and depth, the order its files
 * were created in (directory listing order), and the umask.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFiles, buildWorld, type BuildArtifacts } from '@adec/compiler';
import { loadWorldFromDir, repoPath } from '../support/repo.js';

const ADEC = repoPath('packages/cli/bin/adec.js');

/** The artifacts as `adec build` writes them, by file name. */
function filesOf(artifacts: BuildArtifacts): Record<string, string> {
  return Object.fromEntries(buildFiles(artifacts).map(({ name, content }) => [name, content]));
}

async function build(world: string): Promise<Record<string, string>> {
  const result = await buildWorld(loadWorldFromDir(world));
  if (result.artifacts === undefined) throw new Error(`${world} does not build`);
  return filesOf(result.artifacts);
}

/** A copy of `world`'s .adec files at `target`, created in reverse path order. */
function copyReversed(world: string, target: string): void {
  const files = readdirSync(repoPath(world), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.adec'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .reverse();
  for (const file of files) {
    const destination = join(target, file.slice(repoPath(world).length));
    mkdirSync(dirname(destination), { recursive: true });
    cpSync(file, destination);
  }
}

describe.each(['examples/benefits', 'examples/fitness'])('%s', (world) => {
  let reference: Record<string, string>;
  beforeAll(async () => {
    reference = await build(world);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it.each([
    ['in 1999, with Math.random always 0', new Date('1999-12-31T23:59:59Z'), 0],
    ['in 2099, with Math.random always 0.999', new Date('2099-06-15T12:00:00Z'), 0.999],
  ])('builds the same bytes %s', async (_, now, random) => {
    vi.useFakeTimers({ toFake: ['Date'], now });
    vi.spyOn(Math, 'random').mockReturnValue(random);
    expect(await build(world)).toEqual(reference);
  });

  it('builds the same bytes from its files given in any order', async () => {
    const sources = loadWorldFromDir(world);
    const result = await buildWorld({ root: sources.root, files: [...sources.files].reverse() });
    expect(result.artifacts === undefined ? undefined : filesOf(result.artifacts)).toEqual(reference);
  });

  it('builds the same bytes through adec build in another time zone, locale, directory, file order and umask', () => {
    const root = mkdtempSync(join(tmpdir(), 'adec-determinism-'));
    const target = join(root, 'deeper', 'Ünïcode dir', 'renamed-world');
    copyReversed(world, target);
    const elsewhere = join(root, 'cwd');
    mkdirSync(elsewhere);
    const env = { ...process.env, TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8', LANGUAGE: 'tr' };
    execFileSync('/bin/sh', ['-c', `umask 077 && "${process.execPath}" "${ADEC}" build "../deeper/Ünïcode dir/renamed-world" --out ../out`], { cwd: elsewhere, env, stdio: 'pipe' });
    const written = Object.fromEntries(readdirSync(join(root, 'out')).map((name) => [name, readFileSync(join(root, 'out', name), 'utf8')]));
    expect(Object.keys(written).sort()).toEqual(Object.keys(reference).sort());
    for (const [name, content] of Object.entries(reference)) expect(written[name], name).toBe(content);
  });
});

describe('what the build leaves out', () => {
  it('no artifact holds a path of the machine that built it', async () => {
    const files = await build('examples/benefits');
    const machine = [repoPath(), tmpdir(), process.env['HOME']].filter((text): text is string => text !== undefined && text.length > 1);
    for (const [name, content] of Object.entries(files)) {
      for (const text of machine) expect(content.includes(text), `${name} contains ${text}`).toBe(false);
    }
  });
});
