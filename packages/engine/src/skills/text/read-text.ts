/**
 * Text as a reader sees it: the one canonical form in which every text check of the Skill
 * Execution Contract compares a skill's output with what it protects (docs/skill-text.md).
 * A model that disguises a word with characters that look alike or are not seen at all writes,
 * in this form, the word it disguised:
 *
 *   invisible      default-ignorable and format characters (zero-width spaces and joiners,
 *                  bidi controls, the soft hyphen, variation selectors) and control characters
 *                  are removed;
 *   compatibility  each character is decomposed (NFKD: full-width `＠` is `@`, `ﬁ` is `fi`,
 *                  mathematical bold letters are letters);
 *   accents        combining marks are removed (`é` is `e`, and so is `e` + U+0301);
 *   look-alikes    a non-ASCII character that Unicode's confusables data (UTS #39, as the
 *                  `unhomoglyph` package ships it) maps to ASCII becomes that ASCII (Cyrillic
 *                  `а`, Greek `ο`, Cherokee `Ꭺ`);
 *   spacing        every run of white space, line breaks included, is one space; every dash
 *                  and hyphen is `-`;
 *   case           lower case;
 *   order          a run after a right-to-left override (U+202E, up to its pop U+202C or the
 *                  line's end) is read in the order it is shown, reversed.
 *
 * ASCII is never re-mapped, so digits stay digits and a pattern's classes keep their meaning
 * (`\d+%` still reads a percentage); digits written for letters (`l0ttery`) are out of scope.
 *
 * This function runs in two places, the host and the module's sandbox (where a skill's
 * invariants fold their text with it: see selection-extension.ts), so it is written to stand
 * alone: it reads nothing outside its parameters and creates its own regular expressions.
 * Every UTF-16 unit of the result carries the offsets, in the original, of the character it
 * came from, so a match is reported where the reader saw it.
 */
export interface ReadText {
  readonly text: string;
  /** For each UTF-16 unit of `text`: the offset in the original of the character it came from. */
  readonly start: readonly number[];
  /** ... and the offset just past that character. */
  readonly end: readonly number[];
}

/** Non-ASCII code point → its ASCII look-alike, keyed by the character itself. */
export type ConfusablePrototypes = Readonly<Record<string, string>>;

export function readText(original: string, prototypes: ConfusablePrototypes): ReadText {
  const invisible = /^[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]$/u;
  const space = /^[\p{White_Space}]$/u;
  const dash = /^[\p{Pd}\u2212\u2043\uFE63\uFF0D]$/u;
  const mark = /\p{M}/gu;
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  const emit = (out: string, from: number, to: number): void => {
    for (let i = 0; i < out.length; i++) {
      start.push(from);
      end.push(to);
    }
    text += out;
  };
  for (const [character, from, to] of shownOrder(original)) {
    if (space.test(character)) {
      // A run of spaces is one: the first one stands for it, reaching to the run's end.
      if (text.endsWith(' ')) end[end.length - 1] = Math.max(end[end.length - 1]!, to);
      else emit(' ', from, to);
      continue;
    }
    if (invisible.test(character)) continue;
    for (const part of character.normalize('NFKD').replace(mark, '')) {
      if (space.test(part)) {
        if (!text.endsWith(' ')) emit(' ', from, to);
        continue;
      }
      if (dash.test(part)) {
        emit('-', from, to);
        continue;
      }
      // Looked up in lower case first: UTS #39 gives an upper-case I-like letter (Greek `Ι`,
      // Cyrillic `І`) the prototype `l`, but a reader sees `I`, as its lower case `ι` says.
      const prototype = part.charCodeAt(0) < 0x80 ? part : (prototypes[part.toLowerCase()] ?? prototypes[part] ?? part);
      emit(prototype.toLowerCase(), from, to);
    }
  }
  return { text, start, end };

  /** The characters of `value` with their offsets, in the order a reader is shown them. */
  function shownOrder(value: string): [string, number, number][] {
    const shown: [string, number, number][] = [];
    let overridden: [string, number, number][] | null = null;
    let offset = 0;
    for (const character of value) {
      const entry: [string, number, number] = [character, offset, offset + character.length];
      offset += character.length;
      if (character === '\u202E') overridden ??= [];
      else if (overridden !== null && (character === '\u202C' || character === '\n')) {
        shown.push(...overridden.reverse(), entry);
        overridden = null;
      } else (overridden ?? shown).push(entry);
    }
    if (overridden !== null) shown.push(...overridden.reverse());
    return shown;
  }
}
