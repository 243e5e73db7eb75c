/**
 * The shared audit store: one PostgreSQL database that several hosts append to at once, through a
 * small pg pool. It answers exactly as the SQLite store does (sqlite/sqlite-audit-store.ts); what
 * differs is how a group commit reaches the database.
 *
 * A group commit is one transaction on one pooled client, in two round trips: the clients
 * pipeline (pg's `pipeline` option), so BEGIN and the statements that lock the batch's chain heads
 * and read the records already holding its ids go out together, and so do the write and COMMIT.
 * Locking the heads `FOR UPDATE`, in tenant order so that two hosts never deadlock, is what keeps
 * every chain valid when hosts append to the same tenants. Durability is PostgreSQL's: COMMIT
 * returns once the WAL is flushed (synchronous_commit, on by default). User memory goes through
 * the same pool (postgres-user-memory.ts).
 */
import pg from 'pg';
import type { PoolClient } from 'pg';
import type { AppendedEntry, AuditRecord, ChainState, StoredRecord } from '../audit-record.js';
import type { AppendResult, AuditStats, AuditStore, Lookup, PurgeReport, RowsOffChain } from '../audit-store.js';
import { AppendQueue } from '../append-queue.js';
import { GENESIS_HASH, recordOf, type ChainHead } from '../chain.js';
import { appendResults, linkBatch, recordKey, type LinkedBatch } from '../link-batch.js';
import { areStorableKeys, type PreparedEntry } from '../prepared-entry.js';
import { purgeReports, purgeThrough, retentionEntry, type ChainPurge } from '../retention.js';
import { closedFailure, describeError, storeFailure, type OpenedStore, type StoreOptions } from '../store-options.js';
import { migratePostgres } from './postgres-schema.js';
import { placedRecordProblem } from '../record-integrity.js';
import { PLACED_RECORD_BY_ID, placedRecord, type PlacedRecordRow } from '../placed-record-query.js';
import { ROWS_OFF_CHAIN } from '../rows-off-chain-query.js';
import { PostgresUserMemory } from './postgres-user-memory.js';

const ROW_COLUMNS = 'tenant, seq, decision_id AS "decisionId", kind, recorded_at AS "recordedAt", request_hash AS "requestHash", body, prev_hash AS "prevHash", hash';
const CHAIN_COLUMNS = 'tenant, head_seq AS "headSeq", head_hash AS "headHash", anchor_seq AS "anchorSeq", anchor_hash AS "anchorHash"';

/**
 * A row for each new tenant, so that its head can be locked like any other. Inserted in tenant
 * order for the same reason the heads are locked in it: two hosts creating the same new tenants
 * then wait for each other in one order, never in a cycle.
 */
const ENSURE_CHAINS = 'INSERT INTO chains (tenant, head_seq, head_hash) SELECT tenant, 0, $2 FROM unnest($1::text[]) AS tenant ORDER BY tenant COLLATE "C" ON CONFLICT (tenant) DO NOTHING';
/** Rows are locked in the order they are returned: every host locks tenants in the same order. */
const LOCK_HEADS = 'SELECT tenant, head_seq AS seq, head_hash AS hash FROM chains WHERE tenant = ANY($1::text[]) ORDER BY tenant FOR UPDATE';
/** The seqs past each locked head: rows inserted outside adec, which the batch sets aside (postgres-schema.ts, version 4). */
const SEQS_BEYOND_HEADS = 'SELECT d.tenant, d.seq FROM chains c JOIN decision_records d ON d.tenant = c.tenant AND d.seq > c.head_seq WHERE c.tenant = ANY($1::text[]) ORDER BY d.tenant, d.seq';
const SET_ASIDE_BEYOND_HEADS = `
  WITH moved AS (
    DELETE FROM decision_records d USING chains c
    WHERE c.tenant = ANY($1::text[]) AND d.tenant = c.tenant AND d.seq > c.head_seq
    RETURNING d.*
  )
  INSERT INTO decision_records_beyond_head (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash, set_aside_at)
  SELECT tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash, $2 FROM moved`;
