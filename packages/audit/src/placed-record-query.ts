/**
 * The queries, the same text on both backends, that read a record with what `get` checks it
 * against (record-integrity.ts) in one statement, and the rows outside every chain that `verify`
 * reports. SQLite takes `$1` and `$2` as `?` (the store rewrites them).
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

/**
 * Per tenant, the rows a writer set aside past its head, and the rows of a tenant that has no
 * chain at all: neither is part of a chain. The second part reads every record once, as `verify`
 * does anyway.
 */
export const ROWS_OFF_CHAIN = `
  SELECT tenant, COUNT(*) AS "rows", MIN(seq) AS "firstSeq" FROM (
    SELECT tenant, seq FROM decision_records_beyond_head
    UNION ALL
    SELECT r.tenant, r.seq FROM decision_records r WHERE NOT EXISTS (SELECT 1 FROM chains c WHERE c.tenant = r.tenant)
  ) AS off_chain
  GROUP BY tenant ORDER BY tenant`;

export function placedRecord(row: PlacedRecordRow): PlacedRecord {
  const { predecessorHash, successorPrevHash, headSeq, headHash, anchorSeq, anchorHash, ...stored } = row;
  const chain: ChainState | null = headSeq === null || headHash === null || anchorSeq === null || anchorHash === null ? null : { tenant: row.tenant, headSeq, headHash, anchorSeq, anchorHash };
  return { row: stored, chain, predecessorHash, successorPrevHash };
}
