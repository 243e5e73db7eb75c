/** The messages between a SQLite store and its writer thread: the payloads cross as JSON text only. */
import type { LinkResult } from '../link-batch.js';
import type { SerializedEntry } from '../prepared-entry.js';
import type { PreparedMemoryWrite } from '../prepared-memory-write.js';

/** A group commit's entries, a group commit's user memory writes, or the order to stop. */
export type WriterRequest =
  | { readonly id: number; readonly entries: readonly SerializedEntry[]; readonly close?: false }
  | { readonly id: number; readonly memory: readonly PreparedMemoryWrite[]; readonly close?: false }
  | { readonly close: true };

/** A batch's link results, a memory batch's counts, or why the thread could not write either. */
export type WriterResponse =
  | { readonly id: number; readonly results: readonly LinkResult[] }
  /** How many signal values each memory write set. */
  | { readonly id: number; readonly written: readonly number[] }
  | { readonly id: number; readonly error: string };
