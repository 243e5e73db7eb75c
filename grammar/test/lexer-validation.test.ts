import { describe, expect, it } from 'vitest';
import { createLexer } from '../src/lexer.js';

// Production builds the lexer without Chevrotain's token validations (see createLexer): this
// test runs them, so a token defect (an unreachable pattern, a missing group) still fails.
describe('the lexer', () => {
  it('passes Chevrotain token validation', () => {
    expect(createLexer({ validate: true }).lexerDefinitionErrors).toEqual([]);
  });
});
