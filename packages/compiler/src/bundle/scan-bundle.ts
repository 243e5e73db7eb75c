/**
 * A scanner for the one dialect of JavaScript `adec build` produces: esbuild's IIFE over a
 * generated module. It splits the IIFE's body into statements and reads an object literal's
 * entries (keys, and the string literals of each value), which is all the bundle shape check
 * (verify-bundle-shape.ts) needs, in one linear pass over the text.
 *
 * Why not a parser: TypeScript's parser took 70-110 ms on a 1,000-rule bundle and 0.8-1.2 s on
 * a 10,000-rule one, most of a build's margin (bench/RESULTS.md). The dialect is small enough
 * for a scanner to be exact: every regular expression literal is hoisted by the generator into
 * a `var RE_n = /…/flags;` statement, so elsewhere a `/` is division or starts a comment;
 * strings, templates and comments are skipped whole; every statement but a function
 * declaration ends with `;`. Anything outside this dialect is reported, never guessed at, so
 * a scanner mistake fails a build (an internal error) rather than passing a wrong bundle.
 */

export type Scan<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export interface ObjectEntry {
  readonly key: string;
  /** The value's source text. */
  readonly value: string;
}

export interface StringData {
  /** The string literals of the value, decoded, in order. */
  readonly strings: readonly string[];
  /** True when the value is only string literals, brackets and commas (a string or a list of them). */
  readonly isStringData: boolean;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r';
const REGEX_STATEMENT = /var RE_(?:0|[1-9][0-9]*) = \//y;
const IDENTIFIER_KEY = /[A-Za-z_$][\w$]*:/y;

/** The statements of `body` (the text between the IIFE's braces), in order. */
export function splitStatements(body: string): Scan<readonly string[]> {
  const statements: string[] = [];
  let i = skipSpaceAndComments(body, 0);
  while (i < body.length) {
    REGEX_STATEMENT.lastIndex = i;
    const end = REGEX_STATEMENT.test(body) ? regexStatementEnd(body, i) : statementEnd(body, i);
    if (end < 0) return { ok: false, problem: `a statement of the bundle does not end where expected: \`${preview(body.slice(i))}\`` };
    statements.push(body.slice(i, end));
    i = skipSpaceAndComments(body, end);
  }
  return { ok: true, value: statements };
}

export interface ObjectLiteral {
  readonly entries: readonly ObjectEntry[];
  /** Just past its closing brace. */
  readonly end: number;
}

/** The entries of the object literal that starts at `text[open]` (a `{`). */
export function objectEntries(text: string, open: number): Scan<ObjectLiteral> {
  if (text[open] !== '{') return { ok: false, problem: `expected an object literal, found \`${preview(text.slice(open))}\`` };
  const entries: ObjectEntry[] = [];
  let i = skipSpaceAndComments(text, open + 1);
  while (i < text.length && text[i] !== '}') {
    const key = readKey(text, i);
    if (key === undefined) return { ok: false, problem: `an object entry without a plain key: \`${preview(text.slice(i))}\`` };
    const valueStart = skipSpaceAndComments(text, key.end);
    const valueEnd = valueEndAt(text, valueStart);
    if (valueEnd < 0) return { ok: false, problem: `the entry \`${key.key}\` does not end` };
    const value = text.slice(valueStart, valueEnd).trimEnd();
    entries.push({ key: key.key, value });
    i = skipSpaceAndComments(text, valueEnd);
    if (text[i] === ',') i = skipSpaceAndComments(text, i + 1);
    else if (i >= text.length || text[i] !== '}') return { ok: false, problem: `unexpected text after the entry \`${key.key}\`: \`${preview(text.slice(i))}\`` };
  }
  return { ok: true, value: { entries, end: i + 1 } };
}

/** Where a statement starting at `i` ends (just past its `;`, or a function's closing brace). */
function statementEnd(text: string, i: number): number {
  const isFunction = text.startsWith('function ', i);
  return scanCode(text, i, (c, j, depth) => {
    if (depth === 0 && (c === ';' || (isFunction && c === '}'))) return j + 1;
    return undefined;
  });
}

/**
 * Walks code from `i`, skipping strings, templates and comments whole and tracking bracket
 * depth, and calls `at` with each other character and the depth after it; the first number
 * `at` returns is the result. -1 when the text ends first or a bracket closes one never opened.
 */
function scanCode(text: string, i: number, at: (c: string, j: number, depth: number) => number | undefined): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    // Most characters are neither a literal's start nor structure: one table lookup each
    // (this loop reads every byte of a bundle twice, ahead of JIT warm-up in a build process).
    const kind = CHARACTER_KIND[text.charCodeAt(j)] ?? PLAIN;
    if (kind === PLAIN) continue;
    if (kind === LITERAL_START) {
      const after = skipLiteral(text, j);
      if (after < 0) return -1;
      if (after !== j) j = after - 1;
      continue;
    }
    const c = text[j]!;
    if (kind === OPENING) depth++;
    else if (kind === CLOSING && --depth < -1) return -1;
    const result = at(c, j, depth);
    if (result !== undefined) return result;
    if (depth < 0) return -1;
  }
  return -1;
}

