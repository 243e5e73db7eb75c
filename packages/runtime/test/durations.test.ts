/**
 * Durations read as durations. A decision's trace records a duration an attribute holds (supplied
 * or computed, alone, optional, in a list or a record) as an ISO 8601 duration where the module
 * computes with milliseconds; a `reason` interpolates it as a person reads it ("2 hours 30
 * minutes"), exactly as the host's `durationText` does; the language converts with `in_days`, …,
 * `days(n)`, …. A bundle built before modules listed their durations keeps recording
 * milliseconds, so its stored decisions replay identically.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { decide, durationText, isoDuration, isoDurationMs, type Decision, type LoadedModule } from '@adec/runtime';
import { asTestBundle, injectIntoBundle, loadTestBundle, type TestBundle } from '../../../test/support/runtime.js';

const WORLD = `world {
  org     "test"
  domain  "durations"
  version "1.0.0"
}

action return_item {
  context {
    supplied ordered_at:  timestamp
    supplied grace:       duration = 2h
    supplied extension:   duration?
    supplied reminders:   list<duration> = []
    supplied window:      { length: duration, label: string }
    system   request_time: timestamp
    computed since_order: duration = request_time - ordered_at
  }

  rule past_window {
    outcome  RED
    severity t2
    when     since_order > window.length + grace + (extension ?? 0ms) and len(reminders) >= 0
    reason   "Ordered {since_order} ago ({in_days(since_order)} days); the {window.label} window is {window.length}, grace {grace}"
  }

  rule long_window {
    outcome  YELLOW
    severity t3
    when     in_hours(window.length) > 24 * 100 or window.length >= days(90.5) - hours(12)
    reason   "A window of {in_minutes(window.length)} minutes, {in_seconds(grace)} s of grace"
  }
}
`;

const REQUEST_TIME = Date.parse('2026-03-01T09:00:00Z');
let bundle: TestBundle;
let module: LoadedModule;

beforeAll(async () => {
  const built = await buildWorld({ root: 'durations', files: [{ path: 'durations/world.adec', text: WORLD }] });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
  bundle = asTestBundle(built.artifacts);
  module = await loadTestBundle(bundle);
});
afterAll(() => module.evaluator.dispose());

async function decideReturn(on: LoadedModule, context: Record<string, unknown>): Promise<Decision> {
  const result = await decide(on, { action: 'return_item', context }, { requestId: 'durations', requestTime: REQUEST_TIME });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

const LATE = { ordered_at: '2026-01-01T06:30:00Z', window: { length: '30d', label: 'standard' }, reminders: ['1d', 90_000] };

describe('traces', () => {
  test('show every duration an attribute holds as ISO 8601, and everything else as the predicate saw it', async () => {
    const decision = await decideReturn(module, LATE);
    expect(decision.decision_metadata.predicate_traces[0]).toEqual({
      rule_id: 'past_window',
      result: 'matched',
      inputs: {
        extension: null,
        grace: 'PT2H',
        reminders: ['P1D', 'PT1M30S'],
        since_order: 'P59DT2H30M',
        window: { length: 'P30D', label: 'standard' },
      },
    });
  });

  test('a bundle built before modules listed their durations keeps recording milliseconds', async () => {
    const older = await loadTestBundle(injectIntoBundle(bundle, 'for (const action of Object.values(m._ACTIONS)) delete action.durations;'));
    try {
      const decision = await decideReturn(older, LATE);
      expect(decision.decision_metadata.predicate_traces[0]!.inputs).toMatchObject({ grace: 7_200_000, since_order: 5_106_600_000, window: { length: 2_592_000_000 } });
    } finally {
      await older.evaluator.dispose();
    }
  });

  test('ISO 8601 durations read back to the same milliseconds', () => {
    const cases: [number, string][] = [
      [0, 'PT0S'],
      [500, 'PT0.5S'],
      [90_000, 'PT1M30S'],
      [9_000_000, 'PT2H30M'],
      [2_592_000_000, 'P30D'],
      [129_600_001, 'P1DT12H0.001S'],
      [-7_200_000, '-PT2H'],
    ];
    for (const [ms, iso] of cases) {
      expect(isoDuration(ms)).toBe(iso);
      expect(isoDurationMs(iso)).toBe(ms);
    }
    for (const text of ['P', 'PT', 'P1W', '30d', 'PT1.5H', 'P1DT']) expect(isoDurationMs(text), text).toBeUndefined();
  });
});

describe('reasons and conversions', () => {
  test('in_minutes and in_seconds read a duration in their unit', async () => {
    const decision = await decideReturn(module, { ...LATE, window: { length: '91d', label: 'holiday' } });
    expect(decision.decision_metadata.matched_rule_outcomes.map((m) => [m.rule_id, m.reason])).toEqual([['long_window', 'A window of 131040 minutes, 7200 s of grace']]);
  });

  test('in_days gives fractions of a day; days(n) makes a duration to the nearest millisecond', async () => {
    const decision = await decideReturn(module, LATE);
    expect(decision.decision_metadata.matched_rule_outcomes[0]!.reason).toBe(
      'Ordered 59 days 2 hours 30 minutes ago (59.104166666666664 days); the standard window is 30 days, grace 2 hours',
    );
    // 90.5 days less 12 hours is exactly 90 days: a 90-day window is long, an 89-day one is not.
    expect((await decideReturn(module, { ...LATE, window: { length: '90d', label: 'x' } })).decision_metadata.matched_rules).toContain('long_window');
    expect((await decideReturn(module, { ...LATE, window: { length: '89d', label: 'x' } })).decision_metadata.matched_rules).not.toContain('long_window');
  });

  test("the module's reason text and the host's durationText agree on every unit, singular and plural", async () => {
    for (const ms of [0, 1, 999, 1_000, 61_000, 3_600_000, 9_000_000, 86_400_000, 90_061_001, 2_592_000_000]) {
      const decision = await decideReturn(module, { ordered_at: '2025-03-01T09:00:00Z', grace: ms, window: { length: '0d', label: 'x' }, extension: '0d' });
      const reason = decision.decision_metadata.matched_rule_outcomes.find((m) => m.rule_id === 'past_window')?.reason;
      expect(reason, String(ms)).toBe(`Ordered 365 days ago (365 days); the x window is 0 seconds, grace ${durationText(ms)}`);
    }
    expect(durationText(90_061_001)).toBe('1 day 1 hour 1 minute 1 second 1 millisecond');
    expect(durationText(9_000_000)).toBe('2 hours 30 minutes');
  });
});
