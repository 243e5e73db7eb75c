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
 * - a record past the head was inserted outside adec, and so was one the writer found there and
 *   set aside (BEYOND_HEAD): a chain has no end but its head;
 * - an anchor that no retention record in the chain vouches for was moved (ANCHOR_MISMATCH);
 * - with signed anchors (signed-anchor.ts), an anchored record that is gone (ANCHORED_RECORD_MISSING,
 *   at the first missing position) or different (ANCHORED_RECORD_CHANGED): the chain was
 *   truncated or rolled back, which its own links cannot show.
 *
 * Someone who can rewrite the whole database can rewrite a whole chain and its head: signed
 * anchors kept elsewhere are what catch that.
 */
import type { ChainState, StoredRecord } from './audit-record.js';
import type { AuditFailure, AuditStore, RowsOffChain } from './audit-store.js';
import { GENESIS_HASH, type ChainHead } from './chain.js';
import { checkRecord, type RecordBody } from './record-integrity.js';
import { DECISION_CHAIN, type SignedAnchor } from './signed-anchor.js';

export type ChainProblemCode =
  | 'RECORD_ALTERED'
  | 'COLUMN_MISMATCH'
  | 'SEQ_GAP'
  | 'LINK_BROKEN'
  | 'HEAD_MISMATCH'
  | 'BEYOND_HEAD'
  | 'ANCHOR_MISMATCH'
  | 'ANCHORED_RECORD_MISSING'
  | 'ANCHORED_RECORD_CHANGED';

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

export interface VerifyOptions {
  /** Only this tenant's chain. */
  readonly tenant?: string;
  /** Signed anchors whose signatures were checked (`readAnchors`): each anchored record must still be there, unchanged. */
  readonly anchors?: readonly SignedAnchor[];
}

export async function verifyChains(store: AuditStore, options: VerifyOptions = {}): Promise<VerifyResult> {
  // Rows off every chain first: a tenant's first records and its chain are committed together, so
  // a tenant found there without a chain, before the chains are read, really had none.
  const offChain = await store.rowsOffChain();
  if (!offChain.ok) return offChain;
  const chains = await store.chains();
  if (!chains.ok) return chains;
  const wanted = (tenant: string) => options.tenant === undefined || tenant === options.tenant;
  const anchors = anchorsByTenant((options.anchors ?? []).filter((anchor) => wanted(anchor.tenant)));
  const reports: ChainReport[] = [];
  for (const chain of chains.value) {
    if (!wanted(chain.tenant)) continue;
    const report = await verifyChain(store, chain, anchors.get(chain.tenant) ?? new Map(), offChain.value.find((rows) => rows.tenant === chain.tenant));
    if ('code' in report) return report;
    reports.push(report);
  }
  // A tenant without a chain but anchored lost all of it (a cut log can take a new tenant's first
  // commits); one with rows has rows that no chain holds.
  const chained = new Set(chains.value.map((chain) => chain.tenant));
  const unchained = new Set([...anchors.keys(), ...offChain.value.map((rows) => rows.tenant)].filter((tenant) => wanted(tenant) && !chained.has(tenant)));
  for (const tenant of unchained) reports.push(withoutChain(tenant, anchors.get(tenant) ?? new Map(), offChain.value.find((rows) => rows.tenant === tenant)));
  reports.sort((a, b) => Buffer.compare(Buffer.from(a.tenant), Buffer.from(b.tenant)));
  return { ok: true, valid: reports.every((report) => report.problem === null), chains: reports };
}

async function verifyChain(store: AuditStore, chain: ChainState, anchored: ReadonlyMap<number, SignedAnchor>, offChain: RowsOffChain | undefined): Promise<ChainReport | AuditFailure> {
  const walk = new ChainWalk(chain, anchored);
  let after = chain.anchorSeq;
  let head = chain;
  for (;;) {
    const page = await store.readChain(chain.tenant, after, PAGE_SIZE);
    if (!page.ok) return page;
    for (const row of page.value) {
      if (row.seq > head.headSeq) {
        // Rows appended after the heads were read belong to the chain if its head now covers them.
        const now = await store.chains();
        if (!now.ok) return now;
        head = now.value.find((state) => state.tenant === chain.tenant) ?? head;
        walk.extendTo(head);
        if (row.seq > head.headSeq) {
          walk.beyondHead(row);
          return walk.report();
        }
      }
      if (!walk.step(row)) return walk.report();
    }
    if (page.value.length < PAGE_SIZE) break;
    after = page.value[page.value.length - 1]!.seq;
  }
  walk.finish(offChain);
  return walk.report();
}

