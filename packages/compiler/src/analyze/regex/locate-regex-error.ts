/**
 * Where in a pattern JavaScript's syntax error is. `new RegExp` says what is wrong
 * (`unterminated group`) but not where, so a diagnostic would underline the whole string. For
 * the errors an author makes, one scan over the pattern (escapes and character classes read
 * as JavaScript reads them without the `u` flag) finds the place: the `(` never closed, the `)`
 * never opened, the `[` never closed, the quantifier with nothing to repeat, the `{n,m}` with
 * n > m, the class range that runs backwards, the `(?` that starts no known group. Any other
 * error, or one the scan cannot place, is left unplaced.
 */
import type { PatternPosition } from './translate-pattern.js';

/** A piece of the pattern the scan read: where it starts, how long it is, and what it is. */
interface Piece {
  readonly index: number;
  readonly length: number;
  readonly kind: 'open' | 'close' | 'class' | 'quantifier' | 'alternation' | 'atom';
  /** For a class: the index of its `]`, or -1 when it is never closed. */
  readonly end?: number;
}

const QUANTIFIER_BRACES = /^\{(\d+)(,(\d*))?\}/;
const GROUP_START = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/;

export function locateRegexError(pattern: string, problem: string): PatternPosition | undefined {
  const pieces = scan(pattern);
  const first = (test: (piece: Piece, at: number) => boolean) => pieces.find(test);
  const place = (piece: Piece | undefined) => (piece === undefined ? undefined : { index: piece.index, length: piece.length });
  switch (problem) {
    case 'unterminated group':
      return place(unclosedGroups(pieces).at(-1));
    case "unmatched ')'":
      return place(unopenedClose(pieces));
    case 'unterminated character class':
      return place(first((piece) => piece.kind === 'class' && piece.end === -1));
    case 'nothing to repeat':
      return place(first((piece, at) => piece.kind === 'quantifier' && !repeatable(pieces[at - 1])));
    case 'numbers out of order in {} quantifier':
      return place(first((piece) => piece.kind === 'quantifier' && bracesOutOfOrder(pattern.slice(piece.index, piece.index + piece.length))));
    case 'range out of order in character class':
      return backwardsRange(pattern, pieces);
    case 'invalid group':
      return place(first((piece) => piece.kind === 'open' && pattern.startsWith('(?', piece.index) && !GROUP_START.test(pattern.slice(piece.index))));
    default:
      return undefined;
  }
}

/** The pattern as a sequence of pieces, read as JavaScript reads it without the `u` flag. */
function scan(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  for (let pos = 0; pos < pattern.length; ) {
    const char = pattern[pos]!;
    if (char === '\\') {
      pieces.push({ index: pos, length: 2, kind: 'atom' });
      pos += 2;
    } else if (char === '[') {
      const end = classEnd(pattern, pos);
      pieces.push({ index: pos, length: 1, kind: 'class', end });
      pos = end === -1 ? pattern.length : end + 1;
    } else if (char === '(' || char === ')' || char === '|') {
      pieces.push({ index: pos, length: 1, kind: char === '(' ? 'open' : char === ')' ? 'close' : 'alternation' });
      pos++;
    } else if (char === '*' || char === '+' || char === '?') {
      // A `?` after a quantifier makes it lazy: part of that quantifier, not one of its own.
      const previous = pieces.at(-1);
      if (char === '?' && previous?.kind === 'quantifier' && previous.index + previous.length === pos) pieces[pieces.length - 1] = { ...previous, length: previous.length + 1 };
      else pieces.push({ index: pos, length: 1, kind: 'quantifier' });
      pos++;
    } else {
      const braces = char === '{' ? QUANTIFIER_BRACES.exec(pattern.slice(pos)) : null;
      // `{` that starts no quantifier is a literal brace without the `u` flag.
      pieces.push({ index: pos, length: braces?.[0].length ?? 1, kind: braces ? 'quantifier' : 'atom' });
      pos += braces?.[0].length ?? 1;
    }
  }
  return pieces;
}

/** The index of the `]` that closes the class opened at `open`, or -1. A `]` first in the class is a literal. */
function classEnd(pattern: string, open: number): number {
  let pos = open + 1;
  if (pattern[pos] === '^') pos++;
  for (; pos < pattern.length; pos++) {
    if (pattern[pos] === '\\') pos++;
    else if (pattern[pos] === ']') return pos;
  }
  return -1;
}

function unclosedGroups(pieces: readonly Piece[]): Piece[] {
  const open: Piece[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'open') open.push(piece);
    else if (piece.kind === 'close') open.pop();
  }
  return open;
}

function unopenedClose(pieces: readonly Piece[]): Piece | undefined {
  let depth = 0;
  for (const piece of pieces) {
    if (piece.kind === 'open') depth++;
    else if (piece.kind === 'close' && --depth < 0) return piece;
  }
  return undefined;
}

/** Whether a quantifier may follow `previous`: an atom, a class or a closed group, not the start of a group or an alternative. */
function repeatable(previous: Piece | undefined): boolean {
  return previous !== undefined && (previous.kind === 'atom' || previous.kind === 'class' || previous.kind === 'close');
}

function bracesOutOfOrder(quantifier: string): boolean {
  const braces = QUANTIFIER_BRACES.exec(quantifier);
  return braces?.[3] !== undefined && braces[3] !== '' && Number(braces[1]) > Number(braces[3]);
}

/** The first `x-y` with x after y inside a class, where both ends are plain characters. */
function backwardsRange(pattern: string, pieces: readonly Piece[]): PatternPosition | undefined {
  for (const piece of pieces) {
    if (piece.kind !== 'class' || piece.end === undefined || piece.end === -1) continue;
    for (let pos = piece.index + 1; pos + 2 < piece.end; pos++) {
      if (pattern[pos] === '\\') {
        pos++;
        continue;
      }
      if (pattern[pos + 1] === '-' && pattern[pos + 2] !== '\\' && pattern.charCodeAt(pos) > pattern.charCodeAt(pos + 2)) return { index: pos, length: 3 };
    }
  }
  return undefined;
}
