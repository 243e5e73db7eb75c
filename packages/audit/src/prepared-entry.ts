/**
 * An entry checked and serialized before it joins a group commit. Everything that can make an
 * entry unwritable is found here, for that entry alone: inside the batch's transaction one bad
 * entry (a payload JSON cannot hold, a NUL byte PostgreSQL refuses in a text column) would fail
 * every decision committed with it.
 */
import type { AppendedEntry, AuditEntry } from './audit-record.js';
import type { AuditFailure } from './audit-store.js';
import { storeFailure } from './store-options.js';

export interface PreparedEntry {
  readonly entry: AuditEntry;
  /** The payload's JSON text, written into the record's body as is. */
  readonly payloadJson: string;
}

/**
 * What linking and writing a record reads: the entry's keys and its payload's JSON text, never
 * the payload object. This is what crosses to a writer thread: a structured clone of a decision's
 * payload (~7.5 KB of objects) cost the service's main thread 56 µs per record, a string's copy
 * a fraction of that.
 */
export interface SerializedEntry {
  readonly entry: Omit<AuditEntry, 'payload'>;
  readonly payloadJson: string;
}

export function serializedEntry({ entry, payloadJson }: PreparedEntry): SerializedEntry {
  return { entry: { tenant: entry.tenant, decisionId: entry.decisionId, kind: entry.kind, requestHash: entry.requestHash }, payloadJson };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The kinds a host appends: `retention` records are the store's own, written by a purge. */
const HOST_KINDS: ReadonlySet<unknown> = new Set(['adjudication', 'selection', 'feedback']);

/** The longest tenant and decision id, in characters. */
const MAX_KEY_LENGTH = 200;

export function prepareEntry({ payloadJson: serialized, ...entry }: AppendedEntry): { readonly ok: true; readonly prepared: PreparedEntry } | AuditFailure {
  for (const [name, value] of [['tenant', entry.tenant], ['decision id', entry.decisionId], ['request hash', entry.requestHash]] as const) {
    const problem = textProblem(value, name === 'request hash' ? 0 : 1);
    if (problem !== undefined) return storeFailure('INVALID_ENTRY', `the record's ${name} ${problem}`);
  }
  // Read as `unknown`: a host in plain JavaScript may put anything in these fields.
  const kind: unknown = entry.kind;
  const payload: unknown = entry.payload;
  const payloadText: unknown = serialized;
  if (!HOST_KINDS.has(kind)) {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify gives undefined for undefined, functions and symbols, which lib.d.ts's `string` leaves out
    return storeFailure('INVALID_ENTRY', `the record's kind must be adjudication, selection or feedback, found ${JSON.stringify(kind) ?? String(kind)}`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return storeFailure('INVALID_ENTRY', 'the record\'s payload must be a JSON object');
  if (payloadText !== undefined && typeof payloadText !== 'string') return storeFailure('INVALID_ENTRY', `the record's payload text must be a string, found ${typeof payloadText}`);
  let payloadJson: string;
  try {
    payloadJson = payloadText ?? JSON.stringify(payload);
  } catch (error) {
    return storeFailure('INVALID_ENTRY', `the record's payload is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  // JSON escapes control characters, so only the keys need this check for NUL bytes.
  return { ok: true, prepared: { entry, payloadJson } };
}

/**
 * True when every value could be a key of a stored record. A lookup by a key no record can have
 * finds nothing on either backend, rather than whatever each database makes of a NUL byte or a
 * lone surrogate (PostgreSQL refuses the query).
 */
export function areStorableKeys(...values: readonly unknown[]): boolean {
  return values.every((value) => textProblem(value) === undefined);
}

/**
 * Why `value` cannot be a key of the store (a tenant, an id), or undefined when it can: keys are
 * short plain strings, since PostgreSQL refuses a NUL byte in a text column and a lone surrogate
 * has no UTF-8 form for either database to store.
 */
export function textProblem(value: unknown, minLength = 1): string | undefined {
  if (typeof value !== 'string') return `must be a string, found ${value === null ? 'null' : typeof value}`;
  if (value.length < minLength) return 'must not be empty';
  if (value.length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'holds a control character';
  if (LONE_SURROGATE.test(value)) return 'holds a lone surrogate';
  return undefined;
}
