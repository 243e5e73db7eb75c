/**
 * Fenced code blocks of the Markdown pages under docs/, with their info strings read the way
 * the docs tests use them:
 *
 *   ```adec                      a whole world: checks with no diagnostics (and its tests pass)
 *   ```adec fragment             part of a world, shown for reading: not checked on its own
 *   ```adec reports=ADEC3007     a world that `adec check` reports these codes for (comma-separated)
 *   ```adec file=refunds/world.adec     a page that runs: the reader writes this file here (any language)
 *   ```adec excerpt=refunds/world.adec  a page that runs: this text is part of that file
 *   ```sh                        a page that runs: commands the reader runs, in order (`sh exit=1`: expected to fail)
 *   ```output                    a page that runs: what the sh block before it prints (`…` elides)
 *   ```console                   commands shown, never run (setting adec up, say)
 *
 * The pages that run are the tutorial and the language guide's worked example (RUN_PAGES;
 * page-commands.ts runs them). The first word is the language; the others are flags or
 * `key=value` attributes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { repoPath } from '../support/repo.js';

/** The pages whose `sh` blocks are run, with the files they write (page-commands.ts). */
export const RUN_PAGES: readonly string[] = ['docs/tutorial.md', 'docs/language-guide.md'];

export interface FencedBlock {
  /** Repo-relative path of the page. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly flags: ReadonlySet<string>;
  readonly attributes: ReadonlyMap<string, string>;
  /** The block's lines, each ending in a newline. */
  readonly text: string;
}

/** Every fenced block of `markdown`, in order. */
export function fencedBlocks(markdown: string, page: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]!); j++) body.push(lines[j]!.replace(new RegExp(`^ {0,${indent.length}}`), ''));
    const [language = '', ...words] = info.trim().split(/\s+/).filter((w) => w !== '');
    blocks.push({
      page,
      line: i + 1,
      language,
      flags: new Set(words.filter((w) => !w.includes('='))),
      attributes: new Map(words.filter((w) => w.includes('=')).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] as const)),
      text: body.map((l) => `${l}\n`).join(''),
    });
    i = j;
  }
  return blocks;
}

/** Every Markdown page below `docs/`, repo-relative, sorted. */
export function docsPages(dir = 'docs'): string[] {
  const pages: string[] = [];
  for (const entry of readdirSync(repoPath(dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) pages.push(...docsPages(path));
    else if (entry.name.endsWith('.md')) pages.push(path);
  }
  return pages.sort();
}

export function pageBlocks(page: string): FencedBlock[] {
  return fencedBlocks(readFileSync(repoPath(page), 'utf8'), page);
}

/** `docs/guide.md:42`: where a block is, for failure messages. */
export function where(block: FencedBlock): string {
  return `${block.page}:${block.line}`;
}
