import type { BundleWorld } from './module-binding.js';

/**
 * The exact bytes each kind of signature is made over. Each starts with its own context line,
 * so a manifest signature can never be replayed as an approval or the other way round, even
 * when the same key is trusted for both; the line names the format's version, so a signature
 * made for one format never verifies for another.
 */
const MANIFEST_CONTEXT = 'adec.manifest.v1\n';
const APPROVAL_CONTEXTS = { 'adec.approval.v2': 'adec.approval.v2\n', 'adec.approval.v3': 'adec.approval.v3\n' } as const;

/** The approval formats a host reads: v3 is written; v2 (no `rebuilt_by`) is still read. */
export type ApprovalFormat = keyof typeof APPROVAL_CONTEXTS;

/** The compiler that rebuilt an approved bundle from its sources, byte for byte. */
export interface ApprovalCompiler {
  readonly name: string;
  readonly version: string;
}

/** `adec.manifest.v1\n` followed by the exact bytes of manifest.json. */
export function manifestMessage(manifest: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(MANIFEST_CONTEXT, 'utf8'), manifest]);
}

/**
 * What an approval states: this module, for this world version, issued then, valid until then,
 * and (from v3) whether the approver rebuilt it from its sources and with which compiler.
 */
export interface ApprovalStatement {
  readonly format: ApprovalFormat;
  readonly moduleHash: string;
  readonly world: BundleWorld;
  /** `YYYY-MM-DDTHH:MM:SSZ`, as written in approval.json (approval-times.ts). */
  readonly issuedAt: string;
  readonly expiresAt: string;
  /** The compiler whose rebuild gave this exact bundle; null when approved without a rebuild (always in v2). */
  readonly rebuiltBy: ApprovalCompiler | null;
}

/**
 * The format's context line (`adec.approval.v3\n`) followed by the statement as JSON, members in
 * this order, no whitespace: `{"module_hash":…,"world":{"org":…,"domain":…,"version":…},
 * "issued_at":…,"expires_at":…,"rebuilt_by":{"name":…,"version":…}|null}` (v2: without
 * `rebuilt_by`). Built from the parsed values, so it is the same bytes however approval.json
 * spells them.
 */
export function approvalMessage(statement: ApprovalStatement): Buffer {
  const { moduleHash, world, issuedAt, expiresAt, rebuiltBy } = statement;
  const json = JSON.stringify({
    module_hash: moduleHash,
    world: { org: world.org, domain: world.domain, version: world.version },
    issued_at: issuedAt,
    expires_at: expiresAt,
    ...(statement.format === 'adec.approval.v3' && { rebuilt_by: rebuiltBy === null ? null : { name: rebuiltBy.name, version: rebuiltBy.version } }),
  });
  return Buffer.from(`${APPROVAL_CONTEXTS[statement.format]}${json}`, 'utf8');
}