/** Each tenant's anchors by seq (of several at one seq, the newest: any of them proves what was there). */
function anchorsByTenant(anchors: readonly SignedAnchor[]): Map<string, Map<number, SignedAnchor>> {
  const byTenant = new Map<string, Map<number, SignedAnchor>>();
  for (const anchor of anchors) {
    if (anchor.chain !== DECISION_CHAIN) continue;
    const ofTenant = byTenant.get(anchor.tenant) ?? new Map<number, SignedAnchor>();
    byTenant.set(anchor.tenant, ofTenant);
    const known = ofTenant.get(anchor.seq);
    if (known === undefined || known.anchored_at < anchor.anchored_at) ofTenant.set(anchor.seq, anchor);
  }
  return byTenant;
}

/** The report of a tenant that has no chain: the empty chain, checked against its anchors and rows. */
function withoutChain(tenant: string, anchored: ReadonlyMap<number, SignedAnchor>, offChain: RowsOffChain | undefined): ChainReport {
  const walk = new ChainWalk({ tenant, headSeq: 0, headHash: GENESIS_HASH, anchorSeq: 0, anchorHash: GENESIS_HASH }, anchored);
  walk.finish(offChain);
  return walk.report();
}

/** The state of one chain's walk: the last good record, and the first problem. */
class ChainWalk {
  #chain: ChainState;
  #previous: ChainHead;
  #previousId: string | null = null;
  #records = 0;
  #problem: ChainProblem | null = null;
  /** What the newest retention record in the chain says the anchor is. */
  #vouchedAnchor: ChainHead | null = null;

  constructor(chain: ChainState, private readonly anchored: ReadonlyMap<number, SignedAnchor>) {
    this.#chain = chain;
    this.#previous = { seq: chain.anchorSeq, hash: chain.anchorHash };
  }

