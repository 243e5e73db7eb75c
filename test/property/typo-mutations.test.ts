/**
 * Issue 13's acceptance for diagnostics: every one-character typo of the example worlds (one per
 * token, typo-mutations.ts) is rejected with an error on the line where it was made (at least
 * 97%), and keyword typos (at least 90%) and name typos (all) get a did-you-mean that names the
 * original. The figures and every miss are recorded in TYPO-MUTATIONS.md; `npm run typo-report`
 * (ADEC_UPDATE_TYPO_REPORT=1) rewrites it, and this test fails when it is not current.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadWorldFromDir, repoPath } from '../support/repo.js';
import { rate, renderTypoReport, typoFigures } from './typo-mutation-report.js';
import { judge, validWords, worldMutations, type TypoVerdict } from './typo-mutations.js';

const WORLDS = ['examples/benefits', 'examples/fitness'];
const REPORT = 'test/property/TYPO-MUTATIONS.md';
const UPDATE = process.env['ADEC_UPDATE_TYPO_REPORT'] === '1';

const verdicts: TypoVerdict[] = WORLDS.flatMap((path) => {
  const world = loadWorldFromDir(path);
  const valid = validWords(world);
  return worldMutations(world).map((mutation) => judge(world, mutation, valid));
});
const figures = typoFigures(verdicts);
const byCategory = new Map(figures.categories.map((f) => [f.category, f]));
const report = renderTypoReport(verdicts, WORLDS);

describe('one-character typos of the example worlds', () => {
  it('cover every category with enough typos to measure', () => {
    for (const f of figures.categories) expect(f.mutations, f.category).toBeGreaterThanOrEqual(5);
  });

  it('are rejected with an error on the mutated line (at least 97%)', () => {
    expect(rate(figures.total.rejectedOnLine, figures.total), REPORT).toBeGreaterThanOrEqual(0.97);
  });

  it('of keywords get a did-you-mean naming the original (at least 90%)', () => {
    const keyword = byCategory.get('keyword')!;
    expect(rate(keyword.didYouMean, keyword), REPORT).toBeGreaterThanOrEqual(0.9);
  });

  it('of names all get a did-you-mean naming the original', () => {
    const name = byCategory.get('name')!;
    expect(rate(name.didYouMean, name), REPORT).toBe(1);
  });

  it('never get a diagnostic that names an internal of adec', () => {
    const leaks = verdicts.filter((v) => v.internalName !== undefined);
    expect(leaks.map((v) => `${v.mutation.file}:${v.mutation.line} ${v.mutation.original} → ${v.mutation.replacement}: ${v.internalName}`)).toEqual([]);
  });

  it(`are recorded in ${REPORT}`, () => {
    const file = repoPath(REPORT);
    if (UPDATE) writeFileSync(file, report);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '', `${REPORT} is not current: run \`npm run typo-report\``).toBe(report);
  });
});
