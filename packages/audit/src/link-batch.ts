/**
 * One group commit's records linked into their chains: the pure middle of an append
 * transaction. A backend reads, inside its transaction, the heads of the batch's tenants and
 * any records that already hold the batch's decision ids, calls `linkBatch`, writes the rows
 * and the new heads, and commits. Reading the heads inside the transaction (not from memory)
 * is what keeps chains valid when several hosts append to one database.
 */
import type { AuditRecord, StoredRecord } from './audit-record.js';
import type { PreparedEntry, SerializedEntry } from './prepared-entry.js';
import { EMPTY_CHAIN, linkEntry, recordOf, type ChainHead } from './chain.js';
import type { AppendResult } from './audit-store.js';

/** An entry's place in its chain, or the stored record that already holds its id. */
export type LinkResult =
  | { readonly ok: true; readonly seq: number; readonly recordedAt: string; readonly prevHash: string; readonly hash: string; readonly setAside?: readonly number[] }
  | { readonly ok: false; readonly code: 'DUPLICATE'; readonly existing: AuditRecord };

export interface LinkedBatch {
  /** The rows to insert, in chain order per tenant. */
  readonly rows: readonly StoredRecord[];
  /** The new head of every tenant that got a row. */
  readonly heads: ReadonlyMap<string, ChainHead>;
  /** One result per entry, in the batch's order. */
  readonly results: readonly LinkResult[];
}

export function recordKey(tenant: string, decisionId: string): string {
  return JSON.stringify([tenant, decisionId]);
}

/**
 * Links `entries` after `heads` (tenant → head; a missing tenant starts a new chain). An entry
 * whose id is already stored, or taken by an earlier entry of the same batch, is a DUPLICATE
 * of that record and writes nothing. `setAside` (tenant → seqs) names the rows the backend
 * found past a head and set aside: the tenant's first linked record reports them.
 */
export function linkBatch(entries: readonly SerializedEntry[], recordedAt: string, heads: ReadonlyMap<string, ChainHead>, existing: ReadonlyMap<string, StoredRecord>, setAside: ReadonlyMap<string, readonly number[]> = new Map()): LinkedBatch {
  const newHeads = new Map<string, ChainHead>();
  const taken = new Map(existing);
  const rows: StoredRecord[] = [];
  const results = entries.map((prepared): LinkResult => {
    const { entry } = prepared;
    const key = recordKey(entry.tenant, entry.decisionId);
    const stored = taken.get(key);
    if (stored !== undefined) return { ok: false, code: 'DUPLICATE', existing: recordOf(stored) };
    const row = linkEntry(newHeads.get(entry.tenant) ?? heads.get(entry.tenant) ?? EMPTY_CHAIN, prepared, recordedAt);
    const reported = newHeads.has(entry.tenant) ? undefined : setAside.get(entry.tenant);
    rows.push(row);
    taken.set(key, row);
    newHeads.set(entry.tenant, row);
    const linked = { ok: true, seq: row.seq, recordedAt: row.recordedAt, prevHash: row.prevHash, hash: row.hash } as const;
    return reported === undefined ? linked : { ...linked, setAside: reported };
  });
  return { rows, heads: newHeads, results };
}

/** The append results of `entries` from their link results: each record with its payload. */
export function appendResults(entries: readonly PreparedEntry[], results: readonly LinkResult[]): AppendResult[] {
  return results.map((result, index) => {
    if (!result.ok) return result;
    const { seq, recordedAt, prevHash, hash, setAside } = result;
    const record = { ...entries[index]!.entry, seq, recordedAt, prevHash, hash };
    return setAside === undefined ? { ok: true, record } : { ok: true, record, setAside };
  });
}