const PLAIN = 0;
const LITERAL_START = 1;
const OPENING = 2;
const CLOSING = 3;
const SEPARATOR = 4;
const CHARACTER_KIND = (() => {
  const kinds = new Uint8Array(128);
  for (const c of '"\'`/') kinds[c.charCodeAt(0)] = LITERAL_START;
  for (const c of '{([') kinds[c.charCodeAt(0)] = OPENING;
  for (const c of '})]') kinds[c.charCodeAt(0)] = CLOSING;
  for (const c of ',;') kinds[c.charCodeAt(0)] = SEPARATOR;
  return kinds;
})();

/** `var RE_n = /…/flags;`: the literal is read as a regex (a class may hold `/`), then `;`. */
function regexStatementEnd(text: string, i: number): number {
  let j = text.indexOf('/', i) + 1;
  let inClass = false;
  for (; j < text.length; j++) {
    const c = text[j];
    if (c === '\n') return -1;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
  }
  j++;
  while (j < text.length && /[a-z]/.test(text[j]!)) j++;
  return text[j] === ';' ? j + 1 : -1;
}

/** Where the value starting at `i` ends: at the `,` or `}` that closes it at its own depth. */
function valueEndAt(text: string, i: number): number {
  // A `}` that closes the enclosing object takes the depth to -1.
  return scanCode(text, i, (c, j, depth) => ((depth === 0 && c === ',') || depth === -1 ? j : undefined));
}

function readKey(text: string, i: number): { readonly key: string; readonly end: number } | undefined {
  IDENTIFIER_KEY.lastIndex = i;
  const identifier = IDENTIFIER_KEY.exec(text);
  if (identifier !== null) return { key: identifier[0].slice(0, -1), end: i + identifier[0].length };
  const computed = text[i] === '[';
  const start = computed ? i + 1 : i;
  if (text[start] !== '"' && text[start] !== "'") return undefined;
  const end = skipLiteral(text, start);
  if (end < 0) return undefined;
  const close = computed ? (text[end] === ']' ? end + 1 : -1) : end;
  if (close < 0 || text[close] !== ':') return undefined;
  return { key: decodeString(text.slice(start, end)), end: close + 1 };
}

/** What a data value holds: read only for the registries whose values the model gives. */
export function stringData(value: string): StringData {
  const strings: string[] = [];
  let isStringData = true;
  for (let j = 0; j < value.length; ) {
    const c = value[j]!;
    if (c === '"' || c === "'") {
      const end = skipLiteral(value, j);
      strings.push(decodeString(value.slice(j, end)));
      j = end;
      continue;
    }
    const after = skipLiteral(value, j);
    if (after !== j) {
      isStringData = false;
      j = after;
      continue;
    }
    if (!(isSpace(c) || c === ',' || c === '[' || c === ']')) isStringData = false;
    j++;
  }
  return { strings, isStringData };
}

/** Just past the string, template or comment at `text[i]`; `i` when there is none; -1 when it does not end. */
function skipLiteral(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") {
    for (let j = i + 1; j < text.length; j++) {
      const d = text[j];
      if (d === '\\') j++;
      else if (d === c) return j + 1;
      else if (d === '\n') return -1;
    }
    return -1;
  }
  if (c === '`') {
    for (let j = i + 1; j < text.length; j++) {
      const d = text[j];
      if (d === '\\') j++;
      else if (d === '`') return j + 1;
      else if (d === '$' && text[j + 1] === '{') {
        const end = balancedEnd(text, j + 2);
        if (end < 0) return -1;
        j = end - 1;
      }
    }
    return -1;
  }
  if (c === '/' && text[i + 1] === '/') {
    const newline = text.indexOf('\n', i);
    return newline < 0 ? text.length : newline;
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? -1 : end + 2;
  }
  return i;
}

/** Just past the `}` that closes a template's `${`, starting inside it. */
function balancedEnd(text: string, i: number): number {
  return scanCode(text, i, (c, j, depth) => (depth === -1 ? (c === '}' ? j + 1 : -1) : undefined));
}

function skipSpaceAndComments(text: string, i: number): number {
  for (;;) {
    while (isSpace(text[i])) i++;
    if (text[i] !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) return i;
    const after = skipLiteral(text, i);
    if (after < 0) return text.length;
    i = after;
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** The value of a quoted string literal as esbuild writes them. */
export function decodeString(literal: string): string {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  return literal.slice(1, -1).replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, escape: string) => {
    if (escape.startsWith('u{')) return String.fromCodePoint(parseInt(escape.slice(2, -1), 16));
    if (escape.length > 1) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return SIMPLE_ESCAPES[escape] ?? escape;
  });
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
