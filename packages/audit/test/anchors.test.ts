/**
 * Signed anchors (issue 26, finding 6): checkpoints of every chain's head, signed with a real
 * Ed25519 key, prove what a chain's own links cannot: that no anchored record was removed,
 * truncated or rolled back. On SQLite and PostgreSQL a chain rolled back by hand verifies without
 * anchors and fails with them, at its first missing position; on SQLite, so does a store whose
 * write-ahead log was cut in half after a crash. Through the CLI: `adec audit anchor` prints them
 * and `adec audit verify --anchors` checks them, refusing a line whose signature does not verify.
 */
import { copyFileSync, mkdtempSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAuditStore, readAnchors, signedAnchors, verifyChains, type AnchorSigner, type AuditRecord, type AuditStore, type SignedAnchor } from '@adec/audit';
import { generateKey, parseKey } from '@adec/runtime';
import { runCli } from '../../cli/test/run-cli.js';
import { AUDIT_BACKENDS, type AuditBackend } from './audit-backends.js';

const backends = AUDIT_BACKENDS;

function keyPair() {
  const generated = generateKey('jwk');
  const parsed = parseKey(generated.privateText, 'anchor.key.jwk');
  const publicKey = parseKey(generated.publicText, 'anchor.pub.jwk');
  if (!parsed.ok || !publicKey.ok) throw new Error('key');
  return { generated, signer: { key: parsed.key, keyId: parsed.keyId } satisfies AnchorSigner, publicKey: publicKey.key };
}

async function appendAll(store: AuditStore, tenant: string, from: number, to: number): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  // One at a time: each record is its own commit (its own frames in SQLite's log).
  for (let i = from; i <= to; i++) {
    const result = await store.append({ tenant, decisionId: `${tenant}-${i}`, kind: 'adjudication', requestHash: 'h', payload: { i } });
    if (!result.ok) throw new Error(result.code);
    records.push(result.record);
  }
  return records;
}

async function anchorsOf(store: AuditStore, signer: AnchorSigner): Promise<readonly SignedAnchor[]> {
  const anchors = await signedAnchors(store, signer);
  if (!anchors.ok) throw new Error(anchors.message);
  return anchors.value;
}

describe('signed anchors', () => {
  it('verify with the signing key only: a changed field, another key or a broken line is refused, by line', async () => {
    const { signer, publicKey } = keyPair();
    const other = keyPair();
    const dir = mkdtempSync(join(tmpdir(), 'adec-anchors-'));
    const opened = await openAuditStore(join(dir, 'audit.db'));
    if (!opened.ok) throw new Error(opened.message);
    try {
      await appendAll(opened.store, 'acme', 1, 3);
      const [anchor] = await anchorsOf(opened.store, signer);
      expect(anchor).toMatchObject({ format: 'adec.anchor.v1', tenant: 'acme', chain: 'decisions', seq: 3, key_id: signer.keyId, signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) });
      const line = JSON.stringify(anchor);
      expect(readAnchors(`${line}\n\n${line}\n`, publicKey, signer.keyId)).toEqual({ ok: true, anchors: [anchor, anchor] });
      const [otherAnchor] = await anchorsOf(opened.store, other.signer);
      const lines = [
        line,
        JSON.stringify({ ...anchor, seq: 2 }),
        JSON.stringify({ ...anchor, head_hash: 'a'.repeat(64) }),
        JSON.stringify({ ...anchor, anchored_at: '2020-01-01T00:00:00.000Z' }),
        JSON.stringify({ ...otherAnchor, key_id: signer.keyId }),
        JSON.stringify(otherAnchor),
        line.slice(0, 40),
      ].join('\n');
      const read = readAnchors(lines, publicKey, signer.keyId);
      expect(read).toEqual({
        ok: false,
        problems: [
          expect.stringMatching(/^line 2: its signature does not verify/),
          expect.stringMatching(/^line 3: its signature does not verify/),
          expect.stringMatching(/^line 4: its signature does not verify/),
          expect.stringMatching(/^line 5: its signature does not verify/),
          expect.stringMatching(/^line 6: is signed by key/),
          'line 7: is not JSON',
        ],
      });
    } finally {
      await opened.store.close();
    }
  });
});

describe.each(backends)('verify against signed anchors on %s', (_name, makeBackend) => {
  let backend: AuditBackend | undefined;
  let store: AuditStore | undefined;
  afterEach(async () => {
    await store?.close();
    await backend?.dispose();
  });

  it('a chain rolled back past an anchor verifies alone, and fails with its anchors at the first missing position', async () => {
    const { signer } = keyPair();
    backend = await makeBackend();
    store = await backend.open();
    const records = await appendAll(store, 'acme', 1, 6);
    await appendAll(store, 'globex', 1, 2);
    const early = await anchorsOf(store, signer);
    // Rolled back to record 3 by hand: its newest records removed and its head moved back with them.
    await backend.setHead('acme', 3, records[2]!.hash);
    for (const seq of [4, 5, 6]) await backend.deleteRecord('acme', seq);
    expect(await verifyChains(store)).toMatchObject({ ok: true, valid: true });
    const checked = await verifyChains(store, { anchors: early });
    expect(checked).toMatchObject({ ok: true, valid: false });
    const chains = checked.ok ? checked.chains : [];
    expect(chains.find((chain) => chain.tenant === 'acme')?.problem).toMatchObject({ code: 'ANCHORED_RECORD_MISSING', seq: 4, message: expect.stringMatching(/records 4–6 were removed, truncated or rolled back \(the first missing position is 4\)/) });
    expect(chains.find((chain) => chain.tenant === 'globex')?.problem).toBeNull();

    // Written again from there: the records at the anchored positions are not the anchored ones.
    await appendAll(store, 'acme', 7, 9);
    const rewritten = await verifyChains(store, { anchors: early, tenant: 'acme' });
    expect(rewritten.ok && rewritten.chains).toEqual([expect.objectContaining({ tenant: 'acme', problem: expect.objectContaining({ code: 'ANCHORED_RECORD_CHANGED', seq: 6 }) })]);
  });

  it('a retention purge leaves anchored chains verifying, and a tenant anchored but gone is missing from position 1', async () => {
    const { signer } = keyPair();
    backend = await makeBackend();
    store = await backend.open();
    await appendAll(store, 'acme', 1, 4);
    const anchors = await anchorsOf(store, signer);
    const purged = await store.purge(Date.now() + 60_000);
    expect(purged.ok).toBe(true);
    await appendAll(store, 'acme', 5, 6);
    expect(await verifyChains(store, { anchors: [...anchors, ...(await anchorsOf(store, signer))] })).toMatchObject({ ok: true, valid: true });
    const ghost = { ...anchors[0]!, tenant: 'initech' };
    const checked = await verifyChains(store, { anchors: [ghost] });
    expect(checked.ok && checked.chains.find((chain) => chain.tenant === 'initech')).toMatchObject({ records: 0, problem: { code: 'ANCHORED_RECORD_MISSING', seq: 1 } });
  });
});

