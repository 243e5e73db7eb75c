/**
 * `adec fmt` on every world in the repository: the examples, every diagnostics fixture (those
 * with syntax errors must be refused) and the other test worlds. Each file must format
 * idempotently, to the same AST, with the same comments, and each world must keep its
 * diagnostic codes (test/format/format-contract.ts). The examples are written in the
 * canonical layout: formatting them changes nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { formatSource, type WorldSources } from '@adec/compiler';
import { describe, expect, it } from 'vitest';
import { byteOrder, listAdecFiles, loadWorldFromDir, repoPath } from '../support/repo.js';
import { diagnosticCodes, expectFormatContract } from './format-contract.js';

const FIXTURES = 'test/diagnostics/fixtures';

function exampleWorlds(): WorldSources[] {
  return readdirSync(repoPath('examples'))
    .filter((entry) => statSync(repoPath('examples', entry)).isDirectory())
    .sort(byteOrder)
    .map((entry) => loadWorldFromDir(`examples/${entry}`));
}

function fixtureWorlds(): WorldSources[] {
  return readdirSync(repoPath(FIXTURES))
    .filter((entry) => entry.endsWith('.adec') || statSync(repoPath(FIXTURES, entry)).isDirectory())
    .sort(byteOrder)
    .map((entry) => loadWorldFromDir(`${FIXTURES}/${entry}`))
    .filter((world) => world.files.length > 0);
}

/** Every other directory of tests (the root test/ and each package's) holding .adec files, as a world. */
function otherTestWorlds(): WorldSources[] {
  const testRoots = [repoPath('test'), ...readdirSync(repoPath('packages')).map((name) => repoPath('packages', name, 'test')).filter((dir) => existsSync(dir))];
  const dirs = new Set(
    testRoots
      .flatMap((root) => listAdecFiles(root))
      .map((file) => relative(repoPath(), dirname(file)).split('\\').join('/'))
      .filter((dir) => !dir.startsWith(FIXTURES)),
  );
  return [...dirs].sort(byteOrder).map((dir) => ({ ...loadWorldFromDir(dir), files: loadWorldFromDir(dir).files.filter((f) => dirname(f.path) === dir) }));
}

describe('adec fmt on the example worlds', () => {
  const worlds = exampleWorlds();

  it('finds the examples', () => {
    expect(worlds.map((w) => w.root)).toEqual(expect.arrayContaining(['examples/benefits', 'examples/fitness']));
  });

  for (const world of worlds) {
    it(`${world.root}: idempotent, same AST, same comments, same diagnostics`, () => {
      const outcome = expectFormatContract(world, { codes: false });
      expect(outcome.refused).toBe(0);
      expect(diagnosticCodes(outcome.formatted)).toEqual(diagnosticCodes(world));
    });

    it(`${world.root}: already in the canonical layout`, () => {
      const unformatted = world.files.filter((file) => {
        const result = formatSource(file.path, file.text);
        return !result.ok || result.changed;
      });
      expect(unformatted.map((f) => f.path)).toEqual([]);
    });
  }
});

describe('adec fmt on the diagnostics fixtures', () => {
  const worlds = fixtureWorlds();
  let refused = 0;
  let formatted = 0;

  for (const world of worlds) {
    it(world.root === FIXTURES ? world.files[0]!.path : world.root, () => {
      const outcome = expectFormatContract(world);
      refused += outcome.refused;
      formatted += world.files.length - outcome.refused;
    });
  }

  it('formats most fixtures and refuses those with syntax errors', () => {
    expect(formatted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(5);
  });
});

describe('adec fmt on the other test worlds', () => {
  const worlds = otherTestWorlds();

  it('finds them', () => {
    expect(worlds.length).toBeGreaterThanOrEqual(2);
  });

  for (const world of worlds) {
    it(world.root, () => {
      expect(expectFormatContract(world).refused).toBe(0);
    });
  }
});
