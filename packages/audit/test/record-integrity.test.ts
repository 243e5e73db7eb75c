/**
 * `get` hands out only a record that verifies in its chain (issue 26, finding 5), on SQLite and
 * PostgreSQL: for each way a record can be tampered with behind the store's back, `verify` finds
 * it and `get` answers RECORD_INVALID for the records it touches, while the records it does not
 * touch are still handed out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { linkHash, verifyChains, type AuditRecord, type AuditStore } from '@adec/audit';
import { AUDIT_BACKENDS, type AuditBackend } from './audit-backends.js';

const backends = AUDIT_BACKENDS;

/** The body as the store wrote it (what the hash covers). */
function bodyOf(record: AuditRecord): string {
  const header = JSON.stringify({ tenant: record.tenant, seq: record.seq, decision_id: record.decisionId, kind: record.kind, recorded_at: record.recordedAt, request_hash: record.requestHash });
  return `${header.slice(0, -1)},"payload":${JSON.stringify(record.payload)}}`;
}

interface Tampering {
  readonly name: string;
  readonly tamper: (backend: AuditBackend, records: readonly AuditRecord[]) => Promise<void>;
  /** What verify reports, and at which seq. */
  readonly found: { readonly code: string; readonly seq: number };
  /** The records (by seq) get must refuse; the others of 1–5 stay servable, except those listed as gone. */
  readonly refused: readonly number[];
  readonly gone?: readonly number[];
}

const tamperings: Tampering[] = [
  { name: 'a body edited in place', tamper: (backend, records) => backend.editRecord('t', 3, { body: bodyOf(records[2]!).replace('"GREEN"', '"RED"') }), found: { code: 'RECORD_ALTERED', seq: 3 }, refused: [3] },
  {
    name: 'a body edited and re-hashed',
    tamper: (backend, records) => {
      const body = bodyOf(records[2]!).replace('"GREEN"', '"RED"');
      return backend.editRecord('t', 3, { body, hash: linkHash(records[2]!.prevHash, body) });
    },
    found: { code: 'LINK_BROKEN', seq: 4 },
    refused: [3, 4],
  },
  { name: 'the head edited and re-hashed', tamper: (backend, records) => backend.editRecord('t', 5, { body: bodyOf(records[4]!).replace('"GREEN"', '"RED"'), hash: linkHash(records[4]!.prevHash, bodyOf(records[4]!).replace('"GREEN"', '"RED"')) }), found: { code: 'HEAD_MISMATCH', seq: 5 }, refused: [5] },
  { name: 'a record deleted', tamper: (backend) => backend.deleteRecord('t', 3), found: { code: 'SEQ_GAP', seq: 4 }, refused: [4], gone: [3] },
  {
    name: 'two records reordered',
    tamper: async (backend) => {
      await backend.editRecord('t', 2, { seq: -2 });
      await backend.editRecord('t', 3, { seq: 2 });
      await backend.editRecord('t', -2, { seq: 3 });
    },
    found: { code: 'COLUMN_MISMATCH', seq: 2 },
    // Records 1 and 4 are whole, but their neighbours no longer link to them: not handed out either.
    refused: [1, 2, 3, 4],
  },
];

describe.each(backends)('get refuses a tampered record on %s', (_name, makeBackend) => {
  let backend: AuditBackend | undefined;
  let store: AuditStore | undefined;
  afterEach(async () => {
    await store?.close();
    await backend?.dispose();
  });

  for (const tampering of tamperings) {
    it(`${tampering.name}: found by verify, refused by get, the rest served`, async () => {
      backend = await makeBackend();
      store = await backend.open();
      const records: AuditRecord[] = [];
      for (let i = 1; i <= 5; i++) {
        const appended = await store.append({ tenant: 't', decisionId: `r${i}`, kind: 'adjudication', requestHash: 'h', payload: { status: 'GREEN', i } });
        if (!appended.ok) throw new Error(appended.code);
        records.push(appended.record);
      }
      await tampering.tamper(backend, records);
      const report = await verifyChains(store);
      expect(report.ok && report.chains[0]!.problem).toMatchObject(tampering.found);
      for (const record of records) {
        const found = await store.get('t', record.decisionId);
        if (tampering.refused.includes(record.seq)) expect(found, `r${record.seq}`).toMatchObject({ ok: false, code: 'RECORD_INVALID' });
        else if (tampering.gone?.includes(record.seq)) expect(found, `r${record.seq}`).toEqual({ ok: true, value: null });
        else expect(found, `r${record.seq}`).toEqual({ ok: true, value: record });
      }
      // The chain goes on: a new record links to the head (the one a re-hashed head names, too).
      const next = await store.append({ tenant: 't', decisionId: 'r6', kind: 'adjudication', requestHash: 'h', payload: {} });
      expect(next).toMatchObject({ ok: true, record: { seq: 6 } });
    });
  }
});
