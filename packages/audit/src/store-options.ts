/** What opening a store takes and answers, whatever its backend. */
import type { AuditFailure, AuditFailureCode, AuditStore, CommitObserver } from './audit-store.js';

export interface StoreOptions {
  /** The most records one group commit writes (default 512). */
  readonly maxBatch?: number;
  /** The most appends waiting for a commit before `append` answers QUEUE_FULL (default 10,000). */
  readonly maxQueued?: number;
  readonly onCommit?: CommitObserver;
  /**
   * Called when a writer found rows past a tenant's head (inserted outside adec), set them aside
   * in decision_records_beyond_head and linked the tenant's next record after the true head:
   * the host logs it (a chain never stops taking decisions because of them).
   */
  readonly onRowsSetAside?: (tenant: string, seqs: readonly number[]) => void;
  /** How long a write waits for another writer's transaction or lock before it fails (default 5 s). */
  readonly busyTimeoutMs?: number;
}

export type OpenedStore =
  | { readonly ok: true; readonly store: AuditStore }
  /** SCHEMA_TOO_NEW: the database was migrated by a newer adec; nothing was changed. */
  | { readonly ok: false; readonly code: 'STORE_UNAVAILABLE' | 'SCHEMA_TOO_NEW'; readonly message: string };

export function storeFailure(code: AuditFailureCode, message: string): AuditFailure {
  return { ok: false, code, message };
}

export function closedFailure(): AuditFailure {
  return storeFailure('CLOSED', 'the audit store is closed');
}

/** An error as a message names it. */
export function describeError(error: unknown): string {
  // A connection refused on every address of a host (localhost: ::1 and 127.0.0.1) is an
  // AggregateError whose own message is empty.
  if (error instanceof AggregateError) return error.errors.map(describeError).join('; ');
  return error instanceof Error ? error.message : String(error);
}
