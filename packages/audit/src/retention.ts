/**
 * Retention (ARCHITECTURE.md "Audit store": default 90 days). A purge removes the oldest
 * records of a chain, so the chain would no longer start at its genesis: the last removed
 * record's seq and hash become the chain's anchor, and a `retention` record appended to the
 * chain vouches for that anchor. Verification starts at the anchor and checks that the newest
 * retention record names it, so moving the anchor to hide a removal is detected too.
 */
import type { ChainState } from './audit-record.js';
import type { ChainHead } from './chain.js';
import type { PreparedEntry } from './prepared-entry.js';

export const DEFAULT_RETENTION_DAYS = 90;

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
