/**
 * Approval by reproducible rebuild, on real builds of the examples: a bundle rebuilds to
 * exactly itself from the sources it carries; injected code, a byte edited in any function,
 * an edited manifest, and every kind of bad or swapped sources are refused with their own
 * code and a message naming the file (and, for differing bytes, where they differ).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareWithRebuild, COMPILER_VERSION, rebuildBundle, serializeSourcesFile, sourcesFile, type BuildArtifacts, type RebuildCode } from '@adec/compiler';
import { buildFixture } from '../../../../test/support/runtime.js';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A manifest's JSON with one member replaced, in the manifest's own layout. */
function withManifest(manifestJson: string, change: Record<string, unknown>): string {
  return `${JSON.stringify({ ...(JSON.parse(manifestJson) as Record<string, unknown>), ...change }, null, 2)}\n`;
}

/** The carried bundle as approve reads it, from a build's artifacts, with parts replaced. */
function carried(artifacts: BuildArtifacts, parts: { manifest?: string; bundle?: string; sources?: string | undefined } = {}) {
  return {
    manifest: parts.manifest ?? artifacts.manifestJson,
    bundle: parts.bundle ?? artifacts.bundle,
    sources: 'sources' in parts ? parts.sources : artifacts.sourcesJson,
    sourcesName: 'build/sources.json',
  };
}

