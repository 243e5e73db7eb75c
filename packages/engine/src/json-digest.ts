/** `sha256:<hex>` of a value's JSON text: the payload hashes, the input hashes and the trace's content address. */
import { createHash } from 'node:crypto';

export function jsonDigest(value: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(value) ?? 'null').digest('hex')}`;
}
