/**
 * The service never serves or replays a tampered record (issue 26, findings 4 and 5), on SQLite
 * and PostgreSQL, over real HTTP: for a record edited in place (re-hashed or not), deleted,
 * reordered, or forged past the chain's head, `GET /v1/decisions/{id}` and its replay answer
 * 500 RECORD_TAMPERED in the error envelope (no driver text, no host path) or 404 for a record
 * that is gone, never the record and never `identical`; the tenant's later decisions keep being
 * answered, and a row past the head is set aside and logged. On SQLite, a store whose write-ahead
 * log was cut after a crash serves none of the decisions it lost. A tampered decision is not
 * answered as a retry of its request either, nor a tampered selection followed up by feedback.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkHash, type StoredRecord } from '@adec/audit';
import { llmStubExecutor } from '@adec/engine';
import { AUDIT_BACKENDS, sqliteBackend, type AuditBackend } from '../../audit/test/audit-backends.js';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from './service-fixture.js';

const backends = AUDIT_BACKENDS;

/** Log lines the service writes at error level, parsed. */
function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: { level: 'error', stream } };
}

interface Decided {
  readonly id: string;
  readonly seq: number;
}

describe.each(backends)('tampered records on %s', (_name, makeBackend) => {
  let backend: AuditBackend;
  let service: ServiceFixture;
  const logs = logCollector();
  beforeAll(async () => {
    backend = await makeBackend();
    service = await startService({ audit: backend.location, logger: logs.logger });
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await service?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await backend?.dispose();
  });

  /** `count` decisions, one after the other, with their places in acme's chain. */
  async function decide(count: number): Promise<Decided[]> {
    const decided: Decided[] = [];
    for (let i = 0; i < count; i++) {
      const response = await service.post('/v1/decide', addDependent(BY_STATUS.GREEN));
      expect(response.status).toBe(200);
      const id = ((await response.json()) as { decision_metadata: { request_id: string } }).decision_metadata.request_id;
      const found = await service.host.store.get('acme', id);
      if (!found.ok || found.value === null) throw new Error(`decision ${id} was not recorded`);
      decided.push({ id, seq: found.value.seq });
    }
    return decided;
  }

  async function storedRow(seq: number): Promise<StoredRecord> {
    const page = await service.host.store.readChain('acme', seq - 1, 1);
    if (!page.ok || page.value[0]?.seq !== seq) throw new Error(`no record ${seq}`);
    return page.value[0];
  }

  async function served(id: string) {
    const response = await service.get(`/v1/decisions/${id}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function replayed(id: string) {
    const response = await service.post(`/v1/decisions/${id}/replay`, {});
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** Refused by GET and by replay in the envelope, saying nothing of the host or the database. */
  async function expectRefused(id: string) {
    for (const answer of [await served(id), await replayed(id)]) {
      expect(answer.status, id).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'RECORD_TAMPERED', message: expect.stringContaining(id), details: [] } });
      const text = JSON.stringify(answer.body);
      for (const leak of [service.dir, backend.location, 'SQLITE', 'sqlite', 'postgres', 'constraint', 'decision_records']) expect(text).not.toContain(leak);
    }
  }

  async function expectServed(id: string) {
    expect((await served(id)).status, id).toBe(200);
    expect((await replayed(id)).body).toMatchObject({ identical: true });
  }

  /** The tenant goes on: a new decision is answered, served and replays identical. */
  async function expectLaterDecisionsAnswered() {
    const [later] = await decide(1);
    await expectServed(later!.id);
  }

  it('a record edited in place is refused; its neighbours are served', async () => {
    const [before, edited, after] = await decide(3);
    await expectServed(edited!.id);
    const row = await storedRow(edited!.seq);
    await backend.editRecord('acme', edited!.seq, { body: row.body.replace('"status":"GREEN"', '"status":"RED"') });
    await expectRefused(edited!.id);
    await expectServed(before!.id);
    await expectServed(after!.id);
    await expectLaterDecisionsAnswered();
  });

  it('a record edited and re-hashed is refused, and so is the one after it', async () => {
    const [edited, after] = await decide(3);
    const row = await storedRow(edited!.seq);
    const body = row.body.replace('"status":"GREEN"', '"status":"RED"');
    await backend.editRecord('acme', edited!.seq, { body, hash: linkHash(row.prevHash, body) });
    await expectRefused(edited!.id);
    await expectRefused(after!.id);
    await expectLaterDecisionsAnswered();
  });

  it('a deleted record is gone, and the one after it is refused', async () => {
    const [deleted, after] = await decide(3);
    await backend.deleteRecord('acme', deleted!.seq);
    expect((await served(deleted!.id)).status).toBe(404);
    expect((await replayed(deleted!.id)).status).toBe(404);
    await expectRefused(after!.id);
    await expectLaterDecisionsAnswered();
  });

  it('two reordered records are both refused', async () => {
    const [first, second] = await decide(3);
    await backend.editRecord('acme', first!.seq, { seq: -1 });
    await backend.editRecord('acme', second!.seq, { seq: first!.seq });
    await backend.editRecord('acme', -1, { seq: second!.seq });
    await expectRefused(first!.id);
    await expectRefused(second!.id);
    await expectLaterDecisionsAnswered();
  });

  for (const offset of [1, 3]) {
    it(`a decision forged at head+${offset}, well linked, is refused, set aside, logged, and later decisions are answered`, async () => {
      const [head] = await decide(1);
      const real = await storedRow(head!.seq);
      // A copy of a real decision, its response turned RED, written where the next record would go.
      const seq = head!.seq + offset;
      const id = `forged-${offset}`;
      const body = real.body.replace(`"seq":${real.seq}`, `"seq":${seq}`).replace(`"decision_id":"${real.decisionId}"`, `"decision_id":"${id}"`).replace('"status":"GREEN"', '"status":"RED"');
      const prevHash = offset === 1 ? real.hash : 'e'.repeat(64);
      await backend.insertRecord({ ...real, seq, decisionId: id, body, prevHash, hash: linkHash(prevHash, body) });
      await expectRefused(id);

      const logged = logs.lines.length;
      const later = await decide(2);
      expect(later[0]!.seq).toBe(head!.seq + 1);
      for (const decision of later) await expectServed(decision.id);
      expect(logs.lines.slice(logged)).toContainEqual(expect.objectContaining({ code: 'ROWS_BEYOND_HEAD', tenant: 'acme', seqs: [seq] }));
      expect((await served(id)).status).toBe(404);
    });
  }
});

describe.each(backends)('a tampered record is never used on %s: not as a retry, not for feedback', (_name, makeBackend) => {
  let backend: AuditBackend;
  let service: ServiceFixture;
  beforeAll(async () => {
    backend = await makeBackend();
    const fitness = asTestBundle(await buildFixture('examples/fitness'));
    const coach = llmStubExecutor(() => ({ payload: { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' } }));
    service = await startService({ audit: backend.location, executors: [coach] }, (modules, keys) => publish(fitness, modules, keys));
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await service?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await backend?.dispose();
  });

  async function tamper(id: string) {
    const found = await service.host.store.get('acme', id);
    if (!found.ok || found.value === null) throw new Error(`${id} was not recorded`);
    const page = await service.host.store.readChain('acme', found.value.seq - 1, 1);
    if (!page.ok) throw new Error(page.message);
    await backend.editRecord('acme', found.value.seq, { body: page.value[0]!.body.replace('"acme"', '"acne"') });
  }

  async function expectTampered(response: Response, id: string) {
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'RECORD_TAMPERED', message: expect.stringContaining(id), details: [] } });
  }

  it('a decision retried with the request id of a tampered record', async () => {
    const request = addDependent(BY_STATUS.GREEN, { request_id: 'retried-decision' });
    expect((await service.post('/v1/decide', request)).status).toBe(200);
    await tamper('retried-decision');
    await expectTampered(await service.post('/v1/decide', request), 'retried-decision');
  });

  it('a selection retried with the request id of a tampered record, and feedback on it', async () => {
    const request = {
      domain: 'fitness.coaching',
      world_model_version: '1.0.0',
      scenario: 'fitness_daily_session',
      request_id: 'retried-selection',
      user_id: 'user-1',
      signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 },
      actions: [{ action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 }],
    };
    const selected = await service.post('/v1/select', request);
    expect(selected.status).toBe(200);
    // The record is the decision's, under the service's decision id; the request id names it.
    const decisionId = ((await selected.json()) as { decision: { decision_id: string } }).decision.decision_id;
    await tamper(decisionId);
    await expectTampered(await service.post('/v1/select', request), decisionId);
    await expectTampered(await service.post('/v1/feedback', { outcome_id: 'outcome-of-tampered', decision_id: decisionId, status: 'success' }), decisionId);
  });
});

describe('a SQLite store whose write-ahead log was cut after a crash', () => {
  it('serves none of the decisions it lost, and answers new ones', async () => {
    const live = sqliteBackend();
    const first = await startService({ audit: live.location });
    const decided: string[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await first.post('/v1/decide', addDependent(BY_STATUS.GREEN));
      decided.push(((await response.json()) as { decision_metadata: { request_id: string } }).decision_metadata.request_id);
    }
    // Copied while the service runs, as a crash leaves them; the log cut in half.
    const crashed = mkdtempSync(join(tmpdir(), 'adec-crashed-'));
    const copy = join(crashed, 'audit.db');
    copyFileSync(live.location, copy);
    copyFileSync(`${live.location}-wal`, `${copy}-wal`);
    await first.close();
    await live.dispose();
    truncateSync(`${copy}-wal`, Math.floor(statSync(`${copy}-wal`).size / 2));

    const second = await startService({ audit: copy });
    try {
      const answers = await Promise.all(decided.map(async (id) => (await second.get(`/v1/decisions/${id}`)).status));
      const kept = answers.filter((status) => status === 200).length;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(decided.length);
      // What survived is a prefix of the chain; everything after it is gone, not served.
      expect(answers).toEqual([...Array<number>(kept).fill(200), ...Array<number>(decided.length - kept).fill(404)]);
      const response = await second.post('/v1/decide', addDependent(BY_STATUS.GREEN));
      expect(response.status).toBe(200);
    } finally {
      await second.close();
      rmSync(crashed, { recursive: true, force: true });
    }
  });
});
