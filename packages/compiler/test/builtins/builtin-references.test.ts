/**
 * The documents that list the built-in functions name exactly the registry's
 * (src/model/builtins.ts): the language guide's expression table and the language reference's
 * "Built-in functions" table. A function added to the registry and not to a document, or left
 * in a document after it left the registry, fails here by name.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES, BUILTINS, builtin, isBuiltinName } from '../../src/model/index.js';

const repoFile = (path: string): string => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

/** The functions a Markdown text writes as calls: `clamp(x, lo, hi)` names `clamp`. */
function calledNames(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/`(\w+)\(/g)].map((m) => m[1]!))];
}

/** The registry's names a document misses and the names it has that the registry does not. */
function disagreement(documented: readonly string[]): { missing: string[]; extra: string[] } {
  return {
    missing: BUILTIN_NAMES.filter((name) => !documented.includes(name)),
    extra: documented.filter((name) => !isBuiltinName(name)),
  };
}

describe('documents list the registry\'s built-ins', () => {
  it('docs/language-guide.md: the "built-ins" and "durations" rows of the expression table', () => {
    const rows = repoFile('docs/language-guide.md')
      .split('\n')
      .filter((line) => /^\| (built-ins|durations) \|/.test(line));
    expect(rows).toHaveLength(2);
    expect(disagreement(calledNames(rows.join('\n')))).toEqual({ missing: [], extra: [] });
  });

  it('grammar/README.md: the "Built-in functions" table', () => {
    const reference = repoFile('grammar/README.md');
    const section = /### Built-in functions\n([\s\S]*?)\n#/.exec(reference)?.[1] ?? '';
    const table = section.split('\n').filter((line) => line.startsWith('| `'));
    expect(table.length).toBeGreaterThan(0);
    expect(disagreement(calledNames(table.join('\n')))).toEqual({ missing: [], extra: [] });
  });

  it('each document writes a function with as many arguments as the registry gives it', () => {
    const texts = [repoFile('docs/language-guide.md'), repoFile('grammar/README.md')].join('\n');
    const wrong = [...texts.matchAll(/`(\w+)\(([^)`]*)\)`/g)]
      .filter((m) => isBuiltinName(m[1]!) && m[2]!.split(',').length !== builtin(m[1]).parameters.length)
      .map((m) => m[0]);
    expect(wrong).toEqual([]);
  });
});

describe('the registry', () => {
  it('gives each implementation as many parameters as the checker requires arguments', () => {
    const mismatched = BUILTIN_NAMES.filter((name) => builtin(name).apply.length !== builtin(name).parameters.length);
    expect(mismatched).toEqual([]);
  });

  it('computes the values the language guide promises', () => {
    expect(BUILTINS.in_days.apply(36 * 3_600_000)).toBe(1.5);
    expect(BUILTINS.days.apply(1.5)).toBe(36 * 3_600_000);
    expect(BUILTINS.seconds.apply(0.0004)).toBe(0);
    expect(BUILTINS.clamp.apply(12, 0, 10)).toBe(10);
  });
});