const RECORDS_BY_ID = `SELECT ${ROW_COLUMNS} FROM decision_records WHERE (tenant, decision_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

/** A record's fields in decision_records' column order: each record of a batch is bound as these. */
const RECORD_FIELDS = ['tenant', 'seq', 'decisionId', 'kind', 'recordedAt', 'requestHash', 'body', 'prevHash', 'hash'] as const satisfies readonly (keyof StoredRecord)[];

/** The most records one statement writes: PostgreSQL binds at most 65,535 parameters. A larger `maxBatch` is lowered to this. */
const MAX_BATCH = Math.floor(65_535 / RECORD_FIELDS.length);

/**
 * The statement that writes a batch of `records` rows, sent after the one that moves its
 * tenants' heads (MOVE_HEADS): since schema version 4 a record is only accepted at or before its
 * chain's head. Each record is a row of plain parameters, so the server parses
 * no array or JSON around the 2 KB bodies. Of the three ways tried, that is the cheapest for the
 * database: 8.5 ms to insert and commit 64 records of 2 KB, against 11.6 ms as JSON
 * (json_to_recordset) and 12.7 ms as one array per column, whose quotes pg also escapes with
 * regular expressions, 1.2 ms of the event loop per batch (PostgreSQL 15 and the host on one
 * 2-vCPU VM; the order held in every run). The text depends on the batch's size, so the server
 * plans it each time; those figures include that.
 */
function writeBatchStatement(records: number): string {
  const rows = Array.from({ length: records }, (_, row) => `(${RECORD_FIELDS.map((_, field) => `$${1 + row * RECORD_FIELDS.length + field}`).join(', ')})`);
  return `INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES ${rows.join(', ')}`;
}

/** The new heads of a batch's tenants, as three short arrays. */
const MOVE_HEADS = `
  UPDATE chains SET head_seq = head.seq, head_hash = head.hash
  FROM unnest($1::text[], $2::bigint[], $3::text[]) AS head (tenant, seq, hash)
  WHERE chains.tenant = head.tenant`;

const LOCK_CHAIN = `SELECT ${CHAIN_COLUMNS} FROM chains WHERE tenant = $1 FOR UPDATE`;
// Walks the chain from its anchor in seq order and stops at the first record to keep, so a purge
// reads only the records it removes (plus one) and needs no index on the time.
const FIRST_KEPT = 'SELECT seq FROM decision_records WHERE tenant = $1 AND seq > $2 AND recorded_at >= $3 ORDER BY seq LIMIT 1';
const HASH_AT = 'SELECT hash FROM decision_records WHERE tenant = $1 AND seq = $2';
const SET_ANCHOR = 'UPDATE chains SET anchor_seq = $1, anchor_hash = $2 WHERE tenant = $3';
const REMOVE_THROUGH = 'DELETE FROM decision_records WHERE tenant = $1 AND seq <= $2';

/**
 * pg hands BIGINT columns over as strings, since an int8 may not fit a JS number. A seq does: it
 * counts one tenant's records, and 2^53 of them at 5,000 a second would take 57,000 years. So
 * this store's clients parse int8 as a number, and refuse (a store fault, never a wrong seq) one
 * beyond 2^53. Only this store's: pg.types.setTypeParser would change every pg user in the process.
 */
const SEQ_AS_NUMBER = new pg.TypeOverrides();
SEQ_AS_NUMBER.setTypeParser(pg.types.builtins.INT8, (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`the seq ${text} is beyond what this store can count`);
  return value;
});

/** Connections: the group commit holds one at a time, the others serve reads and purges. */
const POOL_SIZE = 4;
/** How long opening (or a read that needs a new connection) waits for the server. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * A host that stops in the middle of a transaction (a frozen process, a lost network) holds its
 * tenants' locks until the server ends its session: after this long idle, rather than after the
 * hours TCP keepalive takes. Between its round trips a transaction of this store idles for the
 * milliseconds linking takes.
 */
const IDLE_IN_TRANSACTION_MS = 10_000;

export async function openPostgresAuditStore(location: string, options: StoreOptions = {}): Promise<OpenedStore> {
  const where = describeLocation(location);
  const pool = new pg.Pool({
    connectionString: location,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // How long a write waits for another host's transaction, as SQLite's busy timeout does: then
    // its batch fails (STORE_UNAVAILABLE) and the host answers instead of hanging.
    lock_timeout: options.busyTimeoutMs ?? 5_000,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    pipeline: true,
    types: SEQ_AS_NUMBER,
  });
  // An idle connection that breaks (the server restarted) is reported here, and pg would crash the
  // process if nobody listened. The pool drops it, the next query connects anew, and whatever
  // fails meanwhile answers STORE_UNAVAILABLE itself.
  pool.on('error', () => undefined);
  try {
    const refused = await inPooledTransaction(pool, migratePostgres);
    if (refused !== undefined) {
      await pool.end();
      return { ok: false, code: 'SCHEMA_TOO_NEW', message: `${where}: ${refused}` };
    }
    return { ok: true, store: new PostgresAuditStore(pool, options) };
  } catch (error) {
    await pool.end().catch(() => undefined);
    return { ok: false, code: 'STORE_UNAVAILABLE', message: `the audit database ${where} could not be opened: ${describeError(error)}` };
  }
}

class PostgresAuditStore implements AuditStore {
  readonly backend = 'postgres';
  readonly memory: PostgresUserMemory;
  readonly #appends: AppendQueue;
  #closing: Promise<void> | undefined;

  constructor(private readonly pool: pg.Pool, options: StoreOptions) {
    this.memory = new PostgresUserMemory(pool, (run) => this.#read(run));
    this.#appends = new AppendQueue((entries) => inPooledTransaction(pool, (client) => appendBatch(client, entries)), options, MAX_BATCH);
  }

  append(entry: AppendedEntry): Promise<AppendResult> {
    return this.#appends.append(entry);
  }

  async get(tenant: string, decisionId: string): Promise<Lookup<AuditRecord | null>> {
    if (!areStorableKeys(tenant, decisionId)) return { ok: true, value: null };
    const read = await this.#read(async () => (await this.pool.query<PlacedRecordRow>(PLACED_RECORD_BY_ID, [tenant, decisionId])).rows[0]);
    if (!read.ok || read.value === undefined) return read.ok ? { ok: true, value: null } : read;
    const placed = placedRecord(read.value);
    const problem = placedRecordProblem(placed);
    return problem === undefined ? { ok: true, value: recordOf(placed.row) } : storeFailure('RECORD_INVALID', problem);
  }

  async rowsOffChain(): Promise<Lookup<readonly RowsOffChain[]>> {
    return this.#read(async () => (await this.pool.query<RowsOffChain>(ROWS_OFF_CHAIN)).rows);
  }

  async chains(): Promise<Lookup<readonly ChainState[]>> {
    return this.#read(async () => (await this.pool.query<ChainState>(`SELECT ${CHAIN_COLUMNS} FROM chains ORDER BY tenant`)).rows);
  }

  async readChain(tenant: string, afterSeq: number, limit: number): Promise<Lookup<readonly StoredRecord[]>> {
    if (!areStorableKeys(tenant)) return { ok: true, value: [] };
    return this.#read(async () => (await this.pool.query<StoredRecord>(`SELECT ${ROW_COLUMNS} FROM decision_records WHERE tenant = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [tenant, afterSeq, limit])).rows);
  }

  async purge(cutoff: number): Promise<Lookup<readonly PurgeReport[]>> {
    return this.#read(async () => {
      // Memory first, in a statement of its own: it is not chained, so it needs no marker, and
      // forgetting it does not wait for a chain's purge.
      const forgotten = await this.memory.forgetBefore(new Date(cutoff).toISOString());
      const { rows } = await this.pool.query<{ tenant: string }>('SELECT tenant FROM chains ORDER BY tenant');
      const chains: ChainPurge[] = [];
      // One transaction per tenant, not one for all: appends to the other tenants go on while a
      // long chain is purged, and a purge that fails part way has left every chain whole (each
      // moved its anchor, removed its records and appended its retention record together).
      for (const { tenant } of rows) chains.push(await inPooledTransaction(this.pool, (client) => purgeChain(client, tenant, cutoff)));
      return purgeReports(chains, forgotten);
    });
  }

  stats(): AuditStats {
    return this.#appends.stats();
  }

  close(): Promise<void> {
    this.#closing ??= this.#appends.close().then(() => this.pool.end());
    return this.#closing;
  }

  /** Runs a read (or a purge, or a memory write) and turns a database error into a failure value. */
  async #read<T>(run: () => Promise<T>): Promise<Lookup<T>> {
    if (this.#appends.closed) return closedFailure();
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      // A read that was under way when the store closed fails on the ended pool: it is CLOSED.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the store can close while `run` is awaited; TypeScript keeps the check above's narrowing across the await
      if (this.#appends.closed) return closedFailure();
      return storeFailure('STORE_UNAVAILABLE', `the audit database failed: ${describeError(error)}`);
    }
  }
}

