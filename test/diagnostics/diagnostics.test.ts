/**
 * Golden tests for what users read: every invalid-world fixture in `fixtures/` is checked
 * and its rendered diagnostics — exactly what `adec check` prints — are compared with
 * `baselines/<fixture>.errors.txt`. `npm run baselines` (ADEC_UPDATE_BASELINES=1) rewrites
 * the baselines; review the diff like code.
 *
 * A fixture's first line names the code(s) it is about: `// ADEC3004: CONTAINS_ANY with …`.
 * The fixture must report those codes and nothing else, so a baseline stays about one thing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSources, type WorldSources } from '@adec/compiler';
import { DIAGNOSTIC_CODES, renderDiagnostics } from '@adec/diagnostics';
import { describe, expect, it } from 'vitest';
import { byteOrder, loadWorldFromDir, repoPath, sourceLookup } from '../support/repo.js';

const FIXTURES = 'test/diagnostics/fixtures';
const BASELINES = 'test/diagnostics/baselines';
const UPDATE = process.env['ADEC_UPDATE_BASELINES'] === '1';

/**
 * Codes no fixture file can show: ADEC9001 means a bug in adec; ADEC1009 (a lone surrogate) is
 * text no UTF-8 file can hold, only a string handed to the compiler's API
 * (test/security/world-strings.test.ts renders it).
 */
const UNREACHABLE_FROM_A_WORLD = new Set(['ADEC9001', 'ADEC1009']);

interface Fixture {
  /** `0042-enum-non-member`: the file name without `.adec`, or the directory name. */
  readonly name: string;
  /** Repo-relative path of the `.adec` file or the directory. */
  readonly path: string;
}

function listFixtures(): Fixture[] {
  return readdirSync(repoPath(FIXTURES))
    .filter((entry) => entry.endsWith('.adec') || statSync(repoPath(FIXTURES, entry)).isDirectory())
    .sort(byteOrder)
    .map((entry) => ({ name: entry.replace(/\.adec$/, ''), path: `${FIXTURES}/${entry}` }));
}

/** The codes named by the first line of the fixture's first file: `// ADEC1001, ADEC1002: …`. */
function intendedCodes(firstLine: string): string[] {
  const match = /^\/\/\s*((?:ADEC\d{4}\s*,?\s*)+):/.exec(firstLine);
  return match === null ? [] : (match[1]!.match(/ADEC\d{4}/g) ?? []);
}

function baselinePath(fixture: Fixture): string {
  return repoPath(BASELINES, `${fixture.name}.errors.txt`);
}

function check(sources: WorldSources) {
  const result = checkSources(sources);
  return { result, rendered: renderDiagnostics(result.diagnostics, sourceLookup(sources)) };
}

/** Checks once, on first use inside a test, so a crash fails that fixture's tests only. */
function lazily<T>(compute: () => T): () => T {
  let value: { readonly v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}

const fixtures = listFixtures();

describe('invalid-world fixtures', () => {
  it('there are fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(70);
  });

  for (const fixture of fixtures) {
    describe(fixture.name, () => {
      const sources = loadWorldFromDir(fixture.path);
      const firstLine = sources.files[0]?.text.split('\n', 1)[0] ?? '';
      const intended = intendedCodes(firstLine);
      const checked = lazily(() => {
        const { result, rendered } = check(sources);
        return { result, rendered, reported: [...new Set(result.diagnostics.map((d) => d.code))].sort() };
      });

      it('names the code it is about on its first line', () => {
        expect(intended, `first line of ${fixture.path} must read "// ADECnnnn: intent"`).not.toEqual([]);
      });

      it('reports the code(s) its first line names', () => {
        const { reported, rendered } = checked();
        for (const code of intended) expect(reported, rendered).toContain(code);
      });

      it('reports nothing else', () => {
        const { reported, rendered } = checked();
        expect(reported.filter((code) => !intended.includes(code)), rendered).toEqual([]);
      });

      it('has no checked world when it reports an error', () => {
        const { result } = checked();
        const hasError = result.diagnostics.some((d) => d.severity === 'error');
        expect(result.world === undefined).toBe(hasError);
      });

      it('matches its baseline', () => {
        const { rendered } = checked();
        const file = baselinePath(fixture);
        if (UPDATE) {
          mkdirSync(repoPath(BASELINES), { recursive: true });
          writeFileSync(file, rendered);
          return;
        }
        expect(existsSync(file), `no baseline for ${fixture.name}: run \`npm run baselines\``).toBe(true);
        expect(rendered).toBe(readFileSync(file, 'utf8'));
      });
    });
  }
});

describe('baselines', () => {
  it('every catalogued code is shown by at least one baseline', () => {
    const shown = new Set<string>();
    for (const entry of readdirSync(repoPath(BASELINES))) {
      const text = readFileSync(join(repoPath(BASELINES), entry), 'utf8');
      for (const match of text.matchAll(/^\S+:\d+:\d+: (?:error|warning) (ADEC\d{4}):/gm)) shown.add(match[1]!);
    }
    const uncovered = DIAGNOSTIC_CODES.filter((code) => !shown.has(code) && !UNREACHABLE_FROM_A_WORLD.has(code));
    expect(uncovered, `codes without a fixture: ${uncovered.join(', ')}`).toEqual([]);
  });

  it('every baseline belongs to a fixture', () => {
    const names = new Set(fixtures.map((f) => `${f.name}.errors.txt`));
    const stale = readdirSync(repoPath(BASELINES)).filter((entry) => !names.has(entry));
    expect(stale, 'baselines without a fixture (delete them)').toEqual([]);
  });
});

describe('examples', () => {
  for (const example of ['examples/benefits', 'examples/fitness']) {
    it(`${example} checks without errors or warnings`, () => {
      const { result, rendered } = check(loadWorldFromDir(example));
      expect(rendered).toBe('');
      expect(result.world).toBeDefined();
    });
  }
});
