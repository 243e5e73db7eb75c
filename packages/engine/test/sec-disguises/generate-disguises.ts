/**
 * A generator of disguises: every way the Skill Execution Contract's text checks have been
 * defeated by one character (docs/skill-text.md), applied to every protected term and
 * prohibited phrase of the SEC lab world (packages/engine/test/worlds/sec-lab), alone and combined.
 * Each variant is a model reply that a reader would read as the term, and that must be caught
 * by the rule the term stands for.
 */

/** A disguise of a phrase; undefined where it does not apply (no space to replace, say). */
export interface Disguise {
  readonly name: string;
  apply(phrase: string): string | undefined;
}

const CYRILLIC: Readonly<Record<string, string>> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', i: 'і', s: 'ѕ', A: 'А', E: 'Е', O: 'О', P: 'Р', C: 'С', T: 'Т', H: 'Н', M: 'М', B: 'В', K: 'К' };
const GREEK: Readonly<Record<string, string>> = { o: 'ο', v: 'ν', i: 'ι', u: 'υ', A: 'Α', B: 'Β', E: 'Ε', I: 'Ι', K: 'Κ', M: 'Μ', N: 'Ν', O: 'Ο', T: 'Τ' };
const PRECOMPOSED: Readonly<Record<string, string>> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', n: 'ñ', c: 'ç' };

/** Inserts `mark` inside every word of three letters or more, after its first letter. */
function insideWords(mark: string): (phrase: string) => string | undefined {
  return (phrase) => changed(phrase, phrase.replace(/([A-Za-z])([A-Za-z]{2,})/g, `$1${mark}$2`));
}

function eachLetter(table: Readonly<Record<string, string>>, all: boolean): (phrase: string) => string | undefined {
  return (phrase) => {
    let done = false;
    return changed(
      phrase,
      Array.from(phrase)
        .map((c) => {
          if ((done && !all) || table[c] === undefined) return c;
          done = true;
          return table[c];
        })
        .join(''),
    );
  };
}

function spaces(by: string): (phrase: string) => string | undefined {
  return (phrase) => changed(phrase, phrase.replace(/ /g, by));
}

function changed(phrase: string, variant: string): string | undefined {
  return variant === phrase ? undefined : variant;
}

const fullWidth = (phrase: string) => changed(phrase, Array.from(phrase).map((c) => (c === ' ' ? '\u3000' : c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join(''));
const mathBold = (phrase: string) =>
  changed(
    phrase,
    Array.from(phrase).map((c) => (c >= 'a' && c <= 'z' ? String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 97) : c >= 'A' && c <= 'Z' ? String.fromCodePoint(0x1d400 + c.charCodeAt(0) - 65) : c)).join(''),
  );

/** The single disguises: each one character class that used to get past a check. */
export const DISGUISES: readonly Disguise[] = [
  { name: 'zero-width space', apply: insideWords('\u200B') },
  { name: 'zero-width joiner', apply: insideWords('\u200D') },
  { name: 'zero-width non-joiner', apply: insideWords('\u200C') },
  { name: 'word joiner', apply: insideWords('\u2060') },
  { name: 'byte order mark', apply: insideWords('\uFEFF') },
  { name: 'soft hyphen', apply: insideWords('\u00AD') },
  { name: 'left-to-right mark', apply: insideWords('\u200E') },
  { name: 'bidi embedding inside a word', apply: insideWords('\u202A\u202C') },
  { name: 'bidi override (shown reversed into place)', apply: (phrase) => `\u202E${Array.from(phrase).reverse().join('')}\u202C` },
  { name: 'Cyrillic homoglyph (one letter)', apply: eachLetter(CYRILLIC, false) },
  { name: 'Cyrillic homoglyphs (every letter)', apply: eachLetter(CYRILLIC, true) },
  { name: 'Greek homoglyphs', apply: eachLetter(GREEK, true) },
  { name: 'full-width', apply: fullWidth },
  { name: 'mathematical bold', apply: mathBold },
  { name: 'combining acute accent', apply: (phrase) => changed(phrase, phrase.replace(/([aeiou])/g, '$1\u0301')) },
  { name: 'precomposed accents', apply: eachLetter(PRECOMPOSED, true) },
  { name: 'upper case', apply: (phrase) => changed(phrase, phrase.toUpperCase()) },
  { name: 'title case', apply: (phrase) => changed(phrase, phrase.replace(/\b[a-z]/g, (c) => c.toUpperCase())) },
  { name: 'alternating case', apply: (phrase) => changed(phrase, Array.from(phrase).map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('')) },
  { name: 'non-breaking space', apply: spaces('\u00A0') },
  { name: 'narrow non-breaking space', apply: spaces('\u202F') },
  { name: 'ideographic space', apply: spaces('\u3000') },
  { name: 'doubled space', apply: spaces('  ') },
  { name: 'tab', apply: spaces('\t') },
  { name: 'line break', apply: spaces('\n') },
  { name: 'line break and indent', apply: spaces('\r\n    ') },
  { name: 'hyphen between words', apply: spaces('-') },
  { name: 'non-breaking hyphen between words', apply: spaces('\u2011') },
  { name: 'en dash between words', apply: spaces(' \u2013 ') },
  { name: 'dot inside a word', apply: insideWords('.') },
  { name: 'hyphen inside a word', apply: insideWords('-') },
  { name: 'asterisk inside a word', apply: insideWords('*') },
  { name: 'middle dot inside a word', apply: insideWords('\u00B7') },
  { name: 'letters spaced out', apply: (phrase) => (phrase.includes(' ') || !/^[A-Za-z]+$/.test(phrase) ? undefined : Array.from(phrase).join(' ')) },
];

const named = (name: string): Disguise => {
  const found = DISGUISES.find((disguise) => disguise.name === name);
  if (found === undefined) throw new Error(`no disguise ${name}`);
  return found;
};

/** Disguises applied one after the other, as an attacker would stack them. */
export const COMBINED_DISGUISES: readonly Disguise[] = [
  ['Cyrillic homoglyph (one letter)', 'zero-width space'],
  ['upper case', 'full-width'],
  ['combining acute accent', 'non-breaking space'],
  ['alternating case', 'dot inside a word'],
  ['Greek homoglyphs', 'hyphen between words'],
  ['zero-width joiner', 'line break'],
  ['Cyrillic homoglyphs (every letter)', 'bidi override (shown reversed into place)'],
  ['mathematical bold', 'doubled space'],
  ['soft hyphen', 'title case'],
  ['precomposed accents', 'upper case', 'narrow non-breaking space'],
  ['Cyrillic homoglyph (one letter)', 'asterisk inside a word', 'tab'],
  ['letters spaced out', 'upper case'],
].map((names) => ({
  name: names.join(' + '),
  apply: (phrase: string) => {
    let variant = phrase;
    for (const name of names) {
      const next = named(name).apply(variant);
      if (next === undefined) return undefined;
      variant = next;
    }
    return variant;
  },
}));

/** Every disguised spelling of `phrase`, with the disguise that made it. */
export function disguisesOf(phrase: string): { disguise: string; text: string }[] {
  return [...DISGUISES, ...COMBINED_DISGUISES].flatMap((disguise) => {
    const text = disguise.apply(phrase);
    return text === undefined ? [] : [{ disguise: disguise.name, text }];
  });
}
