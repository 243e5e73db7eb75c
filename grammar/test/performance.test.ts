import { parseSource } from '@adec/grammar';
import { describe, expect, it } from 'vitest';

/** A world of `count` rules in the style of LANGUAGE.md (~150 bytes per rule). */
function largeWorld(count: number): string {
  const rules: string[] = [];
  for (let i = 0; i < count; i++) {
    rules.push(`  rule r${i} {
    outcome  YELLOW
    severity t2
    when     relationship == "child" and age >= ${i % 90} and not (student ?? false)
    reason   "Rule ${i}: age {age}"
  }`);
  }
  return `world { org "acme" domain "perf" version "1.0.0" }\naction a {\n  aggregate winner_takes_all\n${rules.join('\n')}\n}\n`;
}

describe('performance', () => {
  it('parses a 10,000-rule world in well under two seconds', () => {
    const text = largeWorld(10_000);
    expect(text.length).toBeGreaterThan(1_400_000);
    parseSource('warmup.adec', largeWorld(100));
    const started = performance.now();
    const { file, diagnostics } = parseSource('large.adec', text);
    const elapsed = performance.now() - started;
    expect(diagnostics).toEqual([]);
    expect(file.declarations[1]).toMatchObject({ kind: 'ActionDecl' });
    // Typically ~0.5 s; the bound leaves room for a loaded CI machine.
    expect(elapsed).toBeLessThan(4_000);
  });
});
