/** `sha256:<hex>` of a value's JSON text: the payload hashes, the input hashes and the trace's content address. */
import { createHash } from 'node:crypto';

export function jsonDigest(value: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify gives undefined for undefined, functions and symbols, which lib.d.ts's `string` leaves out
  return `sha256:${createHash('sha256').update(JSON.stringify(value) ?? 'null').digest('hex')}`;
}
