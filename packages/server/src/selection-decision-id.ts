/**
 * A selection's decision id (docs/spec/selection.md 3.1.2): a UUID v4 the service generates,
 * never the client's `request_id`, which stays a field of its own (the idempotency key).
 *
 * Without a request id the decision id is random. With one, its 122 free bits are the first bits
 * of SHA-256 over the org and the request id, so a retry of the request names the decision the
 * first attempt made, and the audit store's uniqueness of a decision id per org is what makes a
 * retry idempotent, as it is for every other record. The id reveals nothing the request id does
 * not, and names a decision only within its org.
 */
import { createHash, randomUUID } from 'node:crypto';

export function selectionDecisionId(tenant: string, requestId: string | null): string {
  if (requestId === null) return randomUUID();
  const bytes = createHash('sha256').update(JSON.stringify(['adec selection', tenant, requestId])).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
