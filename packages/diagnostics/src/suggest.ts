/**
 * "Did you mean" suggestions: the closest candidate by edit distance, if it is close
 * enough to be a plausible typo (at most a third of the word's length, minimum 1).
 * Candidates are only compared as strings (never looked up in an object), so a word such
 * as `constructor` or `__proto__` is just a word. A word longer than MAX_WORD_LENGTH gets no
 * suggestion: the distance costs the product of the lengths, and nobody mistypes a name that
 * long.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  return closeMatches(word, candidates)[0];
}

/**
 * Every candidate close enough to `word` to be a plausible typo of it, closest first (in the
 * order given among equally close ones): for a caller that can test which of them fits.
 */
export function closeMatches(word: string, candidates: Iterable<string>): string[] {
  if (word.length > MAX_WORD_LENGTH) return [];
  const limit = Math.max(1, Math.floor(word.length / 3));
  const matches: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    // The distance is at least the difference in length.
    if (candidate === word || Math.abs(candidate.length - word.length) > limit) continue;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    // A case-only difference (`green` for `GREEN`) is always a good suggestion.
    const effective = distance === 0 ? 0.5 : distance;
    if (effective <= limit) matches.push({ candidate, distance: effective });
  }
  // Array.prototype.sort is stable: equally close candidates keep their order.
  return matches.sort((a, b) => a.distance - b.distance).map((m) => m.candidate);
}

/** Words longer than this get no suggestion. */
export const MAX_WORD_LENGTH = 256;

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions (`chlid`). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j]!;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return at(a.length, b.length);
}
