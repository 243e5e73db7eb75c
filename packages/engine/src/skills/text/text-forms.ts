/**
 * The forms in which a skill's text is checked, and where in the original a check found what
 * it looked for. Each check reads a text as written, as a reader sees it (read-text.ts), and
 * compacted: the reader's form with the punctuation inside a word removed (`lot.tery`,
 * `lot-tery`) and letters spaced out one by one joined (`l o t t e r y`). A pattern is
 * found when it matches any of the three, so a check is never weaker than on the text alone.
 */
import { CONFUSABLE_PROTOTYPES } from './confusable-prototypes.js';
import { readText, type ReadText } from './read-text.js';

export interface TextForms {
  readonly original: ReadText;
  readonly read: ReadText;
  readonly compact: ReadText;
  readonly compactAddress: ReadText;
  readonly spaced: ReadText;
}

/** What a check found: the excerpt in the form it matched, and where it is in the original. */
export interface TextMatch {
  readonly excerpt: string;
  /** UTF-16 offsets into the original text: `text.slice(start, end)` is what the reader saw. */
  readonly start: number;
  readonly end: number;
}

export function textForms(original: string): TextForms {
  const read = readText(original, CONFUSABLE_PROTOTYPES);
  return { original: asWritten(original), read, compact: compacted(read), compactAddress: compacted(read, "'.@"), spaced: spacedOut(read) };
}

/** The first match of `pattern` in any form of the text, or null. */
export function findPattern(pattern: RegExp, forms: TextForms): TextMatch | null {
  for (const form of [forms.original, forms.read, forms.compact, forms.compactAddress, forms.spaced]) {
    pattern.lastIndex = 0;
    const found = pattern.exec(form.text);
    pattern.lastIndex = 0;
    if (found !== null) return matchAt(form, found.index, found.index + found[0].length);
  }
  return null;
}

/**
 * The match of `form.text.slice(from, to)`, placed in the original: from the first to the last
 * original character it came from (text shown reversed came from them in the other order).
 */
export function matchAt(form: ReadText, from: number, to: number): TextMatch {
  const starts = form.start.slice(from, Math.max(to, from + 1));
  const ends = form.end.slice(from, Math.max(to, from + 1));
  return { excerpt: form.text.slice(from, to), start: Math.min(...starts), end: Math.max(...ends) };
}

function asWritten(text: string): ReadText {
  const offsets = Array.from({ length: text.length }, (_, i) => i);
  return { text, start: offsets, end: offsets.map((i) => i + 1) };
}

/**
 * Drops a character between two word characters, unless it is a space or one of `keep`, and
 * the separators between three or more single word characters in a row (`r a n k e d`,
 * `r.a.n.k.e.d`). Like spacedOut, it stands alone: the sandbox folds a skill's invariants with
 * it too (selection-extension.ts).
 */
export function compacted(form: ReadText, keep = "'"): ReadText {
  const WORD = /[\p{L}\p{N}]/u;
  const kept: number[] = [];
  const chars = form.text;
  const isWord = (i: number): boolean => i >= 0 && i < chars.length && WORD.test(chars[i]!);
  // Single word characters, each one separator from the next: `x.y.z`, `x y z`.
  const single = (i: number): boolean => isWord(i) && !isWord(i - 1) && !isWord(i + 1);
  const spelled = new Set<number>();
  for (let i = 0; i < chars.length; i++) {
    if (!single(i)) continue;
    // One separator throughout, and not one that is kept: `i'd r.ecommend` is no spelling.
    const separator = chars[i + 1];
    let last = i;
    while (separator !== undefined && !keep.includes(separator) && chars[last + 1] === separator && single(last + 2)) last += 2;
    if (last - i >= 4) for (let separator = i + 1; separator < last; separator += 2) spelled.add(separator);
    i = last;
  }
  for (let i = 0; i < chars.length; i++) {
    const inWord = chars[i] !== ' ' && !keep.includes(chars[i]!) && !isWord(i) && isWord(i - 1) && isWord(i + 1);
    if (!inWord && !spelled.has(i)) kept.push(i);
  }
  return { text: kept.map((i) => chars[i]).join(''), start: kept.map((i) => form.start[i]!), end: kept.map((i) => form.end[i]!) };
}

/** Every character but a word character or an apostrophe read as a space, runs as one. */
export function spacedOut(form: ReadText): ReadText {
  const WORD = /[\p{L}\p{N}]/u;
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < form.text.length; i++) {
    const c = WORD.test(form.text[i]!) || form.text[i] === "'" ? form.text[i]! : ' ';
    if (c === ' ' && text.endsWith(' ')) {
      end[end.length - 1] = form.end[i]!;
      continue;
    }
    text += c;
    start.push(form.start[i]!);
    end.push(form.end[i]!);
  }
  return { text, start, end };
}
