/**
 * The checks of one stored record, shared by `verify` (verify-chains.ts), which walks whole
 * chains, and by `get`, which hands a single record to a host that serves or replays it. A
 * record is whole when its hashed body matches its hash and its stored columns; it is in its
 * chain when it lies after the chain's anchor and at or before its head (the head record being
 * the one the head names), links to the record before it (or to the anchor), and is the record
 * the one after it links to: a record changed and re-hashed in place passes its own hash and its
 * link back, but not its successor's link.
 *
 * `get` pays for this with one query: the record, its chain's row, its predecessor's hash and
 * its successor's link, joined (SECURITY.md, "Tampered records served": a record edited in place was served, and replayed as
 * identical, until then). Measured on SQLite with 3 KB records: the joined query takes about the
 * 21–33 µs of the plain lookup (each join is one primary-key search), and the checks about 12 µs
 * (sha256 of the body, and parsing it).
 */
import type { ChainState, StoredRecord } from './audit-record.js';
import { linkHash } from './chain.js';

export type RecordBody = Record<string, unknown>;

/** What makes a record unfit in itself: its body does not match its columns, or its hash. */
export interface RecordFault {
  readonly code: 'COLUMN_MISMATCH' | 'RECORD_ALTERED';
  readonly message: string;
}

/** The record's body when the record is whole, else what is wrong with it. */
export function checkRecord(row: StoredRecord): { readonly ok: true; readonly body: RecordBody } | ({ readonly ok: false } & RecordFault) {
  const body = parseBody(row.body);
  const mismatch = body === undefined ? 'its body is not a JSON record' : columnMismatch(row, body);
  if (mismatch !== undefined) return { ok: false, code: 'COLUMN_MISMATCH', message: `record ${row.seq} (${row.decisionId}): ${mismatch}` };
  if (linkHash(row.prevHash, row.body) !== row.hash) {
    return { ok: false, code: 'RECORD_ALTERED', message: `record ${row.seq} (${row.decisionId}) does not match its hash: its content was changed` };
  }
  return { ok: true, body: body! };
}

/** A record as `get` reads it: with its chain's row, the hash of the record before it and the link of the one after it (null when absent). */
export interface PlacedRecord {
  readonly row: StoredRecord;
  readonly chain: ChainState | null;
  readonly predecessorHash: string | null;
  readonly successorPrevHash: string | null;
}

/** Why a record read by `get` must not be handed out, or undefined when it verifies in its chain. */
export function placedRecordProblem({ row, chain, predecessorHash, successorPrevHash }: PlacedRecord): string | undefined {
  const fault = checkRecord(row);
  if (!fault.ok) return fault.message;
  const at = `record ${row.seq} (${row.decisionId}) of ${row.tenant}`;
  if (chain === null) return `${at} belongs to no chain`;
  if (row.seq <= chain.anchorSeq) return `${at} lies at or before its chain's anchor (record ${chain.anchorSeq}), where no record is kept`;
  if (row.seq > chain.headSeq) return `${at} lies past its chain's head (record ${chain.headSeq}): it was inserted outside adec`;
  if (row.seq === chain.headSeq && row.hash !== chain.headHash) return `${at} is not the head its chain names`;
  const expected = row.seq - 1 === chain.anchorSeq ? chain.anchorHash : predecessorHash;
  if (expected === null) return `${at} has no record before it: record ${row.seq - 1} was removed`;
  if (row.prevHash !== expected) return `${at} does not link to the record before it: a record at or before it was changed, removed or reordered`;
  if (successorPrevHash !== null && successorPrevHash !== row.hash) return `${at} is not the record the one after it links to: it was changed and re-hashed, or replaced`;
  return undefined;
}

function parseBody(text: string): RecordBody | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as RecordBody) : undefined;
  } catch {
    return undefined;
  }
}

/** Which stored column disagrees with the hashed body, if any. */
function columnMismatch(row: StoredRecord, body: RecordBody): string | undefined {
  const columns: [string, unknown][] = [
    ['tenant', row.tenant],
    ['seq', row.seq],
    ['decision_id', row.decisionId],
    ['kind', row.kind],
    ['recorded_at', row.recordedAt],
    ['request_hash', row.requestHash],
  ];
  const differing = columns.find(([name, value]) => body[name] !== value);
  return differing === undefined ? undefined : `its ${differing[0]} column says ${JSON.stringify(differing[1])} but its hashed body says ${JSON.stringify(body[differing[0]])}`;
}
