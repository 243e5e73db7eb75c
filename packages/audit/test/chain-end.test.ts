/**
 * A chain has no end but its head (issue 26, finding 4), on SQLite and PostgreSQL: a plain SQL
 * INSERT that does not extend a chain to its head is refused by the schema (version 4); a row
 * past the head that got in anyway (triggers dropped, or a database edited before version 4) is
 * found by verify, is never handed out by get, and never stops the tenant's next decisions: the
 * writer sets it aside, reports it, and links the next record after the true head.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { GENESIS_HASH, verifyChains, type AuditEntry, type AuditRecord, type AuditStore, type StoredRecord } from '@adec/audit';
import { linkEntry } from '../src/chain.js';
import { CREATE_MIGRATIONS_TABLE } from '../src/migration.js';
import { POSTGRES_MIGRATIONS } from '../src/postgres/postgres-schema.js';
import { prepareEntry } from '../src/prepared-entry.js';
import { SQLITE_MIGRATIONS } from '../src/sqlite/sqlite-schema.js';
import { AUDIT_BACKENDS, type AuditBackend } from './audit-backends.js';

const backends = AUDIT_BACKENDS;

function entry(tenant: string, decisionId: string, payload: Record<string, unknown> = { status: 'GREEN' }): AuditEntry {
  return { tenant, decisionId, kind: 'adjudication', requestHash: `req-${decisionId}`, payload };
}

async function committed(store: AuditStore, e: AuditEntry): Promise<AuditRecord> {
  const result = await store.append(e);
  if (!result.ok) throw new Error(`append failed: ${result.code}: ${'message' in result ? result.message : ''}`);
  return result.record;
}

/** A row as the store would write it for `decisionId` after `head` (seq head.seq + 1), with `change` applied. */
function forgedRow(head: { seq: number; hash: string }, tenant: string, decisionId: string, change: (row: StoredRecord) => StoredRecord = (row) => row): StoredRecord {
  const prepared = prepareEntry(entry(tenant, decisionId, { status: 'GREEN', forged: true }));
  if (!prepared.ok) throw new Error(prepared.message);
  return change(linkEntry(head, prepared.prepared, new Date().toISOString()));
}

/** Each way a row can lie past the head: right after it and well linked, k after it, after a gap, or linked wrongly. */
type Forgery = { readonly name: string; readonly offset: number; readonly prevHash: 'head' | 'wrong' };

const forgeries: Forgery[] = [
  { name: 'head+1, linked to the head', offset: 1, prevHash: 'head' },
  { name: 'head+1, with a wrong prev hash', offset: 1, prevHash: 'wrong' },
  ...fc.sample(fc.integer({ min: 2, max: 40 }), { numRuns: 3, seed: 26 }).map((offset): Forgery => ({ name: `head+${offset} (a gap)`, offset, prevHash: 'head' })),
];

function rowFor(forgery: Forgery, head: AuditRecord, decisionId: string): StoredRecord {
  return forgedRow({ seq: head.seq + forgery.offset - 1, hash: forgery.prevHash === 'head' ? head.hash : 'f'.repeat(64) }, head.tenant, decisionId);
}

const SQL_INSERT = (row: StoredRecord) =>
  `INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES ('${row.tenant}', ${row.seq}, '${row.decisionId}', '${row.kind}', '${row.recordedAt}', '${row.requestHash}', '${row.body.replaceAll("'", "''")}', '${row.prevHash}', '${row.hash}')`;

