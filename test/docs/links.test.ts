/**
 * Relative links in the documentation lead somewhere: to a file or directory of the repository
 * and, when they name a `#section` of a Markdown page, to a heading of that page (anchors as
 * GitHub makes them). Covers docs/, ARCHITECTURE.md and the READMEs that cite it. The code's
 * comments cite ARCHITECTURE.md sections by name (`ARCHITECTURE.md "Composition root"`): each
 * name is a heading there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../support/repo.js';
import { docsPages } from './markdown-blocks.js';

const PAGES = [
  ...docsPages(),
  'ARCHITECTURE.md',
  'README.md',
  'CONTRIBUTING.md',
  'grammar/README.md',
  ...readdirSync(repoPath('packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(repoPath(path))),
];

/** The page's text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** The anchors GitHub gives a page's headings: lowercased, punctuation dropped, spaces to `-`. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('links in the documentation', () => {
  for (const page of PAGES) {
    it(`${page}: every relative link and anchor exists`, () => {
      const text = readFileSync(repoPath(page), 'utf8');
      const broken: string[] = [];
      for (const target of links(text)) {
        const [path = '', anchor] = target.split('#', 2);
        const file = path === '' ? page : normalize(join(dirname(page), decodeURIComponent(path)));
        if (!existsSync(repoPath(file))) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (anchor === undefined || !file.endsWith('.md') || statSync(repoPath(file)).isDirectory()) continue;
        if (!anchors(readFileSync(repoPath(file), 'utf8')).has(anchor)) broken.push(`${target}: no such section in ${file}`);
      }
      expect(broken).toEqual([]);
    });
  }
});

/** Every `.ts` file below `dir` (repo-relative), skipping build output and dependencies. */
function sourceFiles(dir: string): string[] {
  return readdirSync(repoPath(dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('citations of ARCHITECTURE.md sections in the code', () => {
  it('name headings of ARCHITECTURE.md', () => {
    const headings = new Set(
      [...readFileSync(repoPath('ARCHITECTURE.md'), 'utf8').matchAll(/^#{2,3} +(?:\d+\. +)?(.+?) *$/gm)].map((m) => m[1]!),
    );
    const roots = ['grammar/src', ...readdirSync(repoPath('packages')).map((name) => `packages/${name}/src`).filter((dir) => existsSync(repoPath(dir)))];
    const cited = roots.flatMap(sourceFiles).flatMap((file) =>
      [...readFileSync(repoPath(file), 'utf8').matchAll(/ARCHITECTURE\.md,? \(?"([^"]+)"/g)].map((m) => ({ file, section: m[1]! })),
    );
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter(({ section }) => !headings.has(section)).map(({ file, section }) => `${file}: "${section}"`)).toEqual([]);
  });
});