/** One group commit's transaction: two round trips (see the top of this file). */
async function appendBatch(client: PoolClient, entries: readonly PreparedEntry[]): Promise<AppendResult[]> {
  const [, linked] = await Promise.all([client.query('BEGIN'), linkToLockedHeads(client, entries)]);
  await Promise.all([writeLinked(client, linked), client.query('COMMIT')]);
  return appendResults(entries, linked.results);
}

/**
 * Locks the heads of the entries' tenants, reads the records already holding their ids, and links
 * the entries after those heads, inside the transaction open on `client`.
 *
 * The statements are all sent before this awaits anything, so a caller may pipeline BEGIN before
 * them; the server runs them in order. The read of stored records must come after the locks: a
 * READ COMMITTED statement sees what was committed when it started, and the host whose lock we
 * waited for may just have committed a record with one of our ids.
 */
async function linkToLockedHeads(client: PoolClient, entries: readonly PreparedEntry[]): Promise<LinkedBatch> {
  const tenants = [...new Set(entries.map(({ entry }) => entry.tenant))];
  const [, locked, beyond, stored] = await Promise.all([
    client.query(ENSURE_CHAINS, [tenants, GENESIS_HASH]),
    client.query<ChainHead & { tenant: string }>(LOCK_HEADS, [tenants]),
    client.query<{ tenant: string; seq: number }>(SEQS_BEYOND_HEADS, [tenants]),
    client.query<StoredRecord>(RECORDS_BY_ID, [entries.map(({ entry }) => entry.tenant), entries.map(({ entry }) => entry.decisionId)]),
  ]);
  // Taken after the locks are held, so a tenant's records are timed in their chain's order.
  const recordedAt = new Date().toISOString();
  // Rows past a head were inserted outside adec (rare: one more round trip, then). Moved out of
  // the chain's table, they no longer hold a seq or an id the batch needs.
  const setAside = new Map<string, number[]>();
  for (const { tenant, seq } of beyond.rows) setAside.set(tenant, [...(setAside.get(tenant) ?? []), seq]);
  if (setAside.size > 0) await client.query(SET_ASIDE_BEYOND_HEADS, [[...setAside.keys()], recordedAt]);
  const movedAside = (row: StoredRecord) => setAside.get(row.tenant)?.includes(row.seq) === true;
  // A new tenant's head is { seq: 0, hash: GENESIS_HASH }: linkBatch's EMPTY_CHAIN.
  const heads = new Map(locked.rows.map(({ tenant, seq, hash }) => [tenant, { seq, hash }]));
  const existing = new Map(stored.rows.filter((row) => !movedAside(row)).map((row) => [recordKey(row.tenant, row.decisionId), row]));
  return linkBatch(entries, recordedAt, heads, existing, setAside);
}