/** Every offset in `bundle` where a function's body starts: after `=> ` or a function's `{`. */
function functionBodies(bundle: string): number[] {
  const starts: number[] = [];
  for (const match of bundle.matchAll(/=> \(?|function [\w$]*\([^)]*\) \{\n\s*/g)) starts.push(match.index + match[0].length);
  return starts;
}

/** One character of `text` at `offset` changed to another that keeps it printable. */
function editByte(text: string, offset: number): string {
  const ch = text[offset]!;
  const replacement = /[0-9]/.test(ch) ? String((Number(ch) + 1) % 10) : /[a-z]/.test(ch) ? (ch === 'z' ? 'y' : String.fromCharCode(ch.charCodeAt(0) + 1)) : ch === ' ' ? '\t' : 'x';
  return `${text.slice(0, offset)}${replacement}${text.slice(offset + 1)}`;
}

describe.each(['examples/benefits', 'examples/fitness'])('%s', (world) => {
  let artifacts: BuildArtifacts;
  beforeAll(async () => {
    artifacts = await buildFixture(world);
  });

  it('rebuilds to exactly its bundle.js and manifest.json, by this compiler', async () => {
    expect(await rebuildBundle(carried(artifacts))).toEqual({ ok: true, compiler: { name: 'adec', version: COMPILER_VERSION } });
  });

  it('refuses injected code and one byte edited in any function (generated over every function of the bundle)', () => {
    const bodies = functionBodies(artifacts.bundle);
    expect(bodies.length).toBeGreaterThan(world.endsWith('benefits') ? 40 : 10);
    const variants = [
      ...bodies.map((offset) => editByte(artifacts.bundle, offset)),
      ...bodies.map((offset) => `${artifacts.bundle.slice(0, offset)}globalThis.x = 1, ${artifacts.bundle.slice(offset)}`),
      `${artifacts.bundle}\n;((m) => { m._RULE_FUNCTIONS = {}; })(__adec_module);\n`,
    ];
    for (const bundle of variants) {
      // A compromised build would re-hash the manifest; the rebuild compares bundle.js first.
      const result = compareWithRebuild({ bundle, manifest: withManifest(artifacts.manifestJson, { module_hash: sha256(bundle) }) }, artifacts);
      expect(result).toMatchObject({ ok: false, code: 'REBUILD_DIFFERS', message: expect.stringMatching(/^bundle\.js is not what its sources build: they differ from line \d+, column \d+ /) });
    }
  });

  it('names the line and column where the bundle first differs', () => {
    const offset = artifacts.bundle.indexOf('_WORLD = ') + '_WORLD = '.length;
    const line = artifacts.bundle.slice(0, offset).split('\n').length;
    const column = offset - artifacts.bundle.lastIndexOf('\n', offset - 1);
    const result = compareWithRebuild({ bundle: editByte(artifacts.bundle, offset), manifest: artifacts.manifestJson }, artifacts);
    expect(result).toMatchObject({ message: expect.stringContaining(`they differ from line ${line}, column ${column} (the bundle has "x`) });
  });

  it('refuses a manifest with any member changed, though bundle.js is the rebuild\'s', () => {
    const manifest = JSON.parse(artifacts.manifestJson) as Record<string, unknown>;
    for (const key of Object.keys(manifest).filter((k) => !['source_hash', 'compiler'].includes(k))) {
      const result = compareWithRebuild({ bundle: artifacts.bundle, manifest: withManifest(artifacts.manifestJson, { [key]: 'edited' }) }, artifacts);
      expect(result, key).toMatchObject({ ok: false, code: 'REBUILD_DIFFERS', message: expect.stringMatching(/^manifest\.json is not what its sources build/) });
    }
  });
});

describe('the sources a bundle carries', () => {
  let artifacts: BuildArtifacts;
  let sources: { format: string; source_hash: string; files: { path: string; text: string }[] };
  beforeAll(async () => {
    artifacts = await buildFixture('examples/fitness');
    sources = JSON.parse(artifacts.sourcesJson) as typeof sources;
  });
  /** sources.json with these files, hashed as a build would hash them. */
  const sourcesWith = (files: { path: string; text: string }[]) => serializeSourcesFile(sourcesFile(files));
  const refused = async (parts: Parameters<typeof carried>[1], code: RebuildCode) => {
    const result = await rebuildBundle(carried(artifacts, parts));
    expect(result).toMatchObject({ ok: false, code });
    return result.ok ? '' : result.message;
  };

  it('are the world\'s files in build order, hashed as the manifest\'s source_hash', () => {
    expect(sources.format).toBe('adec.sources.v1');
    expect(sources.files.map((f) => f.path)).toEqual((JSON.parse(artifacts.manifestJson) as { sources: string[] }).sources);
    expect(sources.source_hash).toBe((JSON.parse(artifacts.manifestJson) as { source_hash: string }).source_hash);
  });

  it('missing: nothing to rebuild from', async () => {
    expect(await refused({ sources: undefined }, 'SOURCES_MISSING')).toBe('`build/sources.json` is missing: the bundle carries no sources to rebuild it from (build it with this adec)');
  });

  it.each<readonly [string, () => string, RegExp]>([
    ['not JSON', () => '{', /^`build\/sources\.json` is not valid JSON/],
    ['not an object', () => '[]', /is not a JSON object$/],
    ['of another format', () => JSON.stringify({ ...sources, format: 'adec.sources.v2' }), /has no `format` `adec.sources.v1`$/],
    ['without files', () => JSON.stringify({ ...sources, files: [] }), /has no `files` list of at least one file$/],
    ['with a file that is not a path and a text', () => JSON.stringify({ ...sources, files: [{ path: 'world.adec', text: 1 }] }), /`files\[0\]` is not a `\{ "path", "text" \}` object of strings$/],
    ...['/etc/world.adec', '../world.adec', 'skills/../world.adec', './world.adec', 'world.txt', 'skills\\x.adec', 'a//b.adec', ''].map(
      (path) => [`with path ${JSON.stringify(path)}`, () => JSON.stringify({ ...sources, files: [{ path, text: 'x' }] }), /`files\[0\]` has path .*: expected a relative path of a \.adec file/] as const,
    ),
    ['with files out of order', () => JSON.stringify({ ...sources, files: [...sources.files].reverse() }), /not after .*: paths are unique and sorted$/],
    ['with a file twice', () => JSON.stringify({ ...sources, files: [sources.files[0], sources.files[0]] }), /not after .*: paths are unique and sorted$/],
    ['whose source_hash is not its files\'', () => JSON.stringify({ ...sources, source_hash: `sha256:${'0'.repeat(64)}` }), /has `source_hash` "sha256:0+", but its files hash to `sha256:[0-9a-f]{64}`$/],
    ['with one character of one file changed and the hash left', () => JSON.stringify({ ...sources, files: sources.files.map((f, i) => (i === 0 ? { ...f, text: `${f.text} ` } : f)) }), /but its files hash to/],
  ])('%s: refused as invalid, naming the problem', async (_, text, message) => {
    expect(await refused({ sources: text() }, 'SOURCES_INVALID')).toMatch(message);
  });

  it('never throws, and refuses what is not a sources file, on any JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const result = await rebuildBundle(carried(artifacts, { sources: JSON.stringify(value) }));
        expect(result).toMatchObject({ ok: false, code: 'SOURCES_INVALID' });
      }),
      { numRuns: 200 },
    );
  });

  it('other sources, consistently hashed, are not the manifest\'s', async () => {
    const swapped = sourcesWith(sources.files.map((f, i) => (i === 0 ? { ...f, text: `${f.text}\n` } : f)));
    expect(await refused({ sources: swapped }, 'SOURCES_NOT_IN_MANIFEST')).toMatch(/^`build\/sources\.json` holds sources `sha256:[0-9a-f]{64}`, but manifest\.json was built from `sha256:[0-9a-f]{64}`$/);
  });

  it('a bundle claiming sources it was not built from does not rebuild to itself', async () => {
    const files = sources.files.map((f) => ({ ...f, text: f.text.replace('At least 1 rest day', 'At least one rest day') }));
    const other = sourcesWith(files);
    const manifest = withManifest(artifacts.manifestJson, { source_hash: (JSON.parse(other) as { source_hash: string }).source_hash });
    expect(await refused({ sources: other, manifest }, 'REBUILD_DIFFERS')).toMatch(/^bundle\.js is not what its sources build: they differ from line \d+, column \d+ \(the bundle has "1 rest day/);
  });

  it('sources that differ only where the bundle does not (a comment) rebuild to the same bundle: what is approved is the module', async () => {
    const files = sources.files.map((f) => (f.path === 'world.adec' ? { ...f, text: `${f.text}\n// a comment\n` } : f));
    const other = sourcesWith(files);
    const manifest = withManifest(artifacts.manifestJson, { source_hash: (JSON.parse(other) as { source_hash: string }).source_hash });
    expect(await rebuildBundle(carried(artifacts, { sources: other, manifest }))).toMatchObject({ ok: true });
  });

  it('sources that do not build are refused with their first error, named under the sources file', async () => {
    const broken = sourcesWith(sources.files.map((f) => (f.path === 'world.adec' ? { ...f, text: `${f.text}\nthis is not adec\n` } : f)));
    const manifest = withManifest(artifacts.manifestJson, { source_hash: (JSON.parse(broken) as { source_hash: string }).source_hash });
    expect(await refused({ sources: broken, manifest }, 'REBUILD_FAILED')).toMatch(/^the sources in `build\/sources\.json` do not build \(\d+ errors\), the first: build\/sources\.json\/world\.adec:\d+:\d+: ADEC\d{4}: /);
  });

  it('a bundle built by another compiler version is not rebuilt by this one', async () => {
    const manifest = withManifest(artifacts.manifestJson, { compiler: { name: 'adec', version: '0.0.1' } });
    expect(await refused({ manifest }, 'COMPILER_VERSION_DIFFERS')).toBe(`the bundle was built by adec 0.0.1 and this is adec ${COMPILER_VERSION}: approve it with the compiler that built it`);
  });
});
