/** The messages between a SQLite store and its writer thread, and the compact form of results. */
import type { AuditRecord } from '../audit-record.js';
import type { AppendResult } from '../audit-store.js';
import type { PreparedEntry } from '../prepared-entry.js';
import type { PreparedMemoryWrite } from '../prepared-memory-write.js';

/** A group commit's entries, a group commit's user memory writes, or the order to stop. */
export type WriterRequest =
  | { readonly id: number; readonly entries: readonly PreparedEntry[]; readonly close?: false }
  | { readonly id: number; readonly memory: readonly PreparedMemoryWrite[]; readonly close?: false }
  | { readonly close: true };

/** An appended entry's place in its chain; a duplicate's stored record; another failure as is. */
export type CompactResult =
  | { readonly ok: true; readonly seq: number; readonly recordedAt: string; readonly prevHash: string; readonly hash: string }
  | Exclude<AppendResult, { ok: true }>;

export type WriterResponse =
  | { readonly id: number; readonly results: readonly CompactResult[] }
  /** How many signal values each memory write set. */
  | { readonly id: number; readonly written: readonly number[] }
  | { readonly id: number; readonly error: string };

export function compactResults(results: readonly AppendResult[]): CompactResult[] {
  return results.map((result) => {
    if (!result.ok) return result;
    const { seq, recordedAt, prevHash, hash } = result.record;
    return { ok: true, seq, recordedAt, prevHash, hash };
  });
}

/** The full results of `entries` from their compact form: the payloads never crossed threads. */
export function expandResults(entries: readonly PreparedEntry[], results: readonly CompactResult[]): AppendResult[] {
  return results.map((result, index) => {
    if (!result.ok) return result;
    const record: AuditRecord = { ...entries[index]!.entry, seq: result.seq, recordedAt: result.recordedAt, prevHash: result.prevHash, hash: result.hash };
    return { ok: true, record };
  });
}
