/**
 * Every test file runs in exactly one vitest project (vitest.config.ts): a file no project
 * includes would never run, and one in two would run twice. And only the projects that reach a
 * PostgreSQL store start one.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import config from '../../vitest.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.work']);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

interface Project {
  readonly test: { readonly name: string; readonly include: string[]; readonly globalSetup: string[] };
}
const projects = (config.test?.projects ?? []) as unknown as Project[];

/** The folder of an include pattern, which is always `<folder>/**\/*.test.ts`. */
function folderOf(pattern: string): string {
  expect(pattern, 'every include is a folder of test files').toMatch(/^[\w./-]+\/\*\*\/\*\.test\.ts$/);
  return pattern.slice(0, -'**/*.test.ts'.length);
}

test('each test file is in exactly one project', () => {
  const files = testFiles(ROOT);
  expect(files.length).toBeGreaterThan(150);
  const owners = (file: string) => projects.filter((p) => p.test.include.some((pattern) => file.startsWith(folderOf(pattern)))).map((p) => p.test.name);
  expect(files.filter((file) => owners(file).length !== 1).map((file) => `${file}: ${owners(file).join(', ') || 'no project'}`)).toEqual([]);
});

test('PostgreSQL is started only for the projects whose tests reach it', () => {
  const withPostgres = projects.filter((p) => p.test.globalSetup.some((setup) => setup.includes('postgres'))).map((p) => p.test.name);
  expect(withPostgres).toEqual(['audit', 'server']);
});
