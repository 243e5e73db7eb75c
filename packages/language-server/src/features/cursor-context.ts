/**
 * Where the cursor is, read from the text alone: completion runs on text the author is in
 * the middle of typing, which often does not parse. A light scan (strings, comments,
 * brackets) from the start of the file to the cursor gives the enclosing blocks — each
 * named by the words before its `{` (`action change_plan`, `rule x`, `context`) — and the
 * text of the current statement before the cursor.
 */

export interface Frame {
  /** The first word before the bracket (`action`, `rule`, `context`, …), or `field` for `name: {`. */
  readonly keyword: string | undefined;
  /** The word or string after it: `change_plan` in `action change_plan {`. */
  readonly name: string | undefined;
  readonly bracket: '{' | '[' | '(';
  /** Offset just after the bracket. */
  readonly start: number;
  /** The statement before the bracket: `service_code in ` for `service_code in [`. */
  readonly before: string;
}

export interface CursorContext {
  /** Enclosing blocks, outermost first. */
  readonly frames: readonly Frame[];
  readonly inComment: boolean;
  /** Inside a string literal, outside any `{…}` interpolation. */
  readonly inString: boolean;
  /** The text of the string before the cursor, when `inString`. */
  readonly stringText: string;
  /** The text before the string's opening quote, on its statement, when `inString`. */
  readonly beforeString: string;
  /** The statement before the cursor: from the last line break or bracket (or the `{` of an interpolation). */
  readonly statement: string;
  /** Inside the `{…}` of an interpolated string: an expression, never a clause. */
  readonly inInterpolation: boolean;
}

interface Token {
  readonly text: string;
  readonly kind: 'word' | 'string' | 'punctuation';
}

const WORD_START = /[A-Za-z_]/;
const WORD_PART = /[A-Za-z0-9_]/;

/** Files far larger than any world file are scanned only near the cursor. */
const MAX_SCAN = 2_000_000;

export function cursorContext(text: string, offset: number): CursorContext {
  const end = Math.min(offset, text.length);
  const frames: Frame[] = [];
  let lineTokens: Token[] = [];
  let previousLineTokens: Token[] = [];
  let statementStart = 0;
  let i = Math.max(0, end - MAX_SCAN);

  const openFrame = (bracket: Frame['bracket'], at: number) => {
    const parent = frames[frames.length - 1];
    const header = lineTokens.length > 0 || bracket !== '{' || parent?.bracket === '[' ? lineTokens : previousLineTokens;
    frames.push({ ...frameHeader(header), bracket, start: at + 1, before: text.slice(statementStart, at) });
    lineTokens = [];
    previousLineTokens = [];
    statementStart = at + 1;
  };
  const closeFrame = (bracket: Frame['bracket'], at: number) => {
    const index = findLastIndex(frames, (f) => f.bracket === bracket);
    if (index >= 0) frames.length = index;
    lineTokens = [];
    previousLineTokens = [];
    statementStart = at + 1;
  };

  while (i < end) {
    const ch = text[i]!;
    if (ch === '\n' || ch === '\r') {
      if (lineTokens.length > 0) previousLineTokens = lineTokens;
      lineTokens = [];
      statementStart = i + 1;
      i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      const lineEnd = findLineEnd(text, i);
      if (lineEnd >= end) return comment(frames);
      i = lineEnd;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > end) return comment(frames);
      i = close + 2;
    } else if (ch === '"' || ch === "'") {
      const { close, closed } = stringEnd(text, i, ch);
      if (closed ? close > end : close >= end) return inString(text, i, end, frames, text.slice(statementStart, i));
      lineTokens.push({ kind: 'string', text: text.slice(i + 1, closed ? close - 1 : close) });
      i = close;
    } else if (ch === '{' || ch === '[' || ch === '(') {
      openFrame(ch, i);
      i++;
    } else if (ch === '}' || ch === ']' || ch === ')') {
      closeFrame(ch === '}' ? '{' : ch === ']' ? '[' : '(', i);
      i++;
    } else if (WORD_START.test(ch)) {
      let j = i + 1;
      while (j < end && WORD_PART.test(text[j]!)) j++;
      lineTokens.push({ kind: 'word', text: text.slice(i, j) });
      i = j;
    } else {
      if (ch.trim() !== '') lineTokens.push({ kind: 'punctuation', text: ch });
      i++;
    }
  }
  return { frames, inComment: false, inString: false, stringText: '', beforeString: '', statement: text.slice(statementStart, end), inInterpolation: false };
}

function frameHeader(tokens: readonly Token[]): Pick<Frame, 'keyword' | 'name'> {
  const [first, second] = tokens;
  if (first === undefined) return { keyword: undefined, name: undefined };
  if (first.kind === 'word' && second?.text === ':') return { keyword: 'field', name: first.text };
  return { keyword: first.kind === 'word' ? first.text : undefined, name: second !== undefined && second.kind !== 'punctuation' ? second.text : undefined };
}

function comment(frames: readonly Frame[]): CursorContext {
  return { frames, inComment: true, inString: false, stringText: '', beforeString: '', statement: '', inInterpolation: false };
}

/**
 * The cursor is inside the string opened at `quote`: either in its text, or inside one of
 * its `{…}` interpolations, which is an expression like any other.
 */
function inString(text: string, quote: number, end: number, frames: readonly Frame[], beforeString: string): CursorContext {
  const content = text.slice(quote + 1, end);
  let depth = 0;
  let interpolationStart = -1;
  for (let k = 0; k < content.length; k++) {
    const ch = content[k];
    if (depth === 0 && ch === '{' && content[k + 1] === '{') k++;
    else if (depth === 0 && ch === '}' && content[k + 1] === '}') k++;
    else if (ch === '{') {
      if (depth === 0) interpolationStart = k + 1;
      depth++;
    } else if (ch === '}' && depth > 0) depth--;
  }
  if (depth > 0) {
    return { frames, inComment: false, inString: false, stringText: '', beforeString: '', statement: content.slice(interpolationStart), inInterpolation: true };
  }
  return { frames, inComment: false, inString: true, stringText: content, beforeString, statement: beforeString, inInterpolation: false };
}

/** The offset after a string's closing quote, or the end of its line (strings end there). */
function stringEnd(text: string, open: number, quote: string): { close: number; closed: boolean } {
  let k = open + 1;
  while (k < text.length) {
    const ch = text[k];
    if (ch === '\n' || ch === '\r') return { close: k, closed: false };
    if (ch === '\\' && text[k + 1] === quote) {
      k += 2;
      continue;
    }
    if (ch === quote) return { close: k + 1, closed: true };
    k++;
  }
  return { close: k, closed: false };
}

function findLineEnd(text: string, from: number): number {
  let k = from;
  while (k < text.length && text[k] !== '\n' && text[k] !== '\r') k++;
  return k;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let k = items.length - 1; k >= 0; k--) if (test(items[k]!)) return k;
  return -1;
}
