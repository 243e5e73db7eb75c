/**
 * A UUID v4 whose 122 free bits are the first bits of SHA-256 over `seed`: the same seed, the
 * same id (docs/spec/selection.md 3.1.2, a retried request's decision id).
 */
import { createHash } from 'node:crypto';

export function uuidV4From(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
