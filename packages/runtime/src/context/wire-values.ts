/**
 * Timestamps and durations cross the wire as text (or, for a duration, a number of ms) and are
 * numbers of ms inside the module. These are the two conversions, strict: anything that is not
 * exactly a valid value is `undefined`, never a guess; and the forms a trace shows them in.
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

const ISO_UNITS: readonly (readonly [string, number])[] = [
  ['H', 3_600_000],
  ['M', 60_000],
];

/**
 * A duration (ms) as an ISO 8601 duration, for traces a human and a client read: `P30D`,
 * `PT2H30M`, `P1DT12H`, `PT0.5S`, `PT0S`; a negative one with a leading `-` (ISO 8601-2). A day
 * is 24 hours here, as in the language: durations have no calendar.
 */
export function isoDuration(ms: number): string {
  let rest = Math.abs(ms);
  const days = Math.floor(rest / 86_400_000);
  rest -= days * 86_400_000;
  let time = '';
  for (const [unit, unitMs] of ISO_UNITS) {
    const count = Math.floor(rest / unitMs);
    rest -= count * unitMs;
    if (count > 0) time += `${count}${unit}`;
  }
  if (rest > 0) time += `${rest / 1_000}S`;
  if (days === 0 && time === '') return 'PT0S';
  return `${ms < 0 ? '-' : ''}P${days > 0 ? `${days}D` : ''}${time === '' ? '' : `T${time}`}`;
}

const ISO_DURATION = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** The milliseconds of an ISO 8601 duration as `isoDuration` writes them (days, hours, minutes, seconds), or undefined. */
export function isoDurationMs(text: string): number | undefined {
  const parts = ISO_DURATION.exec(text);
  if (parts === null || text.endsWith('P') || text.endsWith('T')) return undefined;
  const [days, hours, minutes, seconds] = [parts[2], parts[3], parts[4], parts[5]].map((part) => Number(part ?? 0)) as [number, number, number, number];
  const ms = days * 86_400_000 + hours * 3_600_000 + minutes * 60_000 + Math.round(seconds * 1_000);
  return parts[1] === '-' ? -ms : ms;
}

const SPOKEN_UNITS: readonly (readonly [string, number])[] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
  ['millisecond', 1],
];

/**
 * A duration (ms) as a person reads it: `30 days`, `2 hours 30 minutes`, `0 seconds`. The same
 * text a module's `reason` gives for an interpolated duration (its `formatDuration` helper,
 * compiler generate/runtime-helpers.ts; packages/runtime/test/durations.test.ts holds them together).
 */
export function durationText(ms: number): string {
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, unitMs] of SPOKEN_UNITS) {
    const count = Math.floor(rest / unitMs);
    rest -= count * unitMs;
    if (count > 0) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.length === 0 ? '0 seconds' : `${ms < 0 ? '-' : ''}${parts.join(' ')}`;
}
