/**
 * Timestamps and durations cross the wire as text (or, for a duration, a number of ms) and are
 * numbers of ms inside the module. These are the two conversions, strict: anything that is not
 * exactly a valid value is `undefined`, never a guess.
 */

// RFC 3339 date-time: a date, a time, and an explicit offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an RFC 3339 timestamp, or undefined. */
export function timestampMs(text: string): number | undefined {
  const parts = RFC3339.exec(text);
  if (parts === null) return undefined;
  const [month, day, hour, minute, second] = [parts[2], parts[3], parts[4], parts[5], parts[6]].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = Date.parse(text.toUpperCase());
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2026-02-31 over to March; a round trip of the date part catches it.
  const offsetMinutes = parts[8]!.toUpperCase() === 'Z' ? 0 : offsetOf(parts[8]!);
  const local = new Date(ms + offsetMinutes * 60_000);
  return local.getUTCDate() === day && local.getUTCMonth() + 1 === month ? ms : undefined;
}

function offsetOf(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration given as `500ms`/`18h`/`7d` text or a whole number of ms. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const parts = DURATION.exec(value);
  if (parts === null) return undefined;
  const ms = Number(parts[1]) * UNIT_MS[parts[2]!]!;
  return Number.isSafeInteger(ms) ? ms : undefined;
}

let lastMs = Number.NaN;
let lastIso = '';

/**
 * The wire form of a timestamp the module computed with (for traces a human reads). Under load
 * many decisions share a millisecond, so the last conversion is kept: formatting a Date costs
 * about as much as binding a whole context.
 */
export function isoTimestamp(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
