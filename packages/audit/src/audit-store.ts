/**
 * The one interface both backends (SQLite, PostgreSQL) implement, and that the decision service,
 * `adec audit verify` and replay use. Every method answers with values: a storage fault is an
 * `ok: false` result with a code, never a rejected promise, so a host can always answer its
 * caller (503) instead of crashing.
 */
import type { AppendedEntry, AuditRecord, ChainState, StoredRecord } from './audit-record.js';
import type { UserMemory } from './user-memory.js';

export type AuditFailureCode =
  /** The entry cannot be stored as given (a tenant or id that is not a short plain string, a payload or memory value that is not JSON). */
  | 'INVALID_ENTRY'
  /** The database failed the operation (disk full, I/O error, locked for too long, gone). */
  | 'STORE_UNAVAILABLE'
  /** More appends are waiting than the store accepts (`maxQueued`): shed load, try later. */
  | 'QUEUE_FULL'
  /** The store is closing or closed. */
  | 'CLOSED'
  /**
   * The record asked for does not verify in its chain (record-integrity.ts): changed, moved, past
   * the head, or no longer linked to the record before it. It is not handed out.
   */
  | 'RECORD_INVALID';

export interface AuditFailure {
  readonly ok: false;
  readonly code: AuditFailureCode;
  readonly message: string;
}

export type AppendResult =
  | {
      readonly ok: true;
      readonly record: AuditRecord;
      /**
       * The seqs of rows the writer found past the tenant's head, inserted outside adec, and set
       * aside before linking this record after the true head (on the batch's first record of
       * the tenant; `StoreOptions.onRowsSetAside` hears of them too).
       */
      readonly setAside?: readonly number[];
    }
  /** The tenant already has a record with this decision id; nothing was written. */
  | { readonly ok: false; readonly code: 'DUPLICATE'; readonly existing: AuditRecord }
  | AuditFailure;

export type Lookup<T> = { readonly ok: true; readonly value: T } | AuditFailure;

/** What a retention purge did to one tenant's chain and memory. */
export interface PurgeReport {
  readonly tenant: string;
  /** How many records were removed (0: nothing was older than the cutoff). */
  readonly removed: number;
  /** The chain now starts after this record (its hash is the chain's anchor; 0 for a tenant without records). */
  readonly anchorSeq: number;
  /** How many of the tenant's memory entries (one signal of one user in one scenario) were forgotten. */
  readonly memoryRemoved: number;
}

/**
 * A tenant's rows outside its chain (schema version 4): those a writer found past its head and set
 * aside, and those of a tenant with no chain at all. How many, and the first's seq.
 */
export interface RowsOffChain {
  readonly tenant: string;
  readonly rows: number;
  readonly firstSeq: number;
}

export interface AuditStats {
  /** Appends waiting for the next group commit. */
  readonly queued: number;
  readonly commits: number;
  readonly committedRecords: number;
}

/** Called after every group commit, for metrics (batch size, commit latency). */
export type CommitObserver = (records: number, milliseconds: number) => void;

export interface AuditStore {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * Appends `entry` to its tenant's chain. Resolves once the record is durably committed (its
   * batch's transaction is on disk), so a host may answer only then. Never rejects.
   */
  append(entry: AppendedEntry): Promise<AppendResult>;
  /**
   * The tenant's record with this decision id, or null. A tenant never sees another's records.
   * The record is checked first, with its chain's head and its predecessor's hash
   * (record-integrity.ts): one that does not verify is RECORD_INVALID, never handed out.
   */
  get(tenant: string, decisionId: string): Promise<Lookup<AuditRecord | null>>;
  /** Every tenant's chain head and anchor, by tenant. */
  chains(): Promise<Lookup<readonly ChainState[]>>;
  /** Every tenant's rows outside its chain, by tenant (what `verify` reports as BEYOND_HEAD). */
  rowsOffChain(): Promise<Lookup<readonly RowsOffChain[]>>;
  /** Up to `limit` stored rows of `tenant`'s chain with seq > `afterSeq`, in seq order (for verification). */
  readChain(tenant: string, afterSeq: number, limit: number): Promise<Lookup<readonly StoredRecord[]>>;
  /**
   * Removes, per tenant, the longest prefix of records committed before `cutoff` (ms since the
   * epoch), keeps the last removed record's hash as the chain's anchor, and appends a
   * `retention` record saying so: the rest of the chain still verifies. Forgets, too, every memory
   * entry not written since `cutoff`: memory is short-term. One report per tenant, in tenant order.
   */
  purge(cutoff: number): Promise<Lookup<readonly PurgeReport[]>>;
  /** Each user's short-term memory (user-memory.ts), in the same database as the records. */
  readonly memory: UserMemory;
  stats(): AuditStats;
  /** Commits what is queued, then closes the database. Appends after this fail with CLOSED. */
  close(): Promise<void>;
}
