/**
 * Completion knows every word of the language: each keyword the lexer defines
 * (grammar/src/tokens.ts, read from the module) is offered by completion somewhere, so a
 * keyword added to the language and not to the server fails here.
 */
import type { TokenType } from 'chevrotain';
import { expect, test } from 'vitest';
import { allTokens, keywordText } from '../../../grammar/src/tokens.js';
import { ALL_KEYWORDS } from '../src/features/keywords.js';

test('every keyword of the lexer is a completion keyword', () => {
  const spellings = allTokens.filter((t: TokenType) => keywordText.has(t)).flatMap((t) => (t.PATTERN as RegExp).source.split('|'));
  expect(spellings.length).toBeGreaterThan(60);
  expect(spellings.filter((s) => !ALL_KEYWORDS.has(s))).toEqual([]);
});