  /** The chain grew while it was walked: its head is now `chain`'s. */
  extendTo(chain: ChainState): void {
    this.#chain = chain;
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

  /** `row` lies past the chain's head. */
  beyondHead(row: StoredRecord): void {
    const message = `record ${row.seq} (${row.decisionId}) lies past the chain's head (record ${this.#chain.headSeq}): it was inserted outside adec`;
    this.#problem = { code: 'BEYOND_HEAD', seq: row.seq, decisionId: row.decisionId, message };
  }

  /** The checks of the chain as a whole, once its last record is walked. */
  finish(offChain: RowsOffChain | undefined): void {
    if (this.#problem !== null) return;
    const chain = this.#chain;
    const { seq, hash } = this.#previous;
    const at = { seq, decisionId: this.#previousId };
    if (seq !== chain.headSeq || hash !== chain.headHash) {
      const message = seq < chain.headSeq
        ? `the chain ends at record ${seq} but its head is record ${chain.headSeq}: the newest records were removed`
        : `the chain's last record ${seq} does not match its head (record ${chain.headSeq}, ${short(chain.headHash)}): the head or the last record was changed`;
      this.#problem = { code: 'HEAD_MISMATCH', ...at, message };
      return;
    }
    const vouched = this.#vouchedAnchor ?? { seq: 0, hash: chain.anchorHash };
    if (vouched.seq !== chain.anchorSeq || (vouched.seq > 0 && vouched.hash !== chain.anchorHash)) {
      const message = `the chain starts after record ${chain.anchorSeq}, but its newest retention record says ${vouched.seq === 0 ? 'nothing was purged' : `it starts after record ${vouched.seq}`}: the anchor was moved`;
      this.#problem = { code: 'ANCHOR_MISMATCH', ...at, message };
      return;
    }
    if (offChain !== undefined) {
      const message = `${offChain.rows} record${offChain.rows === 1 ? ' was' : 's were'} inserted past the chain's head outside adec (the first at ${offChain.firstSeq}): the writer sets such rows aside in decision_records_beyond_head, where they stay for inspection`;
      this.#problem = { code: 'BEYOND_HEAD', seq: offChain.firstSeq, decisionId: null, message };
      return;
    }
    this.#checkAnchorsOutsideWalk();
  }

  report(): ChainReport {
    return { tenant: this.#chain.tenant, records: this.#records, head: { seq: this.#chain.headSeq, hash: this.#chain.headHash }, problem: this.#problem };
  }

  #check(row: StoredRecord): Omit<ChainProblem, 'seq' | 'decisionId'> | null {
    const expectedSeq = this.#previous.seq + 1;
    if (row.seq !== expectedSeq) {
      const missing = row.seq > expectedSeq ? `records ${expectedSeq}–${row.seq - 1} are missing` : 'records are out of order';
      return { code: 'SEQ_GAP', message: `record ${row.seq} follows record ${this.#previous.seq}: ${missing}` };
    }
    const checked = checkRecord(row);
    if (!checked.ok) return { code: checked.code, message: checked.message };
    if (row.prevHash !== this.#previous.hash) {
      const before = this.#previous.seq === this.#chain.anchorSeq && this.#chain.anchorSeq > 0 ? `the anchor (record ${this.#previous.seq})` : this.#previous.seq === 0 ? 'the start of the chain' : `record ${this.#previous.seq}`;
      return { code: 'LINK_BROKEN', message: `record ${row.seq} (${row.decisionId}) does not link to ${before}: a record at or before it was changed, removed or reordered` };
    }
    const anchor = this.anchored.get(row.seq);
    if (anchor !== undefined && anchor.head_hash !== row.hash) {
      return { code: 'ANCHORED_RECORD_CHANGED', message: `record ${row.seq} (${row.decisionId}) is not the record anchored at ${anchor.anchored_at} (${short(anchor.head_hash)}): the chain was rolled back and rewritten from there` };
    }
    if (row.kind === 'retention') this.#vouchedAnchor = retentionAnchor(checked.body);
    return null;
  }

  /**
   * Anchors of records the walk did not meet: past the head (removed, truncated or rolled back:
   * the first missing position is the one after the head), or at the chain's anchor (purged,
   * whose hash the anchor keeps). Anchors of records purged before it prove nothing more.
   */
  #checkAnchorsOutsideWalk(): void {
    const chain = this.#chain;
    const newest = [...this.anchored.values()].reduce<SignedAnchor | undefined>((top, anchor) => (top === undefined || anchor.seq > top.seq ? anchor : top), undefined);
    if (newest !== undefined && newest.seq > chain.headSeq) {
      const first = chain.headSeq + 1;
      const message = `record ${newest.seq} was anchored at ${newest.anchored_at}, but the chain ends at record ${chain.headSeq}: records ${first}–${newest.seq} were removed, truncated or rolled back (the first missing position is ${first})`;
      this.#problem = { code: 'ANCHORED_RECORD_MISSING', seq: first, decisionId: null, message };
      return;
    }
    const atAnchor = this.anchored.get(chain.anchorSeq);
    if (atAnchor !== undefined && chain.anchorSeq > 0 && atAnchor.head_hash !== chain.anchorHash) {
      const message = `record ${chain.anchorSeq} was anchored at ${atAnchor.anchored_at} as ${short(atAnchor.head_hash)}, but the chain's anchor names ${short(chain.anchorHash)}: the chain was rewritten`;
      this.#problem = { code: 'ANCHORED_RECORD_CHANGED', seq: chain.anchorSeq, decisionId: null, message };
    }
  }
}

function retentionAnchor(body: RecordBody): ChainHead {
  const payload = body['payload'] as Record<string, unknown> | undefined;
  const hash = payload?.['through_hash'];
  // Not a string: no hash at all, which no chain's link matches.
  return { seq: Number(payload?.['through_seq'] ?? -1), hash: typeof hash === 'string' ? hash : '' };
}

function short(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}
