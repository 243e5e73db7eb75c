/**
 * Sets of UTF-16 code units, as sorted disjoint inclusive ranges. Patterns are compiled
 * without the `u` flag (see translate-pattern.ts), so a "character" is one code unit.
 * Only what the backtracking analysis needs: build, union, complement, intersect, fold case.
 */
export type CharSet = readonly (readonly [number, number])[];

export const MAX_CODE_UNIT = 0xffff;

export const EMPTY_SET: CharSet = [];
export const ANY_CHAR: CharSet = [[0, MAX_CODE_UNIT]];

export function charRange(lo: number, hi: number): CharSet {
  return lo <= hi ? [[lo, hi]] : [];
}

export function singleChar(code: number): CharSet {
  return [[code, code]];
}

export function union(...sets: readonly CharSet[]): CharSet {
  const ranges = sets.flat().map(([lo, hi]) => [lo, hi] as [number, number]);
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

export function complement(set: CharSet): CharSet {
  const result: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of union(set)) {
    if (lo > next) result.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_UNIT) result.push([next, MAX_CODE_UNIT]);
  return result;
}

export function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aLo, aHi] = a[i]!;
    const [bLo, bHi] = b[j]!;
    if (aHi < bLo) i++;
    else if (bHi < aLo) j++;
    else return true;
  }
  return false;
}

export function isEmpty(set: CharSet): boolean {
  return set.length === 0;
}

/**
 * Adds the other-case counterparts of ASCII letters (the `i` flag). Non-ASCII case pairs
 * are not folded: the sets only decide whether two atoms can overlap, and patterns in SEC
 * contracts are ASCII words.
 */
export function foldAsciiCase(set: CharSet): CharSet {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    const upper = overlap(lo, hi, 0x41, 0x5a);
    if (upper) extra.push([upper[0] + 32, upper[1] + 32]);
    const lower = overlap(lo, hi, 0x61, 0x7a);
    if (lower) extra.push([lower[0] - 32, lower[1] - 32]);
  }
  return extra.length === 0 ? set : union(set, extra);
}

function overlap(lo: number, hi: number, from: number, to: number): [number, number] | undefined {
  const start = Math.max(lo, from);
  const end = Math.min(hi, to);
  return start <= end ? [start, end] : undefined;
}

const code = (char: string): number => char.charCodeAt(0);

export const DIGITS: CharSet = charRange(code('0'), code('9'));
export const WORD_CHARS: CharSet = union(
  charRange(code('a'), code('z')),
  charRange(code('A'), code('Z')),
  DIGITS,
  singleChar(code('_')),
);
/** ECMAScript WhiteSpace and LineTerminator: what `\s` matches. */
export const WHITESPACE: CharSet = union(
  charRange(0x09, 0x0d),
  singleChar(0x20),
  singleChar(0xa0),
  singleChar(0x1680),
  charRange(0x2000, 0x200a),
  charRange(0x2028, 0x2029),
  singleChar(0x202f),
  singleChar(0x205f),
  singleChar(0x3000),
  singleChar(0xfeff),
);
export const LINE_TERMINATORS: CharSet = union(singleChar(0x0a), singleChar(0x0d), charRange(0x2028, 0x2029));
/** What `.` matches without the `s` flag. */
export const DOT: CharSet = complement(LINE_TERMINATORS);
