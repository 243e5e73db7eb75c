/**
 * Decisions recorded before a request over a limit became a refusal (issue 26, finding 9) were
 * a YELLOW with basis REQUEST_LIMIT. Such a record still replays identically, with the refusal
 * taken as recorded (recorded-faults.ts): the limits were the recording host's configuration,
 * not the world's logic. A new request over a limit is refused, never decided.
 */
import { decide, DEFAULT_REQUEST_LIMITS, replayDecision, type Decision, type LoadedModule } from '@adec/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { asTestBundle, buildFixture, loadTestBundle } from '../../../test/support/runtime.js';

const ACTION = 'add_dependent';
const RED_REQUEST = { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] };
const ENTRY = { requestId: 'recorded-1', requestTime: Date.parse('2026-03-01T09:00:00Z'), authenticatedCaller: 'agent-7' };

let module: LoadedModule;
beforeAll(async () => {
  module = await loadTestBundle(asTestBundle(await buildFixture('examples/benefits')));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
await module?.evaluator.dispose();
});

/** What a host answered `padding` over `limit` before: the YELLOW of an invalid `padding`, on basis REQUEST_LIMIT, with the limit in its context error. */
async function recordedOverLimit(limit: string, path: string): Promise<Decision> {
  const invalid = await decide(module, { action: ACTION, context: { ...RED_REQUEST, padding: 1 } }, ENTRY);
  if (!invalid.ok) throw new Error(invalid.error.message);
  const { decision_metadata: metadata } = invalid.decision;
  const recorded = {
    ...invalid.decision,
    decision_metadata: {
      ...metadata,
      aggregation_outcome: { ...metadata.aggregation_outcome, basis: 'REQUEST_LIMIT' },
      context_errors: [{ attribute: 'padding', path, message: `\`${path}\` is over a limit (${limit})`, limit }],
    },
  };
  // As stored: through JSON.
  return JSON.parse(JSON.stringify(recorded)) as Decision;
}

describe('a decision recorded as REQUEST_LIMIT', () => {
  test.each([
    ['maxStringCodePoints', { ...RED_REQUEST, padding: 'x'.repeat(DEFAULT_REQUEST_LIMITS.maxStringCodePoints + 1) }, 'padding'],
    ['maxArrayLength', { ...RED_REQUEST, padding: new Array(DEFAULT_REQUEST_LIMITS.maxArrayLength + 1).fill(0) }, 'padding'],
    ['maxDepth', { ...RED_REQUEST, padding: JSON.parse('['.repeat(40) + ']'.repeat(40)) as unknown }, 'padding[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]'],
  ])('over %s replays identically, taken as recorded', async (limit, context, path) => {
    const fresh = await decide(module, { action: ACTION, context }, ENTRY);
    expect(fresh.ok ? fresh.decision.status : fresh.error.code).toBe('REQUEST_TOO_LARGE');

    const recorded = await recordedOverLimit(limit, path);
    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, recorded);
    expect(replayed.ok).toBe(true);
    if (!replayed.ok) return;
    expect(JSON.parse(JSON.stringify(replayed.decision))).toEqual(recorded);
    expect(replayed.takenAsRecorded).toEqual([{ part: 'decision', name: null, kind: 'REQUEST_LIMIT' }]);
  });

  test('a recorded RED of a request within the limits is still replayed by evaluating it', async () => {
    const decided = await decide(module, { action: ACTION, context: RED_REQUEST }, ENTRY);
    if (!decided.ok) throw new Error(decided.error.message);
    const replayed = await replayDecision(module, { action: ACTION, context: RED_REQUEST }, ENTRY, JSON.parse(JSON.stringify(decided.decision)) as Decision);
    expect(replayed.ok && replayed.decision.status).toBe('RED');
    expect(replayed.ok && replayed.takenAsRecorded).toEqual([]);
  });
});
