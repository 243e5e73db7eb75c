/**
 * docs/diagnostics/ cannot drift: the pages are regenerated in memory from the catalogue, the
 * explanations, the fixtures, their baselines and the fixes, and must equal the committed ones;
 * every catalogued code has a page; every fix a page shows checks with no diagnostics at all.
 * test/diagnostics/fixes/README.md says how to add a code's page.
 */
import { readFileSync } from 'node:fs';
import { checkSources } from '@adec/compiler';
import { DIAGNOSTIC_CODES, renderDiagnostics } from '@adec/diagnostics';
import { describe, expect, it } from 'vitest';
import {
  BASELINES_DIR,
  committedPages,
  diagnosticPages,
  DOCS_DIR,
  FIXES_DIR,
  FIXTURES_DIR,
  listFixtures,
  readExplanations,
  worldFiles,
} from '../../scripts/generate-diagnostic-docs.mjs';
import { REPO_ROOT, repoPath } from '../support/repo.js';

interface Explanation {
  readonly fixture: string | null;
  readonly text: string;
}

const explanations = readExplanations() as Map<string, Explanation>;

/** Checks a world of the repository (a fixture or a fix) and renders what `adec check` would print. */
function check(pathWithoutExtension: string) {
  const files = worldFiles(REPO_ROOT, pathWithoutExtension) as { path: string; text: string }[] | undefined;
  if (files === undefined) throw new Error(`${pathWithoutExtension}(.adec) does not exist`);
  const sources = { root: pathWithoutExtension, files };
  const { diagnostics } = checkSources(sources);
  const text = new Map(files.map((f) => [f.path, f.text]));
  return { codes: [...new Set(diagnostics.map((d) => d.code))], rendered: renderDiagnostics(diagnostics, (file) => text.get(file)) };
}

describe('diagnostic pages', () => {
  it('every catalogued code has an explanation, and every explanation is of a catalogued code', () => {
    expect([...explanations.keys()].sort(), `test/diagnostics/fixes/explanations.md`).toEqual([...DIAGNOSTIC_CODES]);
  });

  it('every catalogued code has a page, linked from the index', () => {
    const pages = committedPages() as Map<string, string>;
    const index = pages.get(`${DOCS_DIR}/README.md`) ?? '';
    for (const code of DIAGNOSTIC_CODES) {
      expect(pages.has(`${DOCS_DIR}/${code}.md`), `${code} has no page: run \`npm run docs\``).toBe(true);
      expect(index).toContain(`[${code}](${code}.md)`);
    }
  });

  it('the committed pages are exactly what the generator writes (else run `npm run docs`)', () => {
    const generated = diagnosticPages() as Map<string, string>;
    const committed = committedPages() as Map<string, string>;
    expect([...committed.keys()].sort(), 'pages to add or delete: run `npm run docs`').toEqual([...generated.keys()].sort());
    for (const [path, text] of generated) expect(committed.get(path), `${path} is out of date: run \`npm run docs\``).toBe(text);
  });

  it('only the codes that no baseline shows have no example (`fixture: none`)', () => {
    const shown = new Set(listFixtures().flatMap((f: { codes: string[] }) => f.codes));
    const withoutExample = DIAGNOSTIC_CODES.filter((code) => explanations.get(code)?.fixture === null);
    expect(withoutExample).toEqual(DIAGNOSTIC_CODES.filter((code) => !shown.has(code)));
  });
});

describe('the example and fix of each page', () => {
  for (const code of DIAGNOSTIC_CODES) {
    const fixture = explanations.get(code)?.fixture;
    if (fixture === undefined || fixture === null) continue;

    describe(`${code}: ${fixture}`, () => {
      it('is a fixture whose first line names the code, whose baseline shows it, and which reports it', () => {
        const files = worldFiles(REPO_ROOT, `${FIXTURES_DIR}/${fixture}`) as { text: string }[] | undefined;
        expect(files, `${FIXTURES_DIR}/${fixture} does not exist`).toBeDefined();
        expect(files![0]!.text.split('\n', 1)[0]).toMatch(new RegExp(`^// .*${code}.*:`));
        expect(readFileSync(repoPath(BASELINES_DIR, `${fixture}.errors.txt`), 'utf8')).toMatch(new RegExp(`^\\S+:\\d+:\\d+: (error|warning) ${code}:`, 'm'));
        expect(check(`${FIXTURES_DIR}/${fixture}`).codes).toContain(code);
      });

      it('has a fix that checks with no diagnostics', () => {
        const { rendered } = check(`${FIXES_DIR}/${fixture}`);
        expect(rendered, `${FIXES_DIR}/${fixture} must check clean`).toBe('');
      });
    });
  }
});