describe.each(backends)('the chain ends at its head, on %s', (_name, makeBackend) => {
  let backend: AuditBackend | undefined;
  let store: AuditStore | undefined;
  afterEach(async () => {
    await store?.close();
    await backend?.dispose();
  });

  async function chainOf(tenant: string, length: number, options: Parameters<AuditBackend['open']>[0] = {}) {
    backend = await makeBackend();
    store = await backend.open(options);
    const records: AuditRecord[] = [];
    for (let i = 1; i <= length; i++) records.push(await committed(store, entry(tenant, `r${i}`, { status: 'GREEN', i })));
    return { backend, store, records };
  }

  it('refuses, by trigger, a plain INSERT of any row that does not extend a chain to its head', async () => {
    const { backend, store, records } = await chainOf('t', 3);
    const head = records[2]!;
    for (const forgery of forgeries) {
      expect(await backend.refusal(SQL_INSERT(rowFor(forgery, head, `x-${forgery.offset}`))), forgery.name).toMatch(/only extends its chain/);
    }
    // Nor a record for a tenant with no chain, nor one at or before the anchor (seq 0).
    expect(await backend.refusal(SQL_INSERT(forgedRow({ seq: 0, hash: GENESIS_HASH }, 'nobody', 'n1'))), 'a tenant without a chain').toMatch(/only extends its chain/);
    expect(await backend.refusal(SQL_INSERT(forgedRow({ seq: -1, hash: GENESIS_HASH }, 't', 'z0'))), 'seq 0').toMatch(/only extends its chain/);
    const report = await verifyChains(store);
    expect(report).toMatchObject({ ok: true, valid: true });
    expect((await committed(store, entry('t', 'r4'))).seq).toBe(4);
  });

  for (const forgery of forgeries) {
    it(`finds a row inserted past the head (${forgery.name}), never hands it out, and records the next decision after the true head`, async () => {
      const setAside: [string, readonly number[]][] = [];
      const { backend, store, records } = await chainOf('t', 3, { onRowsSetAside: (tenant, seqs) => setAside.push([tenant, seqs]) });
      const head = records[2]!;
      const forged = rowFor(forgery, head, 'forged');
      await backend.insertRecord(forged);

      const before = await verifyChains(store);
      expect(before).toMatchObject({ ok: true, valid: false });
      expect(before.ok && before.chains[0]!.problem).toMatchObject({ code: 'BEYOND_HEAD', seq: forged.seq, decisionId: 'forged' });
      expect(await store.get('t', 'forged')).toMatchObject({ ok: false, code: 'RECORD_INVALID', message: expect.stringMatching(/past its chain's head/) });

      // The next decision is recorded right after the true head; the forged row is set aside and reported.
      const next = await store.append(entry('t', 'r4'));
      expect(next).toMatchObject({ ok: true, record: { seq: 4, prevHash: head.hash }, setAside: [forged.seq] });
      expect(setAside).toEqual([['t', [forged.seq]]]);
      expect((await committed(store, entry('t', 'r5'))).seq).toBe(5);
      expect(await store.get('t', 'forged')).toEqual({ ok: true, value: null });
      expect((await store.get('t', 'r4')).ok).toBe(true);

      // verify still reports what was set aside: the database was written outside adec.
      const after = await verifyChains(store);
      expect(after.ok && after.chains[0]).toMatchObject({ records: 5, problem: { code: 'BEYOND_HEAD', seq: forged.seq, message: expect.stringMatching(/sets such rows aside in decision_records_beyond_head/) } });
    });
  }

  it('finds rows of a tenant that has no chain at all, and starts that tenant\'s chain anew', async () => {
    const { backend, store } = await chainOf('t', 1);
    await backend.insertRecord(forgedRow({ seq: 0, hash: GENESIS_HASH }, 'ghost', 'g1'));
    const report = await verifyChains(store);
    expect(report.ok && report.chains.find((chain) => chain.tenant === 'ghost')).toMatchObject({ problem: { code: 'BEYOND_HEAD', seq: 1 } });
    expect(await store.get('ghost', 'g1')).toMatchObject({ ok: false, code: 'RECORD_INVALID' });
    expect(await store.append(entry('ghost', 'g2'))).toMatchObject({ ok: true, record: { seq: 1, prevHash: GENESIS_HASH }, setAside: [1] });
  });

  it('reuses the id a forged row took once the row is set aside', async () => {
    const { backend, store, records } = await chainOf('t', 2);
    await backend.insertRecord(forgedRow(records[1]!, 't', 'wanted'));
    expect(await store.append(entry('t', 'wanted'))).toMatchObject({ ok: true, record: { seq: 3, decisionId: 'wanted', prevHash: records[1]!.hash } });
  });

  it('migrates a version 3 database holding a row inserted past a head at open, then finds it and records after the true head', async () => {
    backend = await makeBackend();
    const migrations = (backend.name === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS).filter((migration) => migration.version <= 3);
    const run = async (sql: string) => expect(await backend!.refusal(sql), sql.slice(0, 60)).toBeUndefined();
    await run(CREATE_MIGRATIONS_TABLE);
    for (const migration of migrations) {
      await run(migration.sql);
      await run(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, '${migration.name}', '2026-01-01T00:00:00.000Z')`);
    }
    // Two records as version 3 linked them, then the forgery: a plain INSERT that version 3 let through.
    const first = forgedRow({ seq: 0, hash: GENESIS_HASH }, 't', 'r1');
    const second = forgedRow(first, 't', 'r2');
    for (const row of [first, second]) await run(SQL_INSERT(row));
    await run(`INSERT INTO chains (tenant, head_seq, head_hash) VALUES ('t', 2, '${second.hash}')`);
    const forged = forgedRow(second, 't', 'forged');
    await run(SQL_INSERT(forged));

    store = await backend.open();
    expect(await backend.refusal(SQL_INSERT(forgedRow(forged, 't', 'again')))).toMatch(/only extends its chain/);
    const report = await verifyChains(store);
    expect(report.ok && report.chains[0]!.problem).toMatchObject({ code: 'BEYOND_HEAD', seq: 3, decisionId: 'forged' });
    expect(await store.get('t', 'forged')).toMatchObject({ ok: false, code: 'RECORD_INVALID' });
    expect(await store.append(entry('t', 'r3'))).toMatchObject({ ok: true, record: { seq: 3, prevHash: second.hash }, setAside: [3] });
  });
});
