/**
 * Timestamps and durations interpolated into a reason read as a person reads them (ISO 8601
 * UTC, `30 days`), computed inside the sandbox without `Date`.
 */
import { createContext, runInContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWorld } from '../../src/index.js';
import { BUNDLE_GLOBAL_NAME } from '../../src/bundle/index.js';
import { TEMPLATE_VALUES_WORLD } from './template-values-world.js';


type Predicate = (ctx: object) => { matched: boolean; reason?: string };

async function lateRule(): Promise<Predicate> {
  const result = await buildWorld({ root: 'w', files: [{ path: 'w/main.adec', text: TEMPLATE_VALUES_WORLD }] });
  if (result.artifacts === undefined) throw new Error(JSON.stringify(result.diagnostics));
  const module = runInContext(`${result.artifacts.bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
    _RULE_FUNCTIONS: Record<string, Predicate>;
  };
  return module._RULE_FUNCTIONS['late']!;
}

describe('timestamps and durations in reasons', () => {
  it('render as ISO 8601 and as spoken durations', async () => {
    const late = await lateRule();
    const eventDate = Date.UTC(2026, 0, 31, 9, 30, 5, 7);
    expect(late({ event_date: eventDate, request_time: eventDate + 30 * 86_400_000 }).reason).toBe(
      'Event on 2026-01-31T09:30:05.007Z was 30 days before 2026-03-02T09:30:05.007Z',
    );
    expect(late({ event_date: eventDate, request_time: eventDate + 90 * 60_000 }).reason).toContain(' was 1 hour 30 minutes before ');
    expect(late({ event_date: eventDate, request_time: eventDate + 1_500 }).reason).toContain(' was 1 second 500 milliseconds before ');
  });

  it('format every instant exactly as Date#toISOString does', async () => {
    const late = await lateRule();
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2400, 11, 31) }), (instant) => {
        const reason = late({ event_date: instant, request_time: instant + 1 }).reason!;
        expect(reason.slice('Event on '.length, 'Event on '.length + 24)).toBe(new Date(instant).toISOString());
      }),
      { numRuns: 2_000, seed: 42 },
    );
  });
});
