/**
 * How records are linked. A record's body is JSON written once, in a fixed key order, and
 * stored as that exact text; its hash is sha256 over the previous record's hash and that text.
 * Hashing the stored text (not a re-serialization of parsed values) means verification never
 * depends on how a database or a JSON library orders keys or writes numbers.
 *
 * The body repeats the record's tenant, seq, id, kind and time, so a record moved to another
 * place (another seq, another tenant) no longer matches the hash its successor links to.
 */
import { createHash } from 'node:crypto';
import type { AuditRecord, StoredRecord } from './audit-record.js';
import type { SerializedEntry } from './prepared-entry.js';

/** The `prevHash` of a tenant's first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** Where a chain ends before a batch is appended to it. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

export const EMPTY_CHAIN: ChainHead = { seq: 0, hash: GENESIS_HASH };

export function linkHash(prevHash: string, body: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

/** The body text of `prepared` committed as record `seq` at `recordedAt`. */
export function recordBody({ entry, payloadJson }: SerializedEntry, seq: number, recordedAt: string): string {
  const header = JSON.stringify({ tenant: entry.tenant, seq, decision_id: entry.decisionId, kind: entry.kind, recorded_at: recordedAt, request_hash: entry.requestHash });
  // The payload was serialized once, when the entry was checked: splice its text in.
  return `${header.slice(0, -1)},"payload":${payloadJson}}`;
}

/** `prepared` linked after `head`: the row to store (whose seq and hash are the chain's new head). */
export function linkEntry(head: ChainHead, prepared: SerializedEntry, recordedAt: string): StoredRecord {
  const { entry } = prepared;
  const seq = head.seq + 1;
  const body = recordBody(prepared, seq, recordedAt);
  return {
    tenant: entry.tenant,
    seq,
    decisionId: entry.decisionId,
    kind: entry.kind,
    recordedAt,
    requestHash: entry.requestHash,
    body,
    prevHash: head.hash,
    hash: linkHash(head.hash, body),
  };
}

/** The record a stored row holds, as the store hands it out. */
export function recordOf(row: StoredRecord): AuditRecord {
  const body = JSON.parse(row.body) as { payload: Record<string, unknown> };
  return {
    tenant: row.tenant,
    decisionId: row.decisionId,
    kind: row.kind as AuditRecord['kind'],
    requestHash: row.requestHash,
    payload: body.payload,
    seq: row.seq,
    recordedAt: row.recordedAt,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}