describe('a SQLite store whose write-ahead log was cut after a crash', () => {
  /** Records committed one by one, anchored, then the database and its log copied as a crash would leave them, the log cut to `fraction`. */
  async function crashedCopy(fraction: number) {
    const { generated, signer } = keyPair();
    const dir = mkdtempSync(join(tmpdir(), 'adec-wal-'));
    const live = join(dir, 'live.db');
    const opened = await openAuditStore(live);
    if (!opened.ok) throw new Error(opened.message);
    await appendAll(opened.store, 'acme', 1, 40);
    const anchors = await anchorsOf(opened.store, signer);
    // Copied while the store is open: its log is not checkpointed into the database file.
    const copy = join(dir, 'copy.db');
    copyFileSync(live, copy);
    copyFileSync(`${live}-wal`, `${copy}-wal`);
    await opened.store.close();
    const walBytes = statSync(`${copy}-wal`).size;
    truncateSync(`${copy}-wal`, Math.floor(walBytes * fraction));
    writeFileSync(join(dir, 'anchor.key.jwk'), generated.privateText);
    writeFileSync(join(dir, 'anchor.pub.jwk'), generated.publicText);
    writeFileSync(join(dir, 'anchors.jsonl'), anchors.map((anchor) => `${JSON.stringify(anchor)}\n`).join(''));
    return { dir, copy, anchors };
  }

  it('loses answered decisions that verify alone cannot see; the anchors name the first missing position', async () => {
    const { copy, anchors } = await crashedCopy(0.5);
    const opened = await openAuditStore(copy);
    if (!opened.ok) throw new Error(opened.message);
    try {
      const alone = await verifyChains(opened.store);
      expect(alone).toMatchObject({ ok: true, valid: true });
      const head = alone.ok ? alone.chains[0]!.head.seq : -1;
      expect(head).toBeGreaterThan(0);
      expect(head).toBeLessThan(40);
      const checked = await verifyChains(opened.store, { anchors });
      expect(checked.ok && checked.chains[0]!.problem).toMatchObject({ code: 'ANCHORED_RECORD_MISSING', seq: head + 1, message: expect.stringContaining(`records ${head + 1}–40 were removed, truncated or rolled back`) });
      // None of the lost decisions is handed out; the chain goes on from what survived.
      for (let i = head + 1; i <= 40; i++) expect(await opened.store.get('acme', `acme-${i}`)).toEqual({ ok: true, value: null });
      expect((await appendAll(opened.store, 'acme', 41, 41))[0]!.seq).toBe(head + 1);
    } finally {
      await opened.store.close();
    }
  });

  it('through the CLI: adec audit anchor prints anchors that adec audit verify --anchors checks, exiting 1 at the first missing position', async () => {
    const { dir, copy } = await crashedCopy(0.5);
    const printed = await runCli(['audit', 'anchor', '--audit', copy, '--anchor-key', 'anchor.key.jwk'], dir);
    expect(printed.code).toBe(0);
    const line = JSON.parse(printed.stdout.trim().split('\n')[0]!) as SignedAnchor;
    expect(line).toMatchObject({ tenant: 'acme', chain: 'decisions', format: 'adec.anchor.v1' });
    writeFileSync(join(dir, 'now.jsonl'), printed.stdout);
    expect((await runCli(['audit', 'verify', '--audit', copy, '--anchors', 'now.jsonl', '--anchor-key', 'anchor.pub.jwk'], dir)).code).toBe(0);

    const run = await runCli(['audit', 'verify', '--audit', copy, '--anchors', 'anchors.jsonl', '--anchor-key', 'anchor.pub.jwk'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`BROKEN  acme: ANCHORED_RECORD_MISSING at record ${line.seq + 1}: `);
    expect(run.stdout).toContain(`(the first missing position is ${line.seq + 1})`);

    writeFileSync(join(dir, 'forged.jsonl'), `${JSON.stringify({ ...line, seq: line.seq - 1 })}\n`);
    const forged = await runCli(['audit', 'verify', '--audit', copy, '--anchors', 'forged.jsonl', '--anchor-key', 'anchor.pub.jwk'], dir);
    expect(forged).toMatchObject({ code: 1, stderr: expect.stringMatching(/ANCHORS_INVALID: .*\n {2}line 1: its signature does not verify/) });
  });
});
