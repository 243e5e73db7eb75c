/**
 * Replay: 1,000 decisions of generated requests (valid, incomplete and ill-typed contexts, all
 * three actions), recorded over HTTP, each replayed against its stored module hash, report 100%
 * identical, on SQLite and on PostgreSQL. A record whose response was altered in the store is
 * refused rather than replayed.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../../test/support/postgres-server.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const DAY = 86_400_000;
const date = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 0, 1) }).map((ms) => new Date(Math.floor(ms / DAY) * DAY).toISOString());
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
const ill = fc.oneof(fc.constant(null), fc.string({ maxLength: 5 }), fc.integer(), fc.boolean());

const addDependent = fc.record({
  relationship: fc.oneof(fc.constantFrom('child', 'stepchild', 'spouse', 'domestic_partner'), ill),
  dependent_age: maybe(fc.oneof(fc.integer({ min: 0, max: 80 }), ill)),
  full_time_student: maybe(fc.boolean()),
  disabled_dependent: maybe(fc.boolean()),
  already_on_plan: maybe(fc.boolean()),
  documents: maybe(fc.subarray(['birth_certificate', 'marriage_certificate', 'partnership_affidavit'])),
  employee_status: maybe(fc.constantFrom('active', 'terminated', 'on_leave')),
}, { requiredKeys: ['relationship'] });
const changePlan = fc.record({
  current_plan: fc.constantFrom('bronze', 'silver', 'gold'),
  requested_plan: fc.oneof(fc.constantFrom('bronze', 'silver', 'gold'), ill),
  open_enrollment: maybe(fc.boolean()),
  open_claims: maybe(fc.integer({ min: 0, max: 5 })),
  life_event: maybe(fc.constantFrom('birth', 'marriage', 'adoption')),
  life_event_date: maybe(date),
}, { requiredKeys: ['current_plan'] });

const requests = fc.sample(
  fc.oneof(
    addDependent.map((context) => ({ action: 'add_dependent', context })),
    changePlan.map((context) => ({ action: 'change_plan', context })),
  ),
  { numRuns: 1_000, seed: 20261125 },
);

const services: ServiceFixture[] = [];
afterAll(async () => {
  await Promise.all(services.map((service) => service.close()));
});

async function recordAll(service: ServiceFixture): Promise<string[]> {
  const ids: string[] = [];
  const statuses = new Set<string>();
  for (let start = 0; start < requests.length; start += 50) {
    const batch = requests.slice(start, start + 50);
    const decisions = await Promise.all(batch.map(async ({ action, context }) => {
      const response = await service.post('/v1/decide', { domain: 'hr.benefits', action, world_model_version: '1.4.0', context });
      expect(response.status).toBe(200);
      return (await response.json()) as { status: string; decision_metadata: { request_id: string } };
    }));
    for (const decision of decisions) {
      ids.push(decision.decision_metadata.request_id);
      statuses.add(decision.status);
    }
  }
  expect([...statuses].sort()).toEqual(['GREEN', 'GREEN-SKIP', 'RED', 'YELLOW']);
  return ids;
}

async function replayAll(service: ServiceFixture, ids: readonly string[]) {
  let identical = 0;
  for (let start = 0; start < ids.length; start += 50) {
    const reports = await Promise.all(ids.slice(start, start + 50).map(async (id) => (await (await service.post(`/v1/decisions/${id}/replay`, {})).json()) as { identical: boolean; differences: unknown[] }));
    for (const report of reports) {
      if (report.identical) identical += 1;
      else expect(report.differences).toEqual([]);
    }
  }
  return identical;
}

describe.each([
  ['SQLite', async () => ({})],
  ['PostgreSQL', async () => ({ audit: await createDatabase(inject('postgresUrl'), 'replay') })],
])('replaying on %s', (name, store) => {
  it('1,000 recorded decisions replay 100% identical', async () => {
    const service = await startService(await store());
    services.push(service);
    const ids = await recordAll(service);
    expect(await replayAll(service, ids)).toBe(1_000);
  });

  if (name === 'SQLite') {
    it('a response altered in the store is refused, never replayed (packages/server/test/tampered-records.test.ts has every tampering)', async () => {
      const service = await startService();
      services.push(service);
      const [id] = await recordAll(service).then((ids) => ids.slice(0, 1));
      const db = new Database(`${service.dir}/audit.db`);
      db.exec('DROP TRIGGER decision_records_no_update');
      const { body } = db.prepare('SELECT body FROM decision_records WHERE decision_id = ?').get(id) as { body: string };
      const status = /"response":\{"status":"([A-Z-]+)"/.exec(body)![1]!;
      const forged = status === 'RED' ? 'GREEN' : 'RED';
      db.prepare('UPDATE decision_records SET body = ? WHERE decision_id = ?').run(body.replace(`"response":{"status":"${status}"`, `"response":{"status":"${forged}"`), id);
      db.close();
      const replayed = await service.post(`/v1/decisions/${id}/replay`, {});
      expect(replayed.status).toBe(500);
      expect(await replayed.json()).toMatchObject({ error: { code: 'RECORD_TAMPERED' } });
    });
  }
});
