/**
 * System attributes are typed as the runtime delivers them (issue 12, finding 11). A request
 * without a caller has no `authenticated_caller` (null): declaring it always present is
 * refused, reading it without a guard is refused, and a guarded read decides exactly with or
 * without a caller. Before, `system authenticated_caller: string` built, and every predicate
 * reading it threw at run time for anonymous requests.
 */
import { buildWorld, checkSources } from '@adec/compiler';
import { decide } from '@adec/runtime';
import { describe, expect, test } from 'vitest';
import { asTestBundle, loadTestBundle } from '../support/runtime.js';

function world(declaration: string, when: string): string {
  return `world { org "acme" domain "caller" version "1.0.0" }
context {
  supplied amount: int
  system   ${declaration}
}
action review {
  rule by_caller {
    outcome  RED
    severity t2
    when     ${when}
  }
}
`;
}

const errorsOf = (text: string) =>
  checkSources({ root: 'w', files: [{ path: 'w/world.adec', text }] })
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.span.line}:${d.span.column} ${d.message}`);

describe('authenticated_caller may be absent', () => {
  test.each([
    ['CONTAINS', 'authenticated_caller CONTAINS "batch"'],
    ['CONTAINS_ANY', 'authenticated_caller CONTAINS_ANY ["svc-", "batch"]'],
    ['in a list', 'authenticated_caller in ["a", "b"]'],
    ['MATCHES', 'authenticated_caller MATCHES "^svc-"'],
    ['LENGTH', 'authenticated_caller LENGTH > 3'],
  ])('declaring it always present is refused (%s)', (_name, when) => {
    expect(errorsOf(world('authenticated_caller: string', when))).toContain(
      'ADEC4022 4:34 system attribute `authenticated_caller` has type string, it must be string?',
    );
  });

  test.each([
    ['CONTAINS', 'authenticated_caller CONTAINS "batch"'],
    ['CONTAINS_ANY', 'authenticated_caller CONTAINS_ANY ["svc-", "batch"]'],
    ['MATCHES', 'authenticated_caller MATCHES "^svc-"'],
    ['LENGTH', 'authenticated_caller LENGTH > 3'],
  ])('reading it without a guard is refused at compile time (%s)', (_name, when) => {
    const errors = errorsOf(world('authenticated_caller: string?', when));
    expect(errors.some((e) => e.startsWith('ADEC3007 10:14 `authenticated_caller` may be absent (string?)')), errors.join('\n')).toBe(true);
  });

  test('a guarded read decides exactly with and without a caller, in a real isolate', async () => {
    const text = world('authenticated_caller: string?', '(authenticated_caller ?? "anonymous") MATCHES "^svc-" or (authenticated_caller IS NULL and amount > 100)');
    const built = await buildWorld({ root: 'w', files: [{ path: 'w/world.adec', text }] });
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const module = await loadTestBundle(asTestBundle(built.artifacts!));
    try {
      const cases: readonly [string | null, number, string][] = [
        [null, 50, 'GREEN'],
        [null, 500, 'RED'],
        ['svc-batch', 50, 'RED'],
        ['alice', 500, 'GREEN'],
      ];
      for (const [caller, amount, status] of cases) {
        const result = await decide(module, { action: 'review', context: { amount } }, { authenticatedCaller: caller });
        expect(result.ok && result.decision.status, `${caller} ${amount}`).toBe(status);
        expect(result.ok && result.decision.decision_metadata.errored_predicates).toEqual([]);
      }
    } finally {
      await module.evaluator.dispose();
    }
  });

  test('request_time and request_id are always delivered: declaring them optional is allowed, another type is not', () => {
    expect(errorsOf(world('request_time: timestamp?', 'amount > 1'))).toEqual([]);
    expect(errorsOf(world('request_id: string', 'amount > 1'))).toEqual([]);
    expect(errorsOf(world('request_id: int', 'amount > 1'))).toEqual(['ADEC4022 4:24 system attribute `request_id` has type int, it must be string']);
  });
});
