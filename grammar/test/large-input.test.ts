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

// Parse speed is measured in bench/ (the compile benchmark), never asserted here.
describe('large input', () => {
  it('parses a 10,000-rule action (1.4 MB) without error or stack exhaustion', () => {
    const text = largeWorld(10_000);
    expect(text.length).toBeGreaterThan(1_400_000);
    const { file, diagnostics } = parseSource('large.adec', text);
    expect(diagnostics).toEqual([]);
    const action = file.declarations[1];
    expect(action).toMatchObject({ kind: 'ActionDecl' });
    expect(action?.kind === 'ActionDecl' && action.rules.length).toBe(10_000);
    expect(action?.kind === 'ActionDecl' && action.rules[9_999]?.span.line).toBe(4 + 9_999 * 6); // header, action, aggregate, then 6 lines a rule
  });
});
