/**
 * The exact bytes each kind of signature is made over. Each starts with its own context line,
 * so a manifest signature can never be replayed as an approval or the other way round, even
 * when the same key is trusted for both.
 */
const MANIFEST_CONTEXT = 'adec.manifest.v1\n';
const APPROVAL_CONTEXT = 'adec.approval.v1\n';

/** `adec.manifest.v1\n` followed by the exact bytes of manifest.json. */
export function manifestMessage(manifest: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(MANIFEST_CONTEXT, 'utf8'), manifest]);
}

/** `adec.approval.v1\n` followed by the module hash (`sha256:<hex>`). */
export function approvalMessage(moduleHash: string): Buffer {
  return Buffer.from(`${APPROVAL_CONTEXT}${moduleHash}`, 'utf8');
}
