/**
 * Digests of JSON values that do not depend on how the client ordered its keys or spaced its
 * text: two requests that mean the same decide alike, so they must hash alike (idempotent
 * retries, `inputs_hash`).
 */
import { createHash } from 'node:crypto';

/** JSON text with every object's keys sorted (by UTF-16 code units), no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record).sort().filter((key) => record[key] !== undefined);
    return `{${members.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify gives undefined for undefined, functions and symbols, which lib.d.ts's `string` leaves out
  return JSON.stringify(value) ?? 'null';
}

export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
