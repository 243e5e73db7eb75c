/**
 * A user's short-term memory (docs/spec/selection.md §3.2, issue 16): the signal values that recorded
 * execution outcomes observed, kept per tenant, user and scenario, which a later selection for
 * that user takes when its request does not supply a signal.
 *
 * Unlike decision records, memory is a mutable projection: a signal's latest write replaces its
 * value, and a retention purge forgets values not written since the cutoff. It is not part of any
 * hash chain; the outcome that wrote it is (a `feedback` record), so what set a value can always
 * be checked there through `outcomeIds`.
 */
import type { JsonValue } from '@adec/abi';
import type { Lookup } from './audit-store.js';

/** A user's memory in one scenario, as a selection reads it. */
export interface MemorySnapshot {
  /** Each remembered signal's latest value, by signal name: JSON, the only values memory stores and gives back. */
  readonly values: Readonly<Record<string, JsonValue>>;
  /** When the latest write that still sets a value was made (ISO-8601, UTC); null when nothing is remembered. */
  readonly updatedAt: string | null;
  /** The outcomes whose writes set the current values, newest first, each once. */
  readonly outcomeIds: readonly string[];
}

export interface MemoryWrite {
  /** How many signal values the write set. */
  readonly written: number;
}

export interface UserMemory {
  /**
   * The memory of `userId` in `scenario` for `tenant`. A user with none is an empty snapshot, not
   * an error; a tenant never reads another tenant's memory. Never rejects.
   */
  read(tenant: string, userId: string, scenario: string): Promise<Lookup<MemorySnapshot>>;
  /**
   * Sets each signal of `values` (each a JSON value) for `userId` in `scenario`, as written by
   * outcome `outcomeId`, in one transaction: all of them or, on any failure, none. The latest
   * write of a signal wins. Resolves once the write is durable. Never rejects.
   */
  write(tenant: string, userId: string, scenario: string, values: Readonly<Record<string, unknown>>, outcomeId: string): Promise<Lookup<MemoryWrite>>;
}

/** A stored memory entry: one signal's value, as both backends read it. */
export interface MemoryRow {
  readonly signal: string;
  readonly valueJson: string;
  readonly outcomeId: string;
  readonly updatedAt: string;
  /** Increases with every write of the memory: orders writes made in the same millisecond. */
  readonly writeSeq: number;
}

/** The snapshot `rows` (one user's entries, in signal order) make. */
export function snapshotOf(rows: readonly MemoryRow[]): MemorySnapshot {
  // fromEntries defines each signal as the object's own property, a `__proto__` signal too.
  const values = Object.fromEntries(rows.map((row) => [row.signal, JSON.parse(row.valueJson) as JsonValue]));
  const newestFirst = [...rows].sort((a, b) => b.writeSeq - a.writeSeq);
  return {
    values,
    updatedAt: newestFirst[0]?.updatedAt ?? null,
    outcomeIds: [...new Set(newestFirst.map((row) => row.outcomeId))],
  };
}
