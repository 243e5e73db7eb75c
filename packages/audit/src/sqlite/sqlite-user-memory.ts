/**
 * User memory (user-memory.ts) in a SQLite audit database. Reads run on the store's own
 * connection, as record reads do. Writes are group-committed on the store's writer thread,
 * between the appends' batches (sqlite-memory-writer.ts), not on the event loop: there each write
 * would stop every request for its fsync and, while the thread commits batch after batch, for the
 * busy handler's sleeps between tries to take the lock (measured on a busy 2-core VM
 * under a steady append load: 9 ms per write at the median and 211 ms at worst, all of it with
 * the event loop stopped, and fewer than half the appends committed). On the thread a write never
 * waits for the thread's own lock, the busy timeout is left for other processes on the file, and
 * the writes that arrive during one commit share the next one's fsync, as appends do.
 */
import type Database from 'better-sqlite3';
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_QUEUED } from '../append-queue.js';
import type { Lookup } from '../audit-store.js';
import { GroupCommit } from '../group-commit.js';
import { checkMemoryKey, prepareMemoryWrite, type PreparedMemoryWrite } from '../prepared-memory-write.js';
import { closedFailure, describeError, storeFailure, type StoreOptions } from '../store-options.js';
import { snapshotOf, type MemoryRow, type MemorySnapshot, type MemoryWrite, type UserMemory } from '../user-memory.js';
import type { WriterThread } from './writer-thread.js';

/** Runs a read on the store's connection, a database error turned into a failure value. */
export type GuardedRead = <T>(run: () => T) => Lookup<T>;

const MEMORY_COLUMNS = 'signal, value_json AS valueJson, outcome_id AS outcomeId, updated_at AS updatedAt, write_seq AS writeSeq';

export class SqliteUserMemory implements UserMemory {
  readonly #rows;
  readonly #writes: GroupCommit<PreparedMemoryWrite, Lookup<MemoryWrite>>;
  #closed = false;

  constructor(db: Database.Database, thread: WriterThread, private readonly guarded: GuardedRead, options: StoreOptions) {
    this.#rows = db.prepare<[string, string, string], MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM user_memory WHERE tenant = ? AND user_id = ? AND scenario = ? ORDER BY signal`);
    this.#writes = new GroupCommit<PreparedMemoryWrite, Lookup<MemoryWrite>>(async (writes) => (await thread.writeMemory(writes)).map((written) => ({ ok: true, value: { written } })), {
      maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
      maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
      failed: (error) => storeFailure('STORE_UNAVAILABLE', `the audit database failed: ${describeError(error)}`),
    });
  }

  async read(tenant: string, userId: string, scenario: string): Promise<Lookup<MemorySnapshot>> {
    const checked = checkMemoryKey(tenant, userId, scenario);
    if (!checked.ok) return checked;
    return this.guarded(() => snapshotOf(this.#rows.all(tenant, userId, scenario)));
  }

  async write(tenant: string, userId: string, scenario: string, values: Readonly<Record<string, unknown>>, outcomeId: string): Promise<Lookup<MemoryWrite>> {
    const prepared = prepareMemoryWrite(tenant, userId, scenario, values, outcomeId);
    if (!prepared.ok) return prepared;
    if (this.#closed) return closedFailure();
    return this.#writes.submit(prepared.write) ?? storeFailure('QUEUE_FULL', `${this.#writes.queued} memory writes are already waiting to be committed`);
  }

  /** Refuses new writes and resolves once every write already made is committed. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#writes.drain();
  }
}
