/**
 * Code and docs cite adec's own specifications (docs/spec/), never design documents a reader
 * cannot open. scripts/spec-citations.mjs holds the one table from each old reference to the
 * section that restates it; this test holds the tree to it:
 *
 * * no file of the repository cites an old document (file:line for each that does);
 * * every old citation anywhere in the repository has a rule, so `--write` leaves none behind;
 * * every `docs/spec/<page>.md §N` citation, today's and those `--write` would make, names a
 *   page and a section or statement that exist.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citationsIn, findCitations, readTextFile, rewriteCitations, textFiles } from '../../scripts/spec-citations.mjs';
import { repoPath } from '../support/repo.js';

interface Citation {
  readonly file: string;
  readonly line: number;
  readonly citation: string;
  readonly text: string;
}

/** The whole repository (scripts/spec-citations.mjs leaves out node_modules, dist and build output). */
const CITING_NOW = ['.'];

const SPEC_PAGES = ['adjudication', 'selection', 'skill-contract', 'contracts'] as const;

/** Per page, every number a citation may name: its sections (`3`, `3.4`) and statements (`3.4.2`). */
function citableNumbers(page: string): Set<string> {
  const text = readFileSync(repoPath('docs', 'spec', `${page}.md`), 'utf8');
  const sections = [...text.matchAll(/^#{2,3} §(\d+(?:\.\d+)?) /gm)].map((m) => m[1]!);
  const statements = [...text.matchAll(/^(?:- )?\*\*(\d+(?:\.\d+)+)\b/gm)].map((m) => m[1]!);
  return new Set([...sections, ...statements]);
}

/** Every text file of the repository that cites a document, old or new: `[path, text]`. */
function repositoryTexts(): [string, string][] {
  return (textFiles() as string[]).flatMap((file): [string, string][] => {
    const text = readTextFile(file);
    return text !== undefined && /docs\/spec\/|[Ss]eeds? 00|SEC |ADR-|IAE/.test(text) ? [[file, text]] : [];
  });
}

const CITABLE = new Map(SPEC_PAGES.map((page) => [page, citableNumbers(page)]));

/** `docs/spec/selection.md §3.2–§3.4, §6` → the page and each number it names; unknown ones listed. */
function unknownSpecReferences(text: string): string[] {
  const unknown: string[] = [];
  for (const match of text.matchAll(/docs\/spec\/([\w-]+)\.md((?:,? §\d+(?:\.\d+)*(?:–§\d+(?:\.\d+)*)?)*)/g)) {
    const [citation, page, sections] = [match[0], match[1]!, match[2]!];
    if (page === 'README') continue;
    const numbers = CITABLE.get(page as (typeof SPEC_PAGES)[number]);
    if (numbers === undefined) {
      unknown.push(`${citation}: no such page`);
      continue;
    }
    for (const [, number] of sections.matchAll(/§(\d+(?:\.\d+)*)/g)) if (!numbers.has(number!)) unknown.push(`${citation}: no §${number}`);
  }
  return unknown;
}

describe('citations of design documents', () => {
  it('the docs cite no document outside the repository', () => {
    const found = findCitations(CITING_NOW) as Citation[];
    expect(found.map((hit) => `${hit.file}:${hit.line}: ${hit.citation}`)).toEqual([]);
  });

  it('every citation left in the repository has a rule that rewrites it', () => {
    const unmapped = repositoryTexts().flatMap(([file, text]) =>
      (citationsIn(rewriteCitations(text).text) as Citation[]).map((hit) => `${file}:${hit.line}: ${hit.citation}`),
    );
    expect(unmapped).toEqual([]);
  });

  it('every citation of docs/spec/, and every one the rewrite would make, names a section that exists', () => {
    for (const page of SPEC_PAGES) expect(CITABLE.get(page)!.size, `docs/spec/${page}.md has numbered sections`).toBeGreaterThan(10);
    const broken = repositoryTexts().flatMap(([file, text]) => unknownSpecReferences((rewriteCitations(text) as { text: string }).text).map((problem) => `${file}: ${problem}`));
    expect(broken).toEqual([]);
  });
});
