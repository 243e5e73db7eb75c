/**
 * The statements that change a SQLite database's user memory (user-memory.ts): a group commit of
 * writes, run on the store's writer thread beside the appends (sqlite-writer-thread.ts), and the
 * forgetting a retention purge does on the store's own connection. A group commit is one
 * `BEGIN IMMEDIATE` transaction, like an append's, so several processes may write one file.
 */
import type Database from 'better-sqlite3';
import type { PreparedMemoryWrite } from '../prepared-memory-write.js';

export class SqliteMemoryWriter {
  readonly #write;
  readonly #removedByTenant;
  readonly #removeBefore;

  constructor(db: Database.Database) {
    // Writes are serialized (BEGIN IMMEDIATE), so the user's highest write_seq plus one is this write's.
    const nextWriteSeq = db.prepare<[string, string, string], { seq: number }>('SELECT COALESCE(MAX(write_seq), 0) + 1 AS seq FROM user_memory WHERE tenant = ? AND user_id = ? AND scenario = ?');
    const upsert = db.prepare<[string, string, string, string, string, string, string, number]>(`
      INSERT INTO user_memory (tenant, user_id, scenario, signal, value_json, outcome_id, updated_at, write_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (tenant, user_id, scenario, signal) DO UPDATE SET value_json = excluded.value_json, outcome_id = excluded.outcome_id, updated_at = excluded.updated_at, write_seq = excluded.write_seq`);
    this.#write = db.transaction((writes: readonly PreparedMemoryWrite[]): number[] => writes.map(({ tenant, userId, scenario, outcomeId, signals }) => {
      // Taken once the lock is held, so a user's writes are timed in the order they were made.
      const updatedAt = new Date().toISOString();
      const { seq } = nextWriteSeq.get(tenant, userId, scenario)!;
      for (const [signal, valueJson] of signals) upsert.run(tenant, userId, scenario, signal, valueJson, outcomeId, updatedAt, seq);
      return signals.length;
    }));
    this.#removedByTenant = db.prepare<[string], { tenant: string; removed: number }>('SELECT tenant, COUNT(*) AS removed FROM user_memory WHERE updated_at < ? GROUP BY tenant');
    this.#removeBefore = db.prepare<[string]>('DELETE FROM user_memory WHERE updated_at < ?');
  }

  /** Sets the signals of `writes`, in order, in one transaction: how many each set. */
  write(writes: readonly PreparedMemoryWrite[]): number[] {
    return this.#write.immediate(writes);
  }

  /** Forgets every entry not written since `before` (ISO-8601), inside the caller's transaction: how many, by tenant. */
  forgetBefore(before: string): Map<string, number> {
    const removed = new Map(this.#removedByTenant.all(before).map(({ tenant, removed }) => [tenant, removed]));
    this.#removeBefore.run(before);
    return removed;
  }
}
