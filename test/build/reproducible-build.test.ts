import { mkdtempSync, cpSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildWorld, loadWorld, isWorldLoadError, writeBuild, type WorldSources } from '@adec/compiler';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

async function load(dir: string, cwd: string): Promise<WorldSources> {
  const sources = await loadWorld(dir, cwd);
  if (isWorldLoadError(sources)) throw new Error(sources.problem);
  return sources;
}

/** Copies an example into a fresh directory, so each build starts from a clean state. */
function freshCopy(example: string): string {
  const root = mkdtempSync(join(tmpdir(), 'adec-repro-'));
  cpSync(join(REPO, 'examples', example), join(root, example), {
    recursive: true,
    filter: (source) => !source.includes(`${example}/build`),
  });
  return root;
}

async function buildInto(root: string, example: string): Promise<Record<string, string>> {
  const result = await buildWorld(await load(example, root));
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const out = join(root, 'out');
  await writeBuild(result.artifacts!, out);
  return Object.fromEntries(readdirSync(out).map((file) => [file, readFileSync(join(out, file), 'utf8')]));
}

describe.each(['benefits', 'fitness'])('building examples/%s', (example) => {
  it('gives byte-identical artifacts and the same module_hash from two clean states', async () => {
    const first = await buildInto(freshCopy(example), example);
    const second = await buildInto(freshCopy(example), example);
    expect(Object.keys(first).sort()).toEqual(['bundle.js', 'manifest.json', 'module.ts', 'sources.json', 'types.d.ts']);
    expect(second).toEqual(first);
    const manifest = JSON.parse(first['manifest.json']!) as { module_hash: string; abi_version: number };
    expect(manifest.abi_version).toBe(2);
    expect(manifest.module_hash).toBe(`sha256:${createHash('sha256').update(first['bundle.js']!).digest('hex')}`);
  });
});

describe('the module hash', () => {
  it('changes when one character of one rule changes', async () => {
    const root = freshCopy('benefits');
    const before = JSON.parse((await buildInto(root, 'benefits'))['manifest.json']!) as { module_hash: string; source_hash: string };

    // Find a rule's numeric threshold and change one digit of it.
    const sources = await load('benefits', root);
    const file = sources.files.find((f) => /when[^\n]*\b\d+\b/.test(f.text))!;
    const edited = file.text.replace(/(when[^\n]*?\b)(\d)(\d*\b)/, (_, a: string, digit: string, rest: string) => `${a}${digit === '9' ? '8' : String(Number(digit) + 1)}${rest}`);
    expect(edited).not.toBe(file.text);
    expect(edited.length).toBe(file.text.length);
    writeFileSync(join(root, file.path), edited);

    const after = JSON.parse((await buildInto(root, 'benefits'))['manifest.json']!) as { module_hash: string; source_hash: string };
    expect(after.module_hash).not.toBe(before.module_hash);
    expect(after.source_hash).not.toBe(before.source_hash);
  });
});
