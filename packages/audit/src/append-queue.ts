/**
 * The append path both backends share: check and serialize the entry alone, refuse it when the
 * store is closed or its queue full, otherwise wait for the group commit that writes it.
 * A backend supplies only the transaction that writes one batch.
 */
import type { AppendedEntry } from './audit-record.js';
import type { AppendResult, AuditStats } from './audit-store.js';
import { GroupCommit } from './group-commit.js';
import { prepareEntry, type PreparedEntry } from './prepared-entry.js';
import { closedFailure, describeError, storeFailure, type StoreOptions } from './store-options.js';

export const DEFAULT_MAX_BATCH = 512;
export const DEFAULT_MAX_QUEUED = 10_000;

export class AppendQueue {
  readonly #commits: GroupCommit<PreparedEntry, AppendResult>;
  #closed = false;
  #closing: Promise<void> | undefined;

  /** `maxBatch` is capped at `batchLimit` (what one of the backend's statements can write). */
  constructor(writeBatch: (entries: readonly PreparedEntry[]) => AppendResult[] | Promise<AppendResult[]>, options: StoreOptions, batchLimit = Number.POSITIVE_INFINITY) {
    const { onRowsSetAside } = options;
    const write = onRowsSetAside === undefined ? writeBatch : async (entries: readonly PreparedEntry[]) => {
      const results = await writeBatch(entries);
      for (const result of results) if (result.ok && result.setAside !== undefined) onRowsSetAside(result.record.tenant, result.setAside);
      return results;
    };
    this.#commits = new GroupCommit(write, {
      maxBatch: Math.min(options.maxBatch ?? DEFAULT_MAX_BATCH, batchLimit),
      maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
      failed: (error) => storeFailure('STORE_UNAVAILABLE', `the audit record could not be committed: ${describeError(error)}`),
      onCommit: options.onCommit,
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  append(entry: AppendedEntry): Promise<AppendResult> {
    if (this.#closed) return Promise.resolve(closedFailure());
    const checked = prepareEntry(entry);
    if (!checked.ok) return Promise.resolve(checked);
    return this.#commits.submit(checked.prepared) ?? Promise.resolve(storeFailure('QUEUE_FULL', `${this.#commits.queued} audit records are already waiting to be committed`));
  }

  stats(): AuditStats {
    return { queued: this.#commits.queued, commits: this.#commits.commits, committedRecords: this.#commits.committed };
  }

  /** Refuses new appends and resolves once everything queued is committed; the same promise on every call. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#commits.drain();
    return this.#closing;
  }
}
