/**
 * The statements that change a SQLite audit database: appending a group commit's batch and a
 * retention purge, each one `BEGIN IMMEDIATE` transaction that reads the chain heads it extends
 * inside the transaction (so several connections, threads or processes may write one file).
 * The store runs appends on a writer thread (sqlite-writer-thread.ts) and purges on its own
 * connection; both use this class.
 *
 * A batch moves its chains' heads first and then inserts the records up to them: since schema
 * version 4 a record is only accepted at or before its chain's head (sqlite-schema.ts). Rows
 * found past a head were inserted outside adec: they are moved to decision_records_beyond_head
 * and the batch links after the true head, so they never stop a tenant's decisions.
 */
import type Database from 'better-sqlite3';
import type { ChainState, StoredRecord } from '../audit-record.js';
import type { ChainHead } from '../chain.js';
import { linkBatch, recordKey, type LinkResult } from '../link-batch.js';
import type { SerializedEntry } from '../prepared-entry.js';
import { purgeThrough, retentionEntry, type ChainPurge } from '../retention.js';

export const ROW_COLUMNS = 'tenant, seq, decision_id AS decisionId, kind, recorded_at AS recordedAt, request_hash AS requestHash, body, prev_hash AS prevHash, hash';
export const CHAIN_COLUMNS = 'tenant, head_seq AS headSeq, head_hash AS headHash, anchor_seq AS anchorSeq, anchor_hash AS anchorHash';

export class SqliteChainWriter {
  readonly #headOf;
  readonly #recordById;
  readonly #insertRecord;
  readonly #setHead;
  readonly #seqsBeyond;
  readonly #copyBeyond;
  readonly #removeBeyond;
  readonly #allChains;
  readonly #firstKept;
  readonly #hashAt;
  readonly #setAnchor;
  readonly #removeThrough;
  readonly #appendBatch;
  readonly #purgeChains;

  constructor(db: Database.Database) {
    this.#headOf = db.prepare<[string], ChainHead>('SELECT head_seq AS seq, head_hash AS hash FROM chains WHERE tenant = ?');
    this.#recordById = db.prepare<[string, string], StoredRecord>(`SELECT ${ROW_COLUMNS} FROM decision_records WHERE tenant = ? AND decision_id = ?`);
    this.#insertRecord = db.prepare<[StoredRecord]>('INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES (@tenant, @seq, @decisionId, @kind, @recordedAt, @requestHash, @body, @prevHash, @hash)');
    this.#setHead = db.prepare<[string, number, string]>('INSERT INTO chains (tenant, head_seq, head_hash) VALUES (?, ?, ?) ON CONFLICT (tenant) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash');
    this.#allChains = db.prepare<[], ChainState>(`SELECT ${CHAIN_COLUMNS} FROM chains ORDER BY tenant`);
    this.#seqsBeyond = db.prepare<[string, number], number>('SELECT seq FROM decision_records WHERE tenant = ? AND seq > ? ORDER BY seq').pluck();
    this.#copyBeyond = db.prepare<[string, string, number]>('INSERT INTO decision_records_beyond_head (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash, set_aside_at) SELECT tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash, ? FROM decision_records WHERE tenant = ? AND seq > ?');
    this.#removeBeyond = db.prepare<[string, number]>('DELETE FROM decision_records WHERE tenant = ? AND seq > ?');
    // Walks the chain from its anchor in seq order and stops at the first record to keep, so a
    // purge reads only the records it removes (plus one) and needs no index on the time.
    this.#firstKept = db.prepare<[string, number, string], { seq: number }>('SELECT seq FROM decision_records WHERE tenant = ? AND seq > ? AND recorded_at >= ? ORDER BY seq LIMIT 1');
    this.#hashAt = db.prepare<[string, number], { hash: string }>('SELECT hash FROM decision_records WHERE tenant = ? AND seq = ?');
    this.#setAnchor = db.prepare<[number, string, string]>('UPDATE chains SET anchor_seq = ?, anchor_hash = ? WHERE tenant = ?');
    this.#removeThrough = db.prepare<[string, number]>('DELETE FROM decision_records WHERE tenant = ? AND seq <= ?');
    this.#appendBatch = db.transaction((entries: readonly SerializedEntry[]) => this.#link(entries, new Date().toISOString()));
    this.#purgeChains = db.transaction((cutoff: number) => this.#purgeAll(cutoff));
  }

  /** Appends one group commit's entries in one transaction. */
  append(entries: readonly SerializedEntry[]): LinkResult[] {
    return this.#appendBatch.immediate(entries);
  }

  /** Purges every chain up to `cutoff` in one transaction (see AuditStore.purge). */
  purge(cutoff: number): ChainPurge[] {
    return this.#purgeChains.immediate(cutoff);
  }

  /** Links and writes `entries` inside the current transaction. */
  #link(entries: readonly SerializedEntry[], recordedAt: string): LinkResult[] {
    const heads = new Map<string, ChainHead>();
    const setAside = new Map<string, readonly number[]>();
    for (const tenant of new Set(entries.map(({ entry }) => entry.tenant))) {
      const head = this.#headOf.get(tenant);
      if (head !== undefined) heads.set(tenant, head);
      const beyond = this.#seqsBeyond.all(tenant, head?.seq ?? 0);
      if (beyond.length > 0) setAside.set(tenant, this.#setAside(tenant, head?.seq ?? 0, beyond, recordedAt));
    }
    const existing = new Map<string, StoredRecord>();
    for (const { entry } of entries) {
      const stored = this.#recordById.get(entry.tenant, entry.decisionId);
      if (stored !== undefined) existing.set(recordKey(entry.tenant, entry.decisionId), stored);
    }
    const linked = linkBatch(entries, recordedAt, heads, existing, setAside);
    // Heads first: the insert trigger accepts a record only at or before its chain's head.
    for (const [tenant, head] of linked.heads) this.#setHead.run(tenant, head.seq, head.hash);
    for (const row of linked.rows) this.#insertRecord.run(row);
    return [...linked.results];
  }

  /** Moves `tenant`'s rows past `headSeq` (their seqs: `beyond`) out of the chain's table. */
  #setAside(tenant: string, headSeq: number, beyond: readonly number[], at: string): readonly number[] {
    this.#copyBeyond.run(at, tenant, headSeq);
    this.#removeBeyond.run(tenant, headSeq);
    return beyond;
  }

  #purgeAll(cutoff: number): ChainPurge[] {
    const before = new Date(cutoff).toISOString();
    return this.#allChains.all().map((chain) => {
      const throughSeq = purgeThrough(chain, this.#firstKept.get(chain.tenant, chain.anchorSeq, before)?.seq);
      if (throughSeq === undefined) return { tenant: chain.tenant, removed: 0, anchorSeq: chain.anchorSeq };
      const through = { seq: throughSeq, hash: this.#hashAt.get(chain.tenant, throughSeq)!.hash };
      this.#setAnchor.run(through.seq, through.hash, chain.tenant);
      const removed = this.#removeThrough.run(chain.tenant, through.seq).changes;
      const [marked] = this.#link([retentionEntry(chain.tenant, through, removed, cutoff)], new Date().toISOString());
      // Throwing rolls the whole purge back: records are never removed without their marker.
      if (!marked!.ok) throw new Error(`the retention record of ${chain.tenant} could not be appended (${marked!.code})`);
      return { tenant: chain.tenant, removed, anchorSeq: through.seq };
    });
  }
}
