/**
 * The decision record (ARCHITECTURE.md "Audit store"): what a host appends for every decision,
 * and what the store gives back once it is committed.
 *
 * The store does not interpret the payload (the request, module hash, response, caller and
 * delegation chain: the server decides its shape); it guarantees that a committed record is
 * never changed, removed or reordered without `verify` noticing.
 */

/**
 * What a decision record is about. `feedback` records are execution outcomes reported after a
 * selection (their observed effects also set the user's memory: user-memory.ts); `retention`
 * records mark a purge inside the chain itself.
 */
export type RecordKind = 'adjudication' | 'selection' | 'feedback' | 'retention';

/** A record as the host hands it to the store. */
export interface AuditEntry {
  /** The tenant (the caller's org): each tenant has its own chain. */
  readonly tenant: string;
  /** Unique within the tenant: a second entry with the same id is refused as a duplicate. */
  readonly decisionId: string;
  readonly kind: RecordKind;
  /**
   * A digest of the request as the caller sent it: a retry with the same id and the same
   * request is answered from the store, the same id with a different request is a conflict.
   */
  readonly requestHash: string;
  /** JSON: the request, the module, the response, the caller. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * What a host appends: an entry and, when the host has it already, its payload's JSON text. A
 * service that serialized a decision for its answer splices that text into the payload's
 * rather than have the store serialize the decision a second time (about 25 µs of a busy event
 * loop per decision). The text is stored as is: it must be the payload's JSON.
 */
export interface AppendedEntry extends AuditEntry {
  readonly payloadJson?: string;
}

/** A committed record: its place in its tenant's chain and the hashes that link it there. */
export interface AuditRecord extends AuditEntry {
  /** 1, 2, 3, … within the tenant, without gaps until a retention purge removes a prefix. */
  readonly seq: number;
  /** When the store committed it (ISO-8601, UTC). */
  readonly recordedAt: string;
  /** The hash of the record before it in the chain (GENESIS_HASH for the first). */
  readonly prevHash: string;
  /** sha256 over `prevHash` and the record's body: see chain.ts. */
  readonly hash: string;
}

/**
 * A record as it is stored: the hashed body text exactly as written, and the columns the store
 * indexes it by (copies of fields inside the body, which verification compares).
 */
export interface StoredRecord {
  readonly tenant: string;
  readonly seq: number;
  readonly decisionId: string;
  readonly kind: string;
  readonly recordedAt: string;
  readonly requestHash: string;
  readonly body: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** A tenant's chain as the store knows it: where it ends, and where a purge left it starting. */
export interface ChainState {
  readonly tenant: string;
  /** The last record's seq and hash, updated in the same transaction that appends it. */
  readonly headSeq: number;
  readonly headHash: string;
  /** The last purged record's seq and hash (0 and GENESIS_HASH when nothing was purged). */
  readonly anchorSeq: number;
  readonly anchorHash: string;
}
