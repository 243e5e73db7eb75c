import { describeValue } from '@adec/runtime';

/**
 * How auth messages show a value taken from a token or a key set. Messages end up in responses
 * and logs, so a value is shown escaped (no control characters reach a log line) and cut to
 * 100 characters: enough to recognise an issuer or a key id, never a whole token or key.
 */
const MAX_SHOWN_CHARS = 100;

/** A string in backticks, JSON-escaped and cut to 100 characters with `…`. */
export function quoted(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  const shown = escaped.length > MAX_SHOWN_CHARS ? `${escaped.slice(0, MAX_SHOWN_CHARS)}…` : escaped;
  return `\`${shown}\``;
}

/** A token's `aud` may list thousands of values; a message names the first few and counts the rest. */
const MAX_LISTED = 10;

/** Each string quoted, comma-separated: `` `a`, `b` ``, and `and 3 more` past the tenth. */
export function quotedList(values: readonly string[]): string {
  const listed = values.slice(0, MAX_LISTED).map(quoted).join(', ');
  return values.length > MAX_LISTED ? `${listed} and ${values.length - MAX_LISTED} more` : listed;
}

/** Any JSON value as a message names it: a string quoted, anything else by its kind (`the number 3`, `a list`). */
export function shownValue(value: unknown): string {
  return typeof value === 'string' ? `string ${quoted(value)}` : describeValue(value);
}
