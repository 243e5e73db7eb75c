/**
 * Finding a protected term (a rival candidate's title or id, a competitor's name) in a skill's
 * text, whatever separates or disguises its words. Both are read as a reader sees them
 * (read-text.ts) and reduced to their letters and digits; the term is found where a run of
 * whole words of the text spells it: "Quiet hour" is in `quiet-hour`, `QUIET\nHOUR`,
 * `Qu.iet  hour`, `quiethour` and `Qu\u200Biet h\u043Eur`, and an id `quiet_hour_1` in
 * "quiet hour 1". A term is not found inside a longer word ("rest" is not in "interesting"),
 * nor across the end of a sentence ("… quiet. Hour by hour …").
 */
import { CONFUSABLE_PROTOTYPES } from './confusable-prototypes.js';
import { readText } from './read-text.js';
import { matchAt, type TextForms, type TextMatch } from './text-forms.js';

/** A term's letters and digits in the reader's form: what must be spelled by whole words. */
export function termLetters(term: string): string {
  return Array.from(readText(splitWords(term), CONFUSABLE_PROTOTYPES).text).filter((c) => WORD.test(c)).join('');
}

/** Where whole words of the text spell `letters` (see termLetters), every place it occurs. */
export function findTerm(letters: string, forms: TextForms): TextMatch[] {
  if (letters === '') return [];
  const words = spellingOf(forms);
  const found: TextMatch[] = [];
  for (let at = words.letters.indexOf(letters); at !== -1; at = words.letters.indexOf(letters, at + 1)) {
    const first = words.wordStartingAt.get(at);
    const last = words.wordEndingAt.get(at + letters.length);
    if (first === undefined || last === undefined || words.sentenceBreakBetween(first, last)) continue;
    found.push(matchAt(forms.read, words.position[at]!, words.position[at + letters.length - 1]! + 1));
  }
  return found;
}

const WORD = /[\p{L}\p{N}]/u;
/** A separator that ends a sentence or a clause: a stop, comma or colon followed by a space. */
const SENTENCE_BREAK = /[.,;:!?]\s/;

/** `morningRun` → `morning Run`, so an id in camel case is also found as its words. */
function splitWords(term: string): string {
  return term.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
}

interface Spelling {
  /** The text's letters and digits, every separator left out. */
  readonly letters: string;
  /** For each of `letters`: its index in the text. */
  readonly position: readonly number[];
  /** Offset in `letters` → index of the word starting (or ending) there. */
  readonly wordStartingAt: ReadonlyMap<number, number>;
  readonly wordEndingAt: ReadonlyMap<number, number>;
  sentenceBreakBetween(first: number, last: number): boolean;
}

/** A text's spelling, made once however many terms are looked for in it. */
const spellings = new WeakMap<TextForms, Spelling>();
function spellingOf(forms: TextForms): Spelling {
  let known = spellings.get(forms);
  if (known === undefined) spellings.set(forms, (known = spelling(forms.read.text)));
  return known;
}

function spelling(text: string): Spelling {
  let letters = '';
  const position: number[] = [];
  const wordStartingAt = new Map<number, number>();
  const wordEndingAt = new Map<number, number>();
  /** The separator before each word (empty for the first). */
  const separators: string[] = [];
  let separator = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!WORD.test(c)) {
      separator += c;
      continue;
    }
    if (i === 0 || !WORD.test(text[i - 1]!)) {
      wordStartingAt.set(letters.length, separators.length);
      separators.push(separator);
      separator = '';
    }
    letters += c;
    position.push(i);
    if (i + 1 === text.length || !WORD.test(text[i + 1]!)) wordEndingAt.set(letters.length, separators.length - 1);
  }
  return {
    letters,
    position,
    wordStartingAt,
    wordEndingAt,
    sentenceBreakBetween: (first, last) => separators.slice(first + 1, last + 1).some((between) => SENTENCE_BREAK.test(between)),
  };
}
