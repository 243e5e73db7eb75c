import type { BundleWorld } from './module-binding.js';

/**
 * The exact bytes each kind of signature is made over. Each starts with its own context line,
 * so a manifest signature can never be replayed as an approval or the other way round, even
 * when the same key is trusted for both; the line names the format's version, so a signature
 * made for one format never verifies for another.
 */
const MANIFEST_CONTEXT = 'adec.manifest.v1\n';
const APPROVAL_CONTEXT = 'adec.approval.v2\n';

/** `adec.manifest.v1\n` followed by the exact bytes of manifest.json. */
export function manifestMessage(manifest: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(MANIFEST_CONTEXT, 'utf8'), manifest]);
}

/** What an approval states: this module, for this world version, issued then, valid until then. */
export interface ApprovalStatement {
  readonly moduleHash: string;
  readonly world: BundleWorld;
  /** `YYYY-MM-DDTHH:MM:SSZ`, as written in approval.json (approval-times.ts). */
  readonly issuedAt: string;
  readonly expiresAt: string;
}

/**
 * `adec.approval.v2\n` followed by the statement as JSON, members in this order, no whitespace:
 * `{"module_hash":…,"world":{"org":…,"domain":…,"version":…},"issued_at":…,"expires_at":…}`.
 * Built from the parsed values, so it is the same bytes however approval.json spells them.
 */
export function approvalMessage(statement: ApprovalStatement): Buffer {
  const { moduleHash, world, issuedAt, expiresAt } = statement;
  const json = JSON.stringify({
    module_hash: moduleHash,
    world: { org: world.org, domain: world.domain, version: world.version },
    issued_at: issuedAt,
    expires_at: expiresAt,
  });
  return Buffer.from(`${APPROVAL_CONTEXT}${json}`, 'utf8');
}
