/**
 * `adec audit verify`: walks every tenant's chain from its anchor to its head and names the
 * first broken link. What each check catches:
 *
 * - a record whose hash does not match its own body was changed (RECORD_ALTERED);
 * - a record whose stored columns disagree with its hashed body was moved or relabelled
 *   (COLUMN_MISMATCH): a swapped seq, another tenant, another decision id;
 * - a seq that does not follow the one before means records were removed (SEQ_GAP);
 * - a record that does not link to the hash of the one before means a record before it was
 *   changed and re-hashed, removed or reordered (LINK_BROKEN);
 * - a chain that ends before its head lost its newest records (HEAD_MISMATCH);
 * - an anchor that no retention record in the chain vouches for was moved (ANCHOR_MISMATCH).
 *
 * Someone who can rewrite the whole database can rewrite a whole chain and its head: to catch
 * that, keep the heads `verify` reports somewhere else (a log, a ticket) and compare.
 */
import type { ChainState, StoredRecord } from './audit-record.js';
import type { AuditFailure, AuditStore } from './audit-store.js';
import { linkHash, type ChainHead } from './chain.js';

export type ChainProblemCode = 'RECORD_ALTERED' | 'COLUMN_MISMATCH' | 'SEQ_GAP' | 'LINK_BROKEN' | 'HEAD_MISMATCH' | 'ANCHOR_MISMATCH';

export interface ChainProblem {
  readonly code: ChainProblemCode;
  /** The record at which the chain breaks (for HEAD_MISMATCH, the last record found). */
  readonly seq: number;
  readonly decisionId: string | null;
  readonly message: string;
}

export interface ChainReport {
  readonly tenant: string;
  /** Records checked before the first problem (all of them when there is none). */
  readonly records: number;
  readonly head: ChainHead;
  readonly problem: ChainProblem | null;
}

export type VerifyResult = { readonly ok: true; readonly valid: boolean; readonly chains: readonly ChainReport[] } | AuditFailure;

/** Rows read per query: verification holds one page in memory, whatever a chain's length. */
const PAGE_SIZE = 1_000;

export async function verifyChains(store: AuditStore, options: { readonly tenant?: string } = {}): Promise<VerifyResult> {
  const chains = await store.chains();
  if (!chains.ok) return chains;
  const reports: ChainReport[] = [];
  for (const chain of chains.value) {
    if (options.tenant !== undefined && chain.tenant !== options.tenant) continue;
    const report = await verifyChain(store, chain);
    if ('code' in report) return report;
    reports.push(report);
  }
  return { ok: true, valid: reports.every((report) => report.problem === null), chains: reports };
}

async function verifyChain(store: AuditStore, chain: ChainState): Promise<ChainReport | AuditFailure> {
  const walk = new ChainWalk(chain);
  let after = chain.anchorSeq;
  // Rows appended after the heads were read belong to a later verification: stop at the head.
  while (after < chain.headSeq) {
    const page = await store.readChain(chain.tenant, after, PAGE_SIZE);
    if (!page.ok) return page;
    const rows = page.value.filter((row) => row.seq <= chain.headSeq);
    for (const row of rows) {
      if (!walk.step(row)) return walk.report();
    }
    if (rows.length < PAGE_SIZE) break;
    after = rows[rows.length - 1]!.seq;
  }
  walk.finish();
  return walk.report();
}

/** The state of one chain's walk: the last good record, and the first problem. */
class ChainWalk {
  #previous: ChainHead;
  #previousId: string | null = null;
  #records = 0;
  #problem: ChainProblem | null = null;
  /** What the newest retention record in the chain says the anchor is. */
  #vouchedAnchor: ChainHead | null = null;

  constructor(private readonly chain: ChainState) {
    this.#previous = { seq: chain.anchorSeq, hash: chain.anchorHash };
  }

  /** Checks `row` against the record before it; false at the first problem. */
  step(row: StoredRecord): boolean {
    const problem = this.#check(row);
    if (problem !== null) {
      this.#problem = { ...problem, seq: row.seq, decisionId: row.decisionId };
      return false;
    }
    this.#previous = { seq: row.seq, hash: row.hash };
    this.#previousId = row.decisionId;
    this.#records += 1;
    return true;
  }

  finish(): void {
    if (this.#problem !== null) return;
    const { seq, hash } = this.#previous;
    const at = { seq, decisionId: this.#previousId };
    if (seq !== this.chain.headSeq || hash !== this.chain.headHash) {
      const message = seq < this.chain.headSeq
        ? `the chain ends at record ${seq} but its head is record ${this.chain.headSeq}: the newest records were removed`
        : `the chain's last record ${seq} does not match its head (record ${this.chain.headSeq}, ${short(this.chain.headHash)}): the head or the last record was changed`;
      this.#problem = { code: 'HEAD_MISMATCH', ...at, message };
      return;
    }
    const vouched = this.#vouchedAnchor ?? { seq: 0, hash: this.chain.anchorHash };
    if (vouched.seq !== this.chain.anchorSeq || (vouched.seq > 0 && vouched.hash !== this.chain.anchorHash)) {
      const message = `the chain starts after record ${this.chain.anchorSeq}, but its newest retention record says ${vouched.seq === 0 ? 'nothing was purged' : `it starts after record ${vouched.seq}`}: the anchor was moved`;
      this.#problem = { code: 'ANCHOR_MISMATCH', ...at, message };
    }
  }

  report(): ChainReport {
    return { tenant: this.chain.tenant, records: this.#records, head: { seq: this.chain.headSeq, hash: this.chain.headHash }, problem: this.#problem };
  }

  #check(row: StoredRecord): Omit<ChainProblem, 'seq' | 'decisionId'> | null {
    const expectedSeq = this.#previous.seq + 1;
    if (row.seq !== expectedSeq) {
      const missing = row.seq > expectedSeq ? `records ${expectedSeq}–${row.seq - 1} are missing` : 'records are out of order';
      return { code: 'SEQ_GAP', message: `record ${row.seq} follows record ${this.#previous.seq}: ${missing}` };
    }
    const body = parseBody(row.body);
    const mismatch = body === undefined ? 'its body is not a JSON record' : columnMismatch(row, body);
    if (mismatch !== undefined) return { code: 'COLUMN_MISMATCH', message: `record ${row.seq} (${row.decisionId}): ${mismatch}` };
    if (linkHash(row.prevHash, row.body) !== row.hash) {
      return { code: 'RECORD_ALTERED', message: `record ${row.seq} (${row.decisionId}) does not match its hash: its content was changed` };
    }
    if (row.prevHash !== this.#previous.hash) {
      const before = this.#previous.seq === this.chain.anchorSeq && this.chain.anchorSeq > 0 ? `the anchor (record ${this.#previous.seq})` : this.#previous.seq === 0 ? 'the start of the chain' : `record ${this.#previous.seq}`;
      return { code: 'LINK_BROKEN', message: `record ${row.seq} (${row.decisionId}) does not link to ${before}: a record at or before it was changed, removed or reordered` };
    }
    if (row.kind === 'retention') this.#vouchedAnchor = retentionAnchor(body!);
    return null;
  }
}

type RecordBody = Record<string, unknown>;

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

function retentionAnchor(body: RecordBody): ChainHead {
  const payload = body['payload'] as Record<string, unknown> | undefined;
  return { seq: Number(payload?.['through_seq'] ?? -1), hash: String(payload?.['through_hash'] ?? '') };
}

function short(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}
