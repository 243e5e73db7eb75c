/**
 * The audit store's contract, run against every backend on a real database: appends are
 * committed in groups and linked per tenant, duplicates are refused with the stored record,
 * records survive a reopen, tampering of every kind is caught by verify at the right record,
 * and a retention purge leaves chains that still verify.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GENESIS_HASH, linkHash, verifyChains, type AppendedEntry, type AuditEntry, type AuditRecord, type AuditStore } from '@adec/audit';
import { AUDIT_BACKENDS, type AuditBackend } from './audit-backends.js';

const backends = AUDIT_BACKENDS;

function entry(tenant: string, decisionId: string, payload: Record<string, unknown> = { status: 'GREEN', n: decisionId }): AuditEntry {
  return { tenant, decisionId, kind: 'adjudication', requestHash: `req-${decisionId}`, payload };
}

async function committed(store: AuditStore, e: AppendedEntry): Promise<AuditRecord> {
  const result = await store.append(e);
  if (!result.ok) throw new Error(`append failed: ${result.code}`);
  return result.record;
}

async function verified(store: AuditStore) {
  const result = await verifyChains(store);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe.each(backends)('audit store on %s', (_name, makeBackend) => {
  let backend: AuditBackend;
  let store: AuditStore;
  beforeAll(async () => {
    backend = await makeBackend();
    store = await backend.open();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await store?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await backend?.dispose();
  });

  it('links each tenant\'s records from the genesis hash, and get is scoped to the tenant', async () => {
    const first = await committed(store, entry('link-a', 'd1'));
    const second = await committed(store, entry('link-a', 'd2'));
    const other = await committed(store, entry('link-b', 'd1'));
    expect([first.seq, second.seq, other.seq]).toEqual([1, 2, 1]);
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(second.prevHash).toBe(first.hash);
    expect(other.prevHash).toBe(GENESIS_HASH);
    const found = await store.get('link-a', 'd2');
    expect(found).toEqual({ ok: true, value: second });
    expect(await store.get('link-b', 'd2')).toEqual({ ok: true, value: null });
    expect((await store.get('link-b', 'd1')).ok && (await store.get('link-b', 'd1') as { value: AuditRecord }).value.payload).toEqual({ status: 'GREEN', n: 'd1' });
  });

  it('commits 1,000 concurrent appends in groups, each chain gapless and valid', async () => {
    const before = store.stats().commits;
    const tenants = ['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-5'];
    const records = await Promise.all(Array.from({ length: 1_000 }, (_, i) => committed(store, entry(tenants[i % 5]!, `b${i}`, { i, text: 'é∑😀'.repeat(i % 7) }))));
    const commits = store.stats().commits - before;
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(100);
    for (const tenant of tenants) {
      const seqs = records.filter((record) => record.tenant === tenant).map((record) => record.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    }
    // Submission order is chain order within a tenant.
    const ofFirst = records.filter((record) => record.tenant === 'burst-1');
    expect(ofFirst.map((record) => record.seq)).toEqual(ofFirst.map((_, i) => i + 1));
    const report = await verified(store);
    expect(report.valid).toBe(true);
    expect(report.chains.find((chain) => chain.tenant === 'burst-3')).toMatchObject({ records: 200, problem: null, head: { seq: 200 } });
  });

  it('refuses a second record with the same id, stored or in the same batch, and writes nothing', async () => {
    const original = await committed(store, entry('dup', 'same', { first: true }));
    const again = await store.append(entry('dup', 'same', { first: false }));
    expect(again).toEqual({ ok: false, code: 'DUPLICATE', existing: original });
    const [a, b] = await Promise.all([store.append(entry('dup', 'pair', { n: 1 })), store.append(entry('dup', 'pair', { n: 2 }))]);
    expect(a.ok).toBe(true);
    expect(b).toMatchObject({ ok: false, code: 'DUPLICATE', existing: { payload: { n: 1 }, seq: 2 } });
    const next = await committed(store, entry('dup', 'after'));
    expect(next.seq).toBe(3);
  });

  it('refuses entries it cannot store, alone, without failing the batch they arrived with', async () => {
    const bad: [Partial<AppendedEntry>, RegExp][] = [
      [{ tenant: '' }, /tenant must not be empty/],
      [{ tenant: 'a\u0000b' }, /tenant holds a control character/],
      [{ decisionId: 'x'.repeat(201) }, /decision id is longer than 200/],
      [{ decisionId: '\ud800' }, /lone surrogate/],
      [{ tenant: 42 as unknown as string }, /tenant must be a string, found number/],
      [{ payload: [] as unknown as Record<string, unknown> }, /payload must be a JSON object/],
      [{ payload: { n: 1n } }, /payload is not JSON/],
      [{ payloadJson: { n: 1 } as unknown as string }, /payload text must be a string, found object/],
      // A host cannot forge the marker a purge leaves in the chain.
      [{ kind: 'retention' }, /kind must be adjudication, selection or feedback, found "retention"/],
      [{ kind: 7 as unknown as 'feedback' }, /kind must be adjudication, selection or feedback, found 7/],
    ];
    const results = await Promise.all([...bad.map(([override]) => store.append({ ...entry('bad', 'ok-1'), ...override })), store.append(entry('bad', 'ok-2'))]);
    bad.forEach(([, message], i) => expect(results[i]).toMatchObject({ ok: false, code: 'INVALID_ENTRY', message: expect.stringMatching(message) }));
    expect(results[bad.length]).toMatchObject({ ok: true, record: { seq: 1 } });
  });

  it('stores a payload text the host serialized already as it is, and hands out the payload without it', async () => {
    const payload = { response: { status: 'GREEN', traces: [1, 2, 3] }, note: 'é' };
    const record = await committed(store, { ...entry('spliced', 's1'), payload, payloadJson: `{"response":${JSON.stringify(payload.response)},"note":"é"}` });
    expect(record).not.toHaveProperty('payloadJson');
    const stored = await store.get('spliced', 's1');
    expect(stored).toMatchObject({ ok: true, value: { payload, seq: 1 } });
    expect((stored as { value: object }).value).not.toHaveProperty('payloadJson');
    expect((await verified(store)).valid).toBe(true);
  });

  it('finds nothing under a key no record can have, the same on every backend, and keeps serving', async () => {
    await committed(store, entry('keys', 'k1'));
    const keys = ['', 'a\u0000b', '\ud800', 'x'.repeat(201), 'tab\there', 42 as unknown as string];
    for (const key of keys) {
      expect(await store.get(key, 'k1')).toEqual({ ok: true, value: null });
      expect(await store.get('keys', key)).toEqual({ ok: true, value: null });
      expect(await store.readChain(key, 0, 10)).toEqual({ ok: true, value: [] });
    }
    expect(await store.get('keys', 'k1')).toMatchObject({ ok: true, value: { decisionId: 'k1' } });
  });

  it('keeps every record across a reopen and continues the chain', async () => {
    await committed(store, entry('reopen', 'r1'));
    await store.close();
    store = await backend.open();
    expect((await store.get('reopen', 'r1')).ok).toBe(true);
    expect((await committed(store, entry('reopen', 'r2'))).seq).toBe(2);
    expect((await verified(store)).valid).toBe(true);
  });

  it('refuses updates and deletes made through SQL, by trigger', async () => {
    await committed(store, entry('trigger', 't1'));
    expect(await backend.refusal("UPDATE decision_records SET body = 'x' WHERE tenant = 'trigger'")).toMatch(/append-only/);
    expect(await backend.refusal("DELETE FROM decision_records WHERE tenant = 'trigger'")).toMatch(/append-only/);
    expect((await verified(store)).valid).toBe(true);
  });

  it('refuses, by trigger, what would make records deletable: a chain deleted, its head or anchor moved back', async () => {
    for (const id of ['c1', 'c2', 'c3']) await committed(store, entry('heads', id));
    const refusals = {
      'a deleted chain': "DELETE FROM chains WHERE tenant = 'heads'",
      'a head moved back': "UPDATE chains SET head_seq = 2 WHERE tenant = 'heads'",
      'a head rewritten in place': "UPDATE chains SET head_hash = 'x' WHERE tenant = 'heads'",
      'an anchor moved past the head': "UPDATE chains SET anchor_seq = 4 WHERE tenant = 'heads'",
      'a chain renamed': "UPDATE chains SET tenant = 'other' WHERE tenant = 'heads'",
      'an anchor moved back': "UPDATE chains SET anchor_seq = -1 WHERE tenant = 'heads'",
      'an anchor rewritten in place': "UPDATE chains SET anchor_hash = 'x' WHERE tenant = 'heads'",
    };
    for (const [what, sql] of Object.entries(refusals)) expect(await backend.refusal(sql), what).toMatch(/never deleted|only moves forward/);
    expect(await backend.refusal("DELETE FROM decision_records WHERE tenant = 'heads'")).toMatch(/append-only/);
    expect((await verified(store)).valid).toBe(true);
    expect((await committed(store, entry('heads', 'c4'))).seq).toBe(4);
  });

  it('answers QUEUE_FULL beyond its queue, and CLOSED once closed', async () => {
    const small = await backend.open({ maxQueued: 5 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => small.append(entry('queue', `q${i}`))));
    expect(results.filter((result) => result.ok)).toHaveLength(5);
    expect(results[7]).toMatchObject({ ok: false, code: 'QUEUE_FULL', message: expect.stringMatching(/5 audit records are already waiting/) });
    await small.close();
    expect(await small.append(entry('queue', 'late'))).toMatchObject({ ok: false, code: 'CLOSED' });
    expect(await small.get('queue', 'q1')).toMatchObject({ ok: false, code: 'CLOSED' });
  });
});

describe.each(backends)('verify on %s names the first broken link', (_name, makeBackend) => {
  /** A fresh database holding one tenant's chain of `length` records (and a bystander chain). */
  async function chainOf(length: number) {
    const backend = await makeBackend();
    const store = await backend.open();
    const records: AuditRecord[] = [];
    for (let i = 1; i <= length; i++) records.push(await committed(store, entry('victim', `v${i}`, { i })));
    await committed(store, entry('bystander', 'b1'));
    return { backend, store, records };
  }

  async function problemAfter(length: number, tamper: (backend: AuditBackend, records: AuditRecord[]) => Promise<void>, bystander: 'untouched' | 'touched' = 'untouched') {
    const { backend, store, records } = await chainOf(length);
    try {
      await tamper(backend, records);
      const report = await verified(store);
      const bystanderProblem = report.chains.find((chain) => chain.tenant === 'bystander')?.problem;
      if (bystander === 'untouched') expect(bystanderProblem).toBeNull();
      return { valid: report.valid, problem: report.chains.find((chain) => chain.tenant === 'victim')?.problem, bystanderProblem };
    } finally {
      await store.close();
      await backend.dispose();
    }
  }

  it('a changed body is RECORD_ALTERED at that record', async () => {
    const { valid, problem } = await problemAfter(5, async (backend, records) => {
      await backend.editRecord('victim', 3, { body: records[2]!.hash.length ? (await bodyOf(records[2]!)).replace('"i":3', '"i":33') : '' });
    });
    expect(valid).toBe(false);
    expect(problem).toMatchObject({ code: 'RECORD_ALTERED', seq: 3, decisionId: 'v3', message: expect.stringMatching(/record 3 \(v3\) does not match its hash/) });
  });

  it('a changed body with a recomputed hash breaks the next link', async () => {
    const { problem } = await problemAfter(5, async (backend, records) => {
      const body = (await bodyOf(records[1]!)).replace('"i":2', '"i":22');
      await backend.editRecord('victim', 2, { body, hash: linkHash(records[1]!.prevHash, body) });
    });
    expect(problem).toMatchObject({ code: 'LINK_BROKEN', seq: 3, message: expect.stringMatching(/record 3 \(v3\) does not link to record 2/) });
  });

  it('a deleted record is a SEQ_GAP; a deleted newest record a HEAD_MISMATCH', async () => {
    expect((await problemAfter(5, (backend) => backend.deleteRecord('victim', 3))).problem).toMatchObject({ code: 'SEQ_GAP', seq: 4, message: expect.stringMatching(/records 3–3 are missing/) });
    expect((await problemAfter(5, (backend) => backend.deleteRecord('victim', 5))).problem).toMatchObject({ code: 'HEAD_MISMATCH', seq: 4, message: expect.stringMatching(/ends at record 4 but its head is record 5/) });
    expect((await problemAfter(5, (backend) => backend.deleteRecord('victim', 1))).problem).toMatchObject({ code: 'SEQ_GAP', seq: 2 });
  });

  it('two records swapped, or a record moved to another tenant, are COLUMN_MISMATCH', async () => {
    const swapped = await problemAfter(5, async (backend) => {
      await backend.editRecord('victim', 2, { seq: -2 });
      await backend.editRecord('victim', 4, { seq: 2 });
      await backend.editRecord('victim', -2, { seq: 4 });
    });
    expect(swapped.problem).toMatchObject({ code: 'COLUMN_MISMATCH', seq: 2, message: expect.stringMatching(/seq column says 2 but its hashed body says 4/) });
    const moved = await problemAfter(3, (backend) => backend.editRecord('victim', 3, { tenant: 'bystander', seq: 2 }), 'touched');
    expect(moved.problem).toMatchObject({ code: 'HEAD_MISMATCH', seq: 2 });
    // Past the bystander's head: not part of its chain.
    expect(moved.bystanderProblem).toMatchObject({ code: 'BEYOND_HEAD', seq: 2, decisionId: 'v3' });
  });

  it('an anchor moved forward to hide the first records is ANCHOR_MISMATCH', async () => {
    const { problem } = await problemAfter(5, async (backend, records) => {
      await backend.deleteRecord('victim', 1);
      await backend.deleteRecord('victim', 2);
      await backend.setAnchor('victim', 2, records[1]!.hash);
    });
    expect(problem).toMatchObject({ code: 'ANCHOR_MISMATCH', message: expect.stringMatching(/starts after record 2, but its newest retention record says nothing was purged/) });
  });

  it('any single-character change to any stored field of any record is caught (property)', async () => {
    const length = 6;
    const { backend, store, records } = await chainOf(length);
    try {
      const bodies = await Promise.all(records.map(bodyOf));
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: length }), fc.constantFrom('body', 'hash', 'prevHash'), fc.nat(), fc.integer({ min: 32, max: 126 }), async (seq, field, at, code) => {
          const original = field === 'body' ? bodies[seq - 1]! : records[seq - 1]![field];
          const index = at % original.length;
          const replacement = String.fromCharCode(code === original.charCodeAt(index) ? (code === 126 ? 32 : code + 1) : code);
          await backend.editRecord('victim', seq, { [field]: original.slice(0, index) + replacement + original.slice(index + 1) });
          try {
            const report = await verified(store);
            const problem = report.chains.find((chain) => chain.tenant === 'victim')?.problem;
            expect(problem).not.toBeNull();
            // The break is named at the edited record, or (an edited hash) at the one linking to it.
            expect([seq, seq + 1, length]).toContain(problem!.seq);
          } finally {
            await backend.editRecord('victim', seq, { [field]: original });
          }
        }),
        { numRuns: 60 },
      );
      expect((await verified(store)).valid).toBe(true);
    } finally {
      await store.close();
      await backend.dispose();
    }
  });

  async function bodyOf(record: AuditRecord): Promise<string> {
    // The body as stored is what the hash covers: rebuild it the way the store wrote it.
    const header = JSON.stringify({ tenant: record.tenant, seq: record.seq, decision_id: record.decisionId, kind: record.kind, recorded_at: record.recordedAt, request_hash: record.requestHash });
    const body = `${header.slice(0, -1)},"payload":${JSON.stringify(record.payload)}}`;
    expect(linkHash(record.prevHash, body)).toBe(record.hash);
    return body;
  }
});

