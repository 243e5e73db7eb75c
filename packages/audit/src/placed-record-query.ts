/**
 * The query, the same text on both backends, that reads a record with what `get` checks it
 * against (record-integrity.ts) in one statement. SQLite takes `$1` and `$2` as `?` (the store
 * rewrites them).
 */
import type { ChainState, StoredRecord } from './audit-record.js';
import type { PlacedRecord } from './record-integrity.js';

/** A placed record's columns, flat as the query returns them (chain and predecessor columns null when absent). */
export interface PlacedRecordRow extends StoredRecord {
  readonly predecessorHash: string | null;
  readonly successorPrevHash: string | null;
  readonly headSeq: number | null;
  readonly headHash: string | null;
  readonly anchorSeq: number | null;
  readonly anchorHash: string | null;
}

export const PLACED_RECORD_BY_ID = `
  SELECT r.tenant, r.seq, r.decision_id AS "decisionId", r.kind, r.recorded_at AS "recordedAt", r.request_hash AS "requestHash",
         r.body, r.prev_hash AS "prevHash", r.hash, p.hash AS "predecessorHash", s.prev_hash AS "successorPrevHash",
         c.head_seq AS "headSeq", c.head_hash AS "headHash", c.anchor_seq AS "anchorSeq", c.anchor_hash AS "anchorHash"
  FROM decision_records r
  LEFT JOIN chains c ON c.tenant = r.tenant
  LEFT JOIN decision_records p ON p.tenant = r.tenant AND p.seq = r.seq - 1
  LEFT JOIN decision_records s ON s.tenant = r.tenant AND s.seq = r.seq + 1
  WHERE r.tenant = $1 AND r.decision_id = $2`;

export function placedRecord(row: PlacedRecordRow): PlacedRecord {
  const { predecessorHash, successorPrevHash, headSeq, headHash, anchorSeq, anchorHash, ...stored } = row;
  const chain: ChainState | null = headSeq === null || headHash === null || anchorSeq === null || anchorHash === null ? null : { tenant: row.tenant, headSeq, headHash, anchorSeq, anchorHash };
  return { row: stored, chain, predecessorHash, successorPrevHash };
}
