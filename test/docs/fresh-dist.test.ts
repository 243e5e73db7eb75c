/**
 * The check that stops a test run on a stale dist/ (test/support/fresh-dist-setup.ts): a
 * package whose sources changed after its last build is named, one built since is not.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { staleBuilds } from '../support/fresh-dist-setup.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A repository of one package, its source and its build stamped at the given times (s). */
function repository({ sourceAt, builtAt }: { sourceAt: number; builtAt?: number }): string {
  const root = mkdtempSync(join(tmpdir(), 'adec-fresh-dist-'));
  roots.push(root);
  const pkg = join(root, 'packages', 'runtime');
  mkdirSync(join(pkg, 'src', 'sandbox'), { recursive: true });
  mkdirSync(join(root, 'grammar'));
  const source = join(pkg, 'src', 'sandbox', 'pool.ts');
  writeFileSync(source, 'export {};\n');
  utimesSync(source, sourceAt, sourceAt);
  if (builtAt !== undefined) {
    mkdirSync(join(pkg, 'dist'));
    writeFileSync(join(pkg, 'dist', '.tsbuildinfo'), '{}');
    utimesSync(join(pkg, 'dist', '.tsbuildinfo'), builtAt, builtAt);
  }
  return root;
}

test('names a package whose sources changed after its build, or that was never built', () => {
  expect(staleBuilds(repository({ sourceAt: 2_000, builtAt: 1_000 }))).toEqual(['packages/runtime/src changed after packages/runtime/dist was built']);
  expect(staleBuilds(repository({ sourceAt: 2_000 }))).toEqual(['packages/runtime has never been built']);
});

test('passes a package built after its last change', () => {
  expect(staleBuilds(repository({ sourceAt: 1_000, builtAt: 2_000 }))).toEqual([]);
});
