/**
 * A strict scan of JSON text (RFC 8259: the grammar JSON.parse accepts) for what JSON.parse
 * does not report: a key that occurs twice in one object, nesting past a limit, and the
 * position of every syntax error (JSON.parse names none for some). Once the scan passes,
 * JSON.parse builds the value. Iterative, with one entry per open container: depth costs no
 * stack, and the depth limit bounds the entries.
 */

export interface ScanProblem {
  readonly code: 'NOT_JSON' | 'DUPLICATE_KEY' | 'REQUEST_LIMIT';
  readonly message: string;
  /** Index into the text (UTF-16 units). */
  readonly index: number;
}

/** The index just past what was read, or why it could not be read. */
type Step = number | ScanProblem;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
/** " \ / b f n r t: the characters that may follow a backslash, besides u. */
const SHORT_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = ['true', 'false', 'null'];
const KEY_SHOWN_UNITS = 80;

/** The first problem of `text` from `start` on, or undefined when it is one JSON value. */
export function scanJson(text: string, start: number, maxDepth: number): ScanProblem | undefined {
  // The keys seen so far in each open object; null for an open list.
  const open: (Set<string> | null)[] = [];
  let i = skipSpace(text, start);
  for (;;) {
    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_LIST) {
      if (open.length >= maxDepth) return { code: 'REQUEST_LIMIT', message: `nested deeper than ${maxDepth} levels (maxDepth)`, index: i };
      const keys = c === OPEN_OBJECT ? new Set<string>() : null;
      open.push(keys);
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) !== (keys === null ? CLOSE_LIST : CLOSE_OBJECT)) {
        const next = keys === null ? i : readKey(text, i, keys);
        if (typeof next !== 'number') return next;
        i = next;
        continue;
      }
      open.pop();
      i++;
    } else {
      const next = scanScalar(text, i);
      if (typeof next !== 'number') return next;
      i = next;
    }
    // A value ended at i: what follows closes containers, then leads to the next value or ends the text.
    for (;;) {
      i = skipSpace(text, i);
      if (open.length === 0) return i === text.length ? undefined : unexpected(text, i, 'the end of the text after the value');
      // (`!` would drop the null of an open list as well as the undefined.)
      const keys = open[open.length - 1] as Set<string> | null;
      const c = text.charCodeAt(i);
      if (c === (keys === null ? CLOSE_LIST : CLOSE_OBJECT)) {
        open.pop();
        i++;
      } else if (c === COMMA) {
        const next = keys === null ? skipSpace(text, i + 1) : readKey(text, skipSpace(text, i + 1), keys);
        if (typeof next !== 'number') return next;
        i = next;
        break;
      } else {
        return unexpected(text, i, keys === null ? '`,` or `]`' : '`,` or `}`');
      }
    }
  }
}

/** A key, its colon and the space after it; a key already in `keys` is a problem. */
function readKey(text: string, i: number, keys: Set<string>): Step {
  if (text.charCodeAt(i) !== QUOTE) return unexpected(text, i, 'a key in double quotes');
  const end = scanString(text, i);
  if (typeof end !== 'number') return end;
  const raw = text.slice(i + 1, end - 1);
  // "a" and "\u0061" are the same key.
  const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
  if (keys.has(key)) return { code: 'DUPLICATE_KEY', message: `the key \`${shown(key)}\` occurs twice in one object`, index: i };
  keys.add(key);
  const colon = skipSpace(text, end);
  if (text.charCodeAt(colon) !== COLON) return unexpected(text, colon, '`:` after the key');
  return skipSpace(text, colon + 1);
}

function scanScalar(text: string, i: number): Step {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return scanString(text, i);
  if (c === MINUS || isDigit(c)) return scanNumber(text, i);
  const literal = LITERALS.find((word) => text.startsWith(word, i));
  return literal === undefined ? unexpected(text, i, 'a value') : i + literal.length;
}

function scanString(text: string, start: number): Step {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return { code: 'NOT_JSON', message: `a control character (${codePoint(c)}) in a string: it must be escaped`, index: i };
    if (c !== BACKSLASH) continue;
    const escaped = text.charCodeAt(i + 1);
    if (SHORT_ESCAPES.has(escaped)) i++;
    else if (escaped === 0x75 && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 5;
    else return { code: 'NOT_JSON', message: 'an invalid escape in a string', index: i };
  }
  return { code: 'NOT_JSON', message: 'a string that is not closed', index: start };
}

/** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function scanNumber(text: string, start: number): Step {
  let i = text.charCodeAt(start) === MINUS ? start + 1 : start;
  if (!isDigit(text.charCodeAt(i))) return unexpected(text, i, 'a digit');
  i = text.charCodeAt(i) === 0x30 ? i + 1 : digitsEnd(text, i);
  if (text.charCodeAt(i) === DOT) {
    if (!isDigit(text.charCodeAt(i + 1))) return unexpected(text, i + 1, 'a digit after `.`');
    i = digitsEnd(text, i + 1);
  }
  if ((text.charCodeAt(i) | 0x20) === 0x65) {
    const sign = text.charCodeAt(i + 1);
    const digits = sign === MINUS || sign === 0x2b ? i + 2 : i + 1;
    if (!isDigit(text.charCodeAt(digits))) return unexpected(text, digits, 'a digit in the exponent');
    i = digitsEnd(text, digits);
  }
  return i;
}

function digitsEnd(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

function unexpected(text: string, i: number, expected: string): ScanProblem {
  if (i >= text.length) return { code: 'NOT_JSON', message: `the text ends where ${expected} was expected`, index: i };
  const c = text.codePointAt(i)!;
  const found = c > 0x20 && c < 0x7f ? `\`${String.fromCharCode(c)}\`` : codePoint(c);
  return { code: 'NOT_JSON', message: `unexpected ${found}, expected ${expected}`, index: i };
}

function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A key as a message shows it: escaped like JSON (no raw line breaks or lone surrogates), and short. */
function shown(key: string): string {
  const escaped = JSON.stringify(key).slice(1, -1);
  if (escaped.length <= KEY_SHOWN_UNITS) return escaped;
  // Not between the two halves of a surrogate pair.
  const high = escaped.charCodeAt(KEY_SHOWN_UNITS - 1);
  return `${escaped.slice(0, high >= 0xd800 && high <= 0xdbff ? KEY_SHOWN_UNITS - 1 : KEY_SHOWN_UNITS)}…`;
}
