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
import { randomUUID } from 'node:crypto';
import { uuidV4From } from '@adec/contracts';

export function selectionDecisionId(tenant: string, requestId: string | null): string {
  return requestId === null ? randomUUID() : uuidV4From(JSON.stringify(['adec selection', tenant, requestId]));
}
