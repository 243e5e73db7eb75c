/**
 * Runs an adjudication test through the runtime's `decide`, with the system values of the
 * test's `system` block. A test without one gets FIXED_REQUEST_TIME, and every test a fixed
 * request id, so a run is reproducible: the same world gives the same decisions every time.
 */
import type { CheckedTest } from '@adec/compiler';
import { decide, type LoadedModule } from '@adec/runtime';
import { compareDecision, expectedFacts } from './decision-expectations.js';
import type { AdjudicationOutcome } from './test-outcome.js';

type AdjudicationTest = Extract<CheckedTest, { kind: 'adjudication' }>;

/** The request_time of a test that does not set one. */
export const FIXED_REQUEST_TIME = '2026-01-01T00:00:00Z';

/** `requestId` is used unless the test's `system` block sets `request_id`. */
export async function runAdjudicationTest(module: LoadedModule, test: AdjudicationTest, requestId: string): Promise<AdjudicationOutcome> {
  const system = test.system;
  const text = (name: string) => (typeof system[name] === 'string' ? system[name] : undefined);
  const result = await decide(
    module,
    { action: test.action, context: test.context },
    {
      requestId: text('request_id') ?? requestId,
      // The checker accepted the timestamp with Date.parse, so Date.parse reads it the same way.
      requestTime: Date.parse(text('request_time') ?? FIXED_REQUEST_TIME),
      authenticatedCaller: text('authenticated_caller') ?? null,
    },
  );
  const expected = expectedFacts(test);
  const base = { kind: 'adjudication' as const, name: test.name, file: test.span.file, line: test.span.line, action: test.action, expected };
  if (!result.ok) return { ...base, passed: false, actual: null, failed: ['status'], decision: null, error: result.error.message };
  const { actual, failed } = compareDecision(expected, result.decision);
  return { ...base, passed: failed.length === 0, actual, failed, decision: result.decision, error: null };
}
