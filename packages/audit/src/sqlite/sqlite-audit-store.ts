/**
 * The embedded default audit store: one SQLite file (better-sqlite3), in WAL mode with
 * `synchronous = FULL`, so a committed batch survives a crash of the process and of the machine.
 *
 * better-sqlite3 is synchronous: a group commit runs on the event loop, and its fsync is the
 * one disk wait a batch pays (measured on this project's CI machine: 0.35 ms for one record,
 * 2.2 ms for 64 records of 4 KB). Several processes may share the file: every write is a
 * `BEGIN IMMEDIATE` transaction that reads the chain heads it extends inside the transaction.
 */
import Database from 'better-sqlite3';
import type { AuditEntry, AuditRecord, ChainState, StoredRecord } from '../audit-record.js';
import type { AppendResult, AuditStats, AuditStore, Lookup, PurgeReport } from '../audit-store.js';
import { AppendQueue } from '../append-queue.js';
import { recordOf, type ChainHead } from '../chain.js';
import { linkBatch, recordKey } from '../link-batch.js';
import { CREATE_MIGRATIONS_TABLE, pendingMigrations } from '../migration.js';
import type { PreparedEntry } from '../prepared-entry.js';
import { purgeThrough, retentionEntry } from '../retention.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { closedFailure, describeError, storeFailure, type OpenedStore, type StoreOptions } from '../store-options.js';

const ROW_COLUMNS = 'tenant, seq, decision_id AS decisionId, kind, recorded_at AS recordedAt, request_hash AS requestHash, body, prev_hash AS prevHash, hash';
const CHAIN_COLUMNS = 'tenant, head_seq AS headSeq, head_hash AS headHash, anchor_seq AS anchorSeq, anchor_hash AS anchorHash';

export function openSqliteAuditStore(path: string, options: StoreOptions = {}): OpenedStore {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: options.busyTimeoutMs ?? 5_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const migrated = migrate(db);
    if (migrated !== undefined) {
      db.close();
      return { ok: false, code: 'SCHEMA_TOO_NEW', message: `${path}: ${migrated}` };
    }
    return { ok: true, store: new SqliteAuditStore(db, options) };
  } catch (error) {
    db?.close();
    return { ok: false, code: 'STORE_UNAVAILABLE', message: `the audit database ${path} could not be opened: ${describeError(error)}` };
  }
}

/** Applies the migrations this database lacks; the reason it cannot, if it cannot. */
function migrate(db: Database.Database): string | undefined {
  return db.transaction(() => {
    db.exec(CREATE_MIGRATIONS_TABLE);
    const applied = (db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null }).version ?? 0;
    const migrations = pendingMigrations(SQLITE_MIGRATIONS, applied);
    if ('refused' in migrations) return migrations.refused;
    for (const migration of migrations.pending) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
    }
    return undefined;
  }).immediate();
}

class SqliteAuditStore implements AuditStore {
  readonly backend = 'sqlite';
  readonly #appends: AppendQueue;

  readonly #headOf;
  readonly #recordById;
  readonly #insertRecord;
  readonly #setHead;
  readonly #allChains;
  readonly #chainPage;
  readonly #firstKept;
  readonly #hashAt;
  readonly #setAnchor;
  readonly #removeThrough;
  readonly #appendBatch;
  readonly #purgeChains;