describe.each(backends)('retention on %s', (_name, makeBackend) => {
  it('purges the records before the cutoff, anchors the chain, and keeps it verifiable', async () => {
    const backend = await makeBackend();
    const store = await backend.open();
    try {
      const old: AuditRecord[] = [];
      for (let i = 1; i <= 5; i++) old.push(await committed(store, entry('keep', `old${i}`)));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const cutoff = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (let i = 1; i <= 3; i++) await committed(store, entry('keep', `new${i}`));
      await committed(store, entry('all-old', 'x'));
      const purged = await store.purge(cutoff);
      expect(purged).toEqual({ ok: true, value: [{ tenant: 'all-old', removed: 0, anchorSeq: 0, memoryRemoved: 0 }, { tenant: 'keep', removed: 5, anchorSeq: 5, memoryRemoved: 0 }] });
      expect(await store.get('keep', 'old3')).toEqual({ ok: true, value: null });
      expect((await store.get('keep', 'new1')).ok).toBe(true);
      const retention = (await store.readChain('keep', 8, 10));
      expect(retention).toMatchObject({ ok: true, value: [{ seq: 9, kind: 'retention', decisionId: '~retention:5' }] });
      const report = await verified(store);
      expect(report.valid).toBe(true);
      expect(report.chains.find((chain) => chain.tenant === 'keep')).toMatchObject({ records: 4, head: { seq: 9 } });
      // A second purge with nothing new to remove changes nothing; a later one moves the anchor on.
      expect(await store.purge(cutoff)).toMatchObject({ ok: true, value: [{ removed: 0 }, { removed: 0, anchorSeq: 5 }] });
      expect(await store.purge(Date.now() + 1_000)).toMatchObject({ ok: true, value: [{ tenant: 'all-old', removed: 1, anchorSeq: 1 }, { tenant: 'keep', removed: 4, anchorSeq: 9 }] });
      expect((await verified(store)).valid).toBe(true);
      expect((await committed(store, entry('keep', 'after'))).seq).toBe(11);
      // Moving the anchor back to the genesis (to pretend nothing was purged) is caught.
      await backend.setAnchor('keep', 0, GENESIS_HASH);
      const tampered = await verified(store);
      expect(tampered.chains.find((chain) => chain.tenant === 'keep')?.problem).toMatchObject({ code: 'SEQ_GAP' });
      expect(old).toHaveLength(5);
    } finally {
      await store.close();
      await backend.dispose();
    }
  });
});
