/**
 * User memory (user-memory.ts) in a PostgreSQL audit database, through the store's pool. A write
 * is one statement, so one transaction: every signal of it or none, durable when it returns
 * (synchronous_commit). Two hosts writing one user's signal at once wait for each other on its
 * row, for at most the store's lock timeout; the later takes its `write_seq` once it holds the
 * row, so write order is the order the rows were taken in.
 */
import type pg from 'pg';
import type { Lookup } from '../audit-store.js';
import { checkMemoryKey, prepareMemoryWrite } from '../prepared-memory-write.js';
import { snapshotOf, type MemoryRow, type MemorySnapshot, type MemoryWrite, type UserMemory } from '../user-memory.js';

/** Runs a query through the store, a database error turned into a failure value. */
export type Guarded = <T>(run: () => Promise<T>) => Promise<Lookup<T>>;

const READ = `
  SELECT signal, value_json AS "valueJson", outcome_id AS "outcomeId", updated_at AS "updatedAt", write_seq AS "writeSeq"
  FROM user_memory WHERE tenant = $1 AND user_id = $2 AND scenario = $3 ORDER BY signal`;

/**
 * The signals are two arrays ($6 names, $7 JSON texts), so a write of any size is one statement.
 * Rows are written, and so locked, in signal order: two writes of the same signals, named in
 * different orders, then wait for each other in one order rather than deadlock.
 */
const WRITE = `
  INSERT INTO user_memory (tenant, user_id, scenario, signal, value_json, outcome_id, updated_at, write_seq)
  SELECT $1::text, $2::text, $3::text, written.signal, written.value_json, $4::text, $5::text, nextval('user_memory_write_seq')
  FROM unnest($6::text[], $7::text[]) AS written (signal, value_json)
  ORDER BY written.signal COLLATE "C"
  ON CONFLICT (tenant, user_id, scenario, signal) DO UPDATE
  SET value_json = excluded.value_json, outcome_id = excluded.outcome_id, updated_at = excluded.updated_at,
      write_seq = nextval('user_memory_write_seq')`;

const FORGET_BEFORE = `
  WITH forgotten AS (DELETE FROM user_memory WHERE updated_at < $1 RETURNING tenant)
  SELECT tenant, COUNT(*) AS removed FROM forgotten GROUP BY tenant`;

export class PostgresUserMemory implements UserMemory {
  constructor(private readonly pool: pg.Pool, private readonly guarded: Guarded) {}

  async read(tenant: string, userId: string, scenario: string): Promise<Lookup<MemorySnapshot>> {
    const checked = checkMemoryKey(tenant, userId, scenario);
    if (!checked.ok) return checked;
    return this.guarded(async () => snapshotOf((await this.pool.query<MemoryRow>(READ, [tenant, userId, scenario])).rows));
  }

  async write(tenant: string, userId: string, scenario: string, values: Readonly<Record<string, unknown>>, outcomeId: string): Promise<Lookup<MemoryWrite>> {
    const prepared = prepareMemoryWrite(tenant, userId, scenario, values, outcomeId);
    if (!prepared.ok) return prepared;
    const { signals } = prepared.write;
    return this.guarded(async () => {
      if (signals.length === 0) return { written: 0 };
      await this.pool.query(WRITE, [tenant, userId, scenario, outcomeId, new Date().toISOString(), signals.map(([signal]) => signal), signals.map(([, valueJson]) => valueJson)]);
      return { written: signals.length };
    });
  }

  /** Forgets every entry not written since `before` (ISO-8601), in one statement: how many, by tenant. */
  async forgetBefore(before: string): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ tenant: string; removed: number }>(FORGET_BEFORE, [before]);
    return new Map(rows.map(({ tenant, removed }) => [tenant, removed]));
  }
}