/** Writes a linked batch's new heads, then its records, inside the transaction open on `client`. */
function writeLinked(client: PoolClient, { rows, heads }: LinkedBatch): Promise<unknown> {
  // A batch of duplicates only has nothing to write.
  if (rows.length === 0) return Promise.resolve();
  const newHeads = [...heads.values()];
  // Both sent now, pipelined: the server runs them in order.
  return Promise.all([
    client.query(MOVE_HEADS, [[...heads.keys()], newHeads.map((head) => head.seq), newHeads.map((head) => head.hash)]),
    client.query(writeBatchStatement(rows.length), rows.flatMap((row) => RECORD_FIELDS.map((field) => row[field]))),
  ]);
}

/**
 * One tenant's retention purge, the same steps as SQLite's: the first record to keep is the
 * first after the anchor committed at or after the cutoff (else none is kept); the anchor moves
 * to the record before it, then the records up to it are removed (the delete trigger allows
 * only that), then a retention record vouching for the anchor is appended.
 */
async function purgeChain(client: PoolClient, tenant: string, cutoff: number): Promise<ChainPurge> {
  const [, locked] = await Promise.all([client.query('BEGIN'), client.query<ChainState>(LOCK_CHAIN, [tenant])]);
  // Chain rows are never deleted: the tenant listed before this transaction still has one.
  const chain = locked.rows[0]!;
  const kept = await client.query<{ seq: number }>(FIRST_KEPT, [tenant, chain.anchorSeq, new Date(cutoff).toISOString()]);
  const throughSeq = purgeThrough(chain, kept.rows[0]?.seq);
  if (throughSeq === undefined) {
    await client.query('COMMIT');
    return { tenant, removed: 0, anchorSeq: chain.anchorSeq };
  }
  const through = { seq: throughSeq, hash: (await client.query<{ hash: string }>(HASH_AT, [tenant, throughSeq])).rows[0]!.hash };
  const [, deleted] = await Promise.all([client.query(SET_ANCHOR, [through.seq, through.hash, tenant]), client.query(REMOVE_THROUGH, [tenant, through.seq])]);
  const removed = deleted.rowCount ?? 0;
  const linked = await linkToLockedHeads(client, [retentionEntry(tenant, through, removed, cutoff)]);
  const [marked] = linked.results;
  // Throwing rolls the tenant's purge back: records are never removed without their marker.
  if (!marked!.ok) throw new Error(`the retention record of ${tenant} could not be appended (${marked!.code})`);
  await Promise.all([writeLinked(client, linked), client.query('COMMIT')]);
  return { tenant, removed, anchorSeq: through.seq };
}

/**
 * Runs `work`, one transaction on one client of `pool`, and rolls it back if `work` throws.
 * `work` sends BEGIN and COMMIT itself, to pipeline them with its first and last statements.
 */
async function inPooledTransaction<T>(pool: pg.Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client whose connection breaks emits 'error', which the pool listens to only
  // while the client is idle: unheard, it would crash the process. The query under way fails
  // with it too, which is how `work` learns; the client is then released as broken.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } catch (error) {
    // A ROLLBACK that fails means the connection is gone, and its transaction with it.
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken ??= rollbackError instanceof Error ? rollbackError : new Error(describeError(rollbackError));
    });
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** The server and database `location` names, for messages: never its user's password. */
function describeLocation(location: string): string {
  try {
    const url = new URL(location);
    return `postgres://${url.host}${url.pathname}`;
  } catch {
    return 'at a location that is not a postgres:// URL';
  }
}
