/**
 * A condition that is always false is allowed (with warning ADEC5002): the generated module
 * must still compile, even though TypeScript's narrowing sees the same contradiction.
 */
import { describe, expect, it } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { typecheckModule } from '../../packages/compiler/src/generate/index.js';

const world = (condition: string) => `world { org "acme" domain "hr" version "1.0.0" }
context {
  supplied relationship: "child" | "spouse"
  supplied note: string
}
action a {
  rule contradiction {
    outcome  RED
    severity t2
    when     ${condition}
  }
}
`;

describe('always-false comparisons', () => {
  it.each([
    'relationship == "child" and relationship == "spouse"',
    'note == "a" and note == "b"',
    'relationship != "child" and relationship == "child"',
    'not (relationship == "child" or note == "x") and relationship == "child"',
  ])('`%s` builds, with a warning and no internal compiler error', async (condition) => {
    const result = await buildWorld({ root: 'w', files: [{ path: 'w/main.adec', text: world(condition) }] });
    const reported = result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`);
    expect(reported).toContain('warning ADEC5002 this condition is always false');
    expect(reported.filter((line) => line.startsWith('error'))).toEqual([]);
    expect(result.artifacts?.bundle).toContain('contradiction');
  });

  it('still rejects a comparison of unrelated types, which only a generator bug could produce', () => {
    expect(typecheckModule('export const f = (age: number): boolean => age === ("5" as string);\n')).toEqual([
      "1:44 This comparison appears to be unintentional because the types 'number' and 'string' have no overlap. (TS2367)",
    ]);
  });
});
