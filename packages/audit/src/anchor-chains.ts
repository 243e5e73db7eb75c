/**
 * What `adec audit anchor` prints and `adec serve` appends to its anchors file: one signed anchor
 * (signed-anchor.ts) per tenant, of its chain's head as the store has it now.
 */
import type { AuditStore, Lookup } from './audit-store.js';
import { signAnchor, type AnchorSigner, type SignedAnchor } from './signed-anchor.js';

export async function signedAnchors(store: AuditStore, signer: AnchorSigner, at: Date = new Date()): Promise<Lookup<readonly SignedAnchor[]>> {
  const chains = await store.chains();
  if (!chains.ok) return chains;
  // A chain with no record yet (a PostgreSQL head row whose first batch is being written) has nothing to anchor.
  return { ok: true, value: chains.value.filter((chain) => chain.headSeq > 0).map((chain) => signAnchor(chain, at, signer)) };
}