  constructor(private readonly db: Database.Database, options: StoreOptions) {
    this.#headOf = db.prepare<[string], ChainHead>('SELECT head_seq AS seq, head_hash AS hash FROM chains WHERE tenant = ?');
    this.#recordById = db.prepare<[string, string], StoredRecord>(`SELECT ${ROW_COLUMNS} FROM decision_records WHERE tenant = ? AND decision_id = ?`);
    this.#insertRecord = db.prepare<[StoredRecord]>('INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES (@tenant, @seq, @decisionId, @kind, @recordedAt, @requestHash, @body, @prevHash, @hash)');
    this.#setHead = db.prepare<[string, number, string]>('INSERT INTO chains (tenant, head_seq, head_hash) VALUES (?, ?, ?) ON CONFLICT (tenant) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash');
    this.#allChains = db.prepare<[], ChainState>(`SELECT ${CHAIN_COLUMNS} FROM chains ORDER BY tenant`);
    this.#chainPage = db.prepare<[string, number, number], StoredRecord>(`SELECT ${ROW_COLUMNS} FROM decision_records WHERE tenant = ? AND seq > ? ORDER BY seq LIMIT ?`);
    // Walks the chain from its anchor in seq order and stops at the first record to keep, so a
    // purge reads only the records it removes (plus one) and needs no index on the time.
    this.#firstKept = db.prepare<[string, number, string], { seq: number }>('SELECT seq FROM decision_records WHERE tenant = ? AND seq > ? AND recorded_at >= ? ORDER BY seq LIMIT 1');
    this.#hashAt = db.prepare<[string, number], { hash: string }>('SELECT hash FROM decision_records WHERE tenant = ? AND seq = ?');
    this.#setAnchor = db.prepare<[number, string, string]>('UPDATE chains SET anchor_seq = ?, anchor_hash = ? WHERE tenant = ?');
    this.#removeThrough = db.prepare<[string, number]>('DELETE FROM decision_records WHERE tenant = ? AND seq <= ?');
    this.#appendBatch = db.transaction((entries: readonly PreparedEntry[]) => this.#link(entries, new Date().toISOString()));
    this.#purgeChains = db.transaction((cutoff: number) => this.#purgeAll(cutoff));
    this.#appends = new AppendQueue((entries) => this.#appendBatch.immediate(entries), options);
  }

  append(entry: AuditEntry): Promise<AppendResult> {
    return this.#appends.append(entry);
  }

  async get(tenant: string, decisionId: string): Promise<Lookup<AuditRecord | null>> {
    return this.#read(() => {
      const row = this.#recordById.get(tenant, decisionId);
      return row === undefined ? null : recordOf(row);
    });
  }

  async chains(): Promise<Lookup<readonly ChainState[]>> {
    return this.#read(() => this.#allChains.all());
  }

  async readChain(tenant: string, afterSeq: number, limit: number): Promise<Lookup<readonly StoredRecord[]>> {
    return this.#read(() => this.#chainPage.all(tenant, afterSeq, limit));
  }

  async purge(cutoff: number): Promise<Lookup<readonly PurgeReport[]>> {
    return this.#read(() => this.#purgeChains.immediate(cutoff));
  }

  stats(): AuditStats {
    return this.#appends.stats();
  }

  async close(): Promise<void> {
    if (this.#appends.closed) return;
    await this.#appends.close();
    this.db.close();
  }

  /** Links and writes `entries` inside the current transaction. */
  #link(entries: readonly PreparedEntry[], recordedAt: string): AppendResult[] {
    const heads = new Map<string, ChainHead>();
    const existing = new Map<string, StoredRecord>();
    for (const { entry } of entries) {
      if (!heads.has(entry.tenant)) {
        const head = this.#headOf.get(entry.tenant);
        if (head !== undefined) heads.set(entry.tenant, head);
      }
      const stored = this.#recordById.get(entry.tenant, entry.decisionId);
      if (stored !== undefined) existing.set(recordKey(entry.tenant, entry.decisionId), stored);
    }
    const linked = linkBatch(entries, recordedAt, heads, existing);
    for (const row of linked.rows) this.#insertRecord.run(row);
    for (const [tenant, head] of linked.heads) this.#setHead.run(tenant, head.seq, head.hash);
    return [...linked.results];
  }

  #purgeAll(cutoff: number): PurgeReport[] {
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

  /** Runs a read (or a purge) and turns a database error into a failure value. */
  #read<T>(run: () => T): Lookup<T> {
    if (this.#appends.closed) return closedFailure();
    try {
      return { ok: true, value: run() };
    } catch (error) {
      return storeFailure('STORE_UNAVAILABLE', `the audit database failed: ${describeError(error)}`);
    }
  }
}
