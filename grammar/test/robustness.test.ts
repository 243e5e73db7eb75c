// parseSource must never throw and must keep every span inside the file, whatever the input.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSource } from '@adec/grammar';

const examples = ['benefits.adec', 'fitness-skill.adec', 'fitness-scenario.adec', 'benefits-test.adec'].map((name) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'),
);

function checkResult(text: string): void {
  const { file, diagnostics } = parseSource('fuzz.adec', text);
  expect(file.kind).toBe('SourceFile');
  for (const d of diagnostics) {
    expect(d.code).toMatch(/^ADEC10\d\d$/);
    expect(d.span.offset).toBeGreaterThanOrEqual(0);
    expect(d.span.endOffset).toBeLessThanOrEqual(text.length);
    expect(d.span.endOffset).toBeGreaterThanOrEqual(d.span.offset);
  }
}

describe('robustness', () => {
  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => checkResult(text)), { numRuns: 300 });
  });

  it('never throws on examples with a slice deleted, duplicated or replaced', () => {
    const mutation = fc.record({
      example: fc.integer({ min: 0, max: examples.length - 1 }),
      at: fc.nat(),
      length: fc.integer({ min: 0, max: 40 }),
      insert: fc.constantFrom('', '{', '}', '"', "'", '(', ')', '[', ']', 'rule', 'when', 'NOT', 'IS', '{x', '/*', ',', '5y', '?'),
    });
    fc.assert(
      fc.property(mutation, ({ example, at, length, insert }) => {
        const source = examples[example]!;
        const start = at % (source.length + 1);
        checkResult(source.slice(0, start) + insert + source.slice(start + length));
      }),
      { numRuns: 400 },
    );
  });
});
