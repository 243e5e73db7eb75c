import { describe, expect, it } from 'vitest';
import { WorldParser } from '../src/parser.js';

// Production builds the parser with `skipValidations` (see WorldParserOptions): this test runs
// Chevrotain's grammar validations, so a grammar defect (an ambiguity, left recursion, a
// duplicate production index) still fails the build.
describe('WorldParser', () => {
  it('passes Chevrotain grammar validation', () => {
    const parser = new WorldParser({ validate: true });
    // Public at run time, but not in Chevrotain's type declarations.
    expect((parser as unknown as { definitionErrors: unknown[] }).definitionErrors).toEqual([]);
  });

  it('builds the same grammar with and without validation', () => {
    const validated = new WorldParser({ validate: true });
    const unvalidated = new WorldParser();
    expect(unvalidated.getSerializedGastProductions()).toEqual(validated.getSerializedGastProductions());
  });
});
