/**
 * The embedded default audit store: one SQLite file (better-sqlite3), in WAL mode with
 * `synchronous = FULL`, so a committed batch survives a crash of the process and of the machine.
 *
 * A batch's fsync is the one disk wait it pays (measured on this project's CI machine: 0.35 ms
 * for one record, 2.2 ms for 64 records of 4 KB). Appends are committed on a writer thread
 * (writer-thread.ts), reads on the event loop through the store's own connection (WAL lets them
 * run beside a write). Several processes may share the file: every write is a `BEGIN IMMEDIATE`
 * transaction that reads the chain heads it extends inside the transaction. User memory is
 * written on the writer thread too, and read on the store's connection (sqlite-user-memory.ts).
 */
import Database from 'better-sqlite3';
import type { AppendedEntry, AuditRecord, ChainState, StoredRecord } from '../audit-record.js';
import type { AppendResult, AuditStats, AuditStore, Lookup, PurgeReport, RowsOffChain } from '../audit-store.js';
import { AppendQueue } from '../append-queue.js';
import { recordOf } from '../chain.js';
import { placedRecordProblem } from '../record-integrity.js';
import { PLACED_RECORD_BY_ID, placedRecord, type PlacedRecordRow } from '../placed-record-query.js';
import { ROWS_OFF_CHAIN } from '../rows-off-chain-query.js';
import { CREATE_MIGRATIONS_TABLE, pendingMigrations } from '../migration.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { closedFailure, describeError, storeFailure, type OpenedStore, type StoreOptions } from '../store-options.js';
import { purgeReports } from '../retention.js';
import { CHAIN_COLUMNS, ROW_COLUMNS, SqliteChainWriter } from './sqlite-chain-writer.js';
import { SqliteMemoryWriter } from './sqlite-memory-writer.js';
import { SqliteUserMemory } from './sqlite-user-memory.js';
import { WriterThread } from './writer-thread.js';
import { whileLockedTryAgain } from './write-lock-wait.js';
import { areStorableKeys } from '../prepared-entry.js';

export function openSqliteAuditStore(path: string, options: StoreOptions = {}): OpenedStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
    const opened = db;
    // Several processes opening a new file at once (`adec serve --workers N`): switching it to
    // WAL takes a lock SQLite does not wait for, so the losers are told "database is locked"
    // at once, busy timeout or not. They try again as the writer thread does for its commits.
    const migrated = whileLockedTryAgain(() => {
      opened.pragma('journal_mode = WAL');
      return migrate(opened);
    }, busyTimeoutMs);
    db.pragma('synchronous = FULL');
    if (migrated !== undefined) {
      db.close();
      return { ok: false, code: 'SCHEMA_TOO_NEW', message: `${path}: ${migrated}` };
    }
    return { ok: true, store: new SqliteAuditStore(db, new WriterThread(path, busyTimeoutMs), options) };
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
  readonly memory: SqliteUserMemory;
  readonly #appends: AppendQueue;
  /** Purges, on the store's own connection (they are rare and short). */
  readonly #writer: SqliteChainWriter;
  readonly #purge;
  readonly #recordById;
  readonly #rowsOffChain;
  readonly #allChains;
  readonly #chainPage;

  constructor(private readonly db: Database.Database, private readonly thread: WriterThread, options: StoreOptions) {
    this.#writer = new SqliteChainWriter(db);
    this.memory = new SqliteUserMemory(db, thread, (run) => this.#read(run), options);
    const memoryWriter = new SqliteMemoryWriter(db);
    // One transaction: the chains' purge (a savepoint inside it) and the memory's.
    this.#purge = db.transaction((cutoff: number) => {
      const forgotten = memoryWriter.forgetBefore(new Date(cutoff).toISOString());
      return purgeReports(this.#writer.purge(cutoff), forgotten);
    });
    this.#recordById = db.prepare<[string, string], PlacedRecordRow>(PLACED_RECORD_BY_ID.replaceAll(/\$\d/g, '?'));
    this.#rowsOffChain = db.prepare<[], RowsOffChain>(ROWS_OFF_CHAIN);
    this.#allChains = db.prepare<[], ChainState>(`SELECT ${CHAIN_COLUMNS} FROM chains ORDER BY tenant`);
    this.#chainPage = db.prepare<[string, number, number], StoredRecord>(`SELECT ${ROW_COLUMNS} FROM decision_records WHERE tenant = ? AND seq > ? ORDER BY seq LIMIT ?`);
    this.#appends = new AppendQueue((entries) => thread.append(entries), options);
  }

  append(entry: AppendedEntry): Promise<AppendResult> {
    return this.#appends.append(entry);
  }

  async get(tenant: string, decisionId: string): Promise<Lookup<AuditRecord | null>> {
    if (!areStorableKeys(tenant, decisionId)) return { ok: true, value: null };
    const read = this.#read(() => this.#recordById.get(tenant, decisionId));
    if (!read.ok || read.value === undefined) return read.ok ? { ok: true, value: null } : read;
    const placed = placedRecord(read.value);
    const problem = placedRecordProblem(placed);
    return problem === undefined ? { ok: true, value: recordOf(placed.row) } : storeFailure('RECORD_INVALID', problem);
  }

  async rowsOffChain(): Promise<Lookup<readonly RowsOffChain[]>> {
    return this.#read(() => this.#rowsOffChain.all());
  }

  async chains(): Promise<Lookup<readonly ChainState[]>> {
    return this.#read(() => this.#allChains.all());
  }

  async readChain(tenant: string, afterSeq: number, limit: number): Promise<Lookup<readonly StoredRecord[]>> {
    if (!areStorableKeys(tenant)) return { ok: true, value: [] };
    return this.#read(() => this.#chainPage.all(tenant, afterSeq, limit));
  }

  async purge(cutoff: number): Promise<Lookup<readonly PurgeReport[]>> {
    return this.#read(() => this.#purge.immediate(cutoff));
  }

  stats(): AuditStats {
    return this.#appends.stats();
  }

  async close(): Promise<void> {
    if (this.#appends.closed) return;
    await Promise.all([this.#appends.close(), this.memory.close()]);
    await this.thread.close();
    this.db.close();
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
