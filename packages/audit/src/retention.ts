/**
 * Retention (ARCHITECTURE.md "Audit store": default 90 days). A purge removes the oldest
 * records of a chain, so the chain would no longer start at its genesis: the last removed
 * record's seq and hash become the chain's anchor, and a `retention` record appended to the
 * chain vouches for that anchor. Verification starts at the anchor and checks that the newest
 * retention record names it, so moving the anchor to hide a removal is detected too.
 *
 * Memory (user-memory.ts) is short-term: the same purge forgets every entry not written since
 * the cutoff. It is not chained, so forgetting it needs no marker.
 */
import type { ChainState } from './audit-record.js';
import type { PurgeReport } from './audit-store.js';
import type { ChainHead } from './chain.js';
import type { PreparedEntry } from './prepared-entry.js';

export { DEFAULT_RETENTION_DAYS } from '@adec/abi';

/** The record a purge appends to a tenant's chain after removing every record up to `through`. */
export function retentionEntry(tenant: string, through: ChainHead, removed: number, cutoff: number): PreparedEntry {
  const payload = { through_seq: through.seq, through_hash: through.hash, removed, cutoff: new Date(cutoff).toISOString() };
  // `~` is outside the request ids a host accepts, so a caller cannot take this id first.
  const entry = { tenant, decisionId: `~retention:${through.seq}`, kind: 'retention', requestHash: '', payload } as const;
  return { entry, payloadJson: JSON.stringify(payload) };
}

/**
 * The last record a purge removes from `chain`, given the first record committed at or after
 * the cutoff (undefined: none is): the longest prefix older than the cutoff. Undefined when
 * there is nothing to remove beyond what the anchor already marks.
 */
export function purgeThrough(chain: ChainState, firstKeptSeq: number | undefined): number | undefined {
  const through = (firstKeptSeq ?? chain.headSeq + 1) - 1;
  return through > chain.anchorSeq ? through : undefined;
}

/** What a purge did to one tenant's chain, before its memory is counted in. */
export type ChainPurge = Omit<PurgeReport, 'memoryRemoved'>;

/**
 * One report per tenant that has a chain or had memory forgotten, in tenant order: the byte
 * order of their UTF-8 text, which is how both databases order the chains (SQLite's BINARY,
 * PostgreSQL's "C" collation).
 */
export function purgeReports(chains: readonly ChainPurge[], memoryRemoved: ReadonlyMap<string, number>): PurgeReport[] {
  const reports: PurgeReport[] = chains.map((chain) => ({ ...chain, memoryRemoved: memoryRemoved.get(chain.tenant) ?? 0 }));
  const chained = new Set(chains.map((chain) => chain.tenant));
  for (const [tenant, removed] of memoryRemoved) {
    if (!chained.has(tenant)) reports.push({ tenant, removed: 0, anchorSeq: 0, memoryRemoved: removed });
  }
  return reports.sort((a, b) => Buffer.compare(Buffer.from(a.tenant), Buffer.from(b.tenant)));
}
