/**
 * @adec/audit — the decision record store (ARCHITECTURE.md "Audit store"): append-only records,
 * hash-chained per tenant, committed in groups before a host answers, on SQLite (embedded
 * default) or PostgreSQL (shared by several hosts), with verification and retention; and each
 * user's short-term memory, in the same database.
 */
export type { AppendedEntry, AuditEntry, AuditRecord, ChainState, RecordKind, StoredRecord } from './audit-record.js';
export type { AppendResult, AuditFailure, AuditFailureCode, AuditStats, AuditStore, CommitObserver, Lookup, PurgeReport, RowsOffChain } from './audit-store.js';
export { GENESIS_HASH, linkHash } from './chain.js';
export { openAuditStore } from './open-audit-store.js';
export type { OpenedStore, StoreOptions } from './store-options.js';
export { DEFAULT_RETENTION_DAYS } from './retention.js';
export type { MemorySnapshot, MemoryWrite, UserMemory } from './user-memory.js';
export type { JsonValue } from '@adec/abi';
export { ANCHOR_FORMAT, DECISION_CHAIN, readAnchors, signAnchor, type AnchorSigner, type AnchorsRead, type SignedAnchor } from './signed-anchor.js';
export { signedAnchors } from './anchor-chains.js';
export { verifyChains, type ChainProblem, type ChainProblemCode, type ChainReport, type VerifyOptions, type VerifyResult } from './verify-chains.js';
