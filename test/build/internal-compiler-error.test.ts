/**
 * A generated module that fails its own checks is a bug in adec: the build must say so as
 * an internal compiler error, produce no artifacts, and hand back the module for the report.
 */
import { describe, expect, it } from 'vitest';
import { buildWorld, type ModuleGenerator } from '@adec/compiler';

const WORLD = `world { org "acme" domain "hr" version "1.0.0" }
context { supplied age: int }
action a {
  rule old { outcome RED severity t1 when age > 99 reason "over 99" }
}
`;

/** A generator with a bug: its module reads the clock. */
const brokenGenerator: ModuleGenerator = async () => ({
  source: 'export const now = Date.now();\n',
  problems: ['1:20 forbidden construct `Date`: reads the clock (non-deterministic) (line 1)'],
});

describe('an internal compiler error', () => {
  it('is reported as ADEC9001 with the problems, and keeps the rejected module', async () => {
    const result = await buildWorld({ root: 'w', files: [{ path: 'w/main.adec', text: WORLD }] }, { generator: brokenGenerator });
    expect(result.artifacts).toBeUndefined();
    expect(result.rejectedModuleSource).toBe('export const now = Date.now();\n');
    expect(result.diagnostics).toMatchObject([
      {
        code: 'ADEC9001',
        severity: 'error',
        message: 'internal compiler error: the generated module failed its own checks',
        notes: ['1:20 forbidden construct `Date`: reads the clock (non-deterministic) (line 1)'],
        help: 'this is a bug in adec, not in your world: please report it with the generated module',
        span: { file: 'w/main.adec', line: 1, column: 1 },
      },
    ]);
  });
});
