/**
 * The TextMate grammar (syntaxes/adec.tmLanguage.json, JSON that cannot import the compiler)
 * highlights exactly the registry's built-in functions (packages/compiler/src/model/builtins.ts):
 * a function the registry has and the grammar's `functions` rule misses, or one the rule
 * names that the registry does not have, fails here by name.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BUILTIN_NAMES, isBuiltinName } from '@adec/compiler';

interface FunctionsRule {
  readonly match: string;
}

const grammar = JSON.parse(readFileSync(new URL('../syntaxes/adec.tmLanguage.json', import.meta.url), 'utf8')) as {
  readonly repository: { readonly functions: FunctionsRule };
};
const rule = grammar.repository.functions;

it('scopes a call of every built-in as a function', () => {
  // The rule's lookbehind and lookahead mean the same in JavaScript as in Oniguruma.
  const pattern = new RegExp(rule.match);
  const missing = BUILTIN_NAMES.filter((name) => pattern.exec(`x + ${name}(y)`)?.[1] !== name);
  expect(missing).toEqual([]);
});

it('names no function the language does not have', () => {
  const alternatives = /\(([\w|]+)\)/.exec(rule.match)?.[1]?.split('|') ?? [];
  expect(alternatives.length).toBeGreaterThan(0);
  expect(alternatives.filter((name) => !isBuiltinName(name))).toEqual([]);
});
