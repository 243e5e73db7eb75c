/**
 * ARCHITECTURE.md's tables cannot drift from what they describe: the package table lists every
 * npm workspace of the root package.json, in its order, under its package name; the route table
 * of "HTTP service" lists exactly the operations of the OpenAPI document the server serves
 * (packages/server/test/decide-http.test.ts holds that document to the routes the app registers).
 */
import { readFileSync } from 'node:fs';
import { OPENAPI_DOCUMENT } from '@adec/server';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../support/repo.js';

const ARCHITECTURE = readFileSync(repoPath('ARCHITECTURE.md'), 'utf8');

/** The text of a `## heading` section, up to the next `## `. */
function section(heading: string): string {
  const start = ARCHITECTURE.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no section "${heading}"`);
  const end = ARCHITECTURE.indexOf('\n## ', start + 1);
  return ARCHITECTURE.slice(start, end < 0 ? undefined : end);
}

/** The cells of each body row of the Markdown tables in `text` (header and rule rows left out). */
function tableRows(text: string): string[][] {
  const rows = text.split('\n').filter((line) => line.startsWith('|'));
  return rows
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()))
    .filter((cells, i, all) => !/^-+$/.test(cells[0]!) && !/^-+$/.test(all[i + 1]?.[0] ?? ''));
}

describe('ARCHITECTURE.md "Packages"', () => {
  const workspaces = (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  const rows = tableRows(section('Packages')).map(([name = '', path = '']) => ({ name: name.replace(/`/g, ''), path: /\]\(([^)]+?)(?:\/README\.md)?\)/.exec(path)?.[1] ?? path }));

  it('lists every workspace of package.json, in its order', () => {
    expect(rows.map((row) => row.path)).toEqual(workspaces);
  });

  it('names each by its package name', () => {
    for (const row of rows) {
      const manifest = JSON.parse(readFileSync(repoPath(row.path, 'package.json'), 'utf8')) as { name: string };
      expect(row.name, row.path).toBe(manifest.name);
    }
  });
});

describe('ARCHITECTURE.md "HTTP service"', () => {
  it('lists exactly the routes of the OpenAPI document', () => {
    const listed = tableRows(section('HTTP service')).map(([method = '', path = '']) => `${method} ${path.replace(/`/g, '')}`);
    const served = Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect([...listed].sort()).toEqual([...served].sort());
    expect(new Set(listed).size, 'a route is listed twice').toBe(listed.length);
  });
});
