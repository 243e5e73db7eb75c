/**
 * The reader's form of text (packages/engine/src/skills/text/read-text.ts, docs/skill-text.md):
 * what each disguise becomes, where each character of the form came from, and, over random
 * Unicode text, that it never throws, places every character inside the original, and is the
 * same when read twice.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONFUSABLE_PROTOTYPES } from '../src/skills/text/confusable-prototypes.js';
import { readText } from '../src/skills/text/read-text.js';
import { findPattern, textForms } from '../src/skills/text/text-forms.js';
import { findTerm, termLetters } from '../src/skills/text/protected-terms.js';

const read = (text: string) => readText(text, CONFUSABLE_PROTOTYPES).text;

describe('the reader\'s form', () => {
  test.each([
    ['Quiet\u200Bhour', 'quiethour'],
    ['Qu\u0456et h\u043Eur', 'quiet hour'],
    ['\uFF31\uFF55\uFF49\uFF45\uFF54\u3000hour', 'quiet hour'],
    ['Quiet\u00A0\u00A0hour', 'quiet hour'],
    ['Quie\u0301t\r\n\thour', 'quiet hour'],
    ['Qui\u00E9t hour', 'quiet hour'],
    ['\u202Eruoh teiuQ\u202C!', 'quiet hour!'],
    ['\u{1D410}uiet', 'quiet'],
    ['\u0399\'d recommend', "i'd recommend"],
    ['ann\uFF20example\uFF0Eorg', 'ann@example.org'],
    ['555\u2011123\u20134567', '555-123-4567'],
    ['ﬁne 50%', 'fine 50%'],
    ['so\u00ADft', 'soft'],
  ])('%j reads as %j', (written, expected) => {
    expect(read(written)).toBe(expected);
  });

  test('a match is placed on the characters the reader saw', () => {
    const written = 'Win the l\u043Ett\u200Bery today';
    const match = findPattern(/lottery/, textForms(written))!;
    expect(match.excerpt).toBe('lottery');
    expect(written.slice(match.start, match.end)).toBe('l\u043Ett\u200Bery');
  });

  test('a term is found as whole words in any separation, never inside a word or across a sentence', () => {
    const letters = termLetters('Quiet hour');
    expect(termLetters('stretchBreak')).toBe(termLetters('Stretch break'));
    for (const text of ['a quiet-hour', 'QUIET\nHOUR', 'qu.iet  hour', 'quiethour', 'Q u i e t hour']) expect(findTerm(letters, textForms(text))).toHaveLength(1);
    for (const text of ['the disquiet hours', 'keep it quiet. Hour by hour', 'a quieter hour']) expect(findTerm(letters, textForms(text))).toEqual([]);
  });

  test('never throws on any text, places every character inside the original, and reading twice changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (written) => {
        const form = readText(written, CONFUSABLE_PROTOTYPES);
        expect(form.start).toHaveLength(form.text.length);
        expect(form.end).toHaveLength(form.text.length);
        form.start.forEach((start, i) => {
          expect(start).toBeGreaterThanOrEqual(0);
          expect(form.end[i]!).toBeGreaterThan(start);
          expect(form.end[i]!).toBeLessThanOrEqual(written.length);
        });
        if (!written.includes('\u202E')) expect(read(form.text)).toBe(form.text);
        for (const pattern of [/x/, /\d+%/]) findPattern(pattern, textForms(written));
      }),
      { numRuns: 2_000 },
    );
  });
});
