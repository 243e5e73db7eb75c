/**
 * The look-alike table of the reader's form (read-text.ts): each non-ASCII character that
 * Unicode's confusables data (UTS #39 `confusables.txt`, as the maintained `unhomoglyph`
 * package ships it) maps to printable ASCII, with that ASCII. Characters whose prototype is not
 * ASCII stay as they are: the form folds disguises of Latin text, it does not transliterate.
 */
import { createRequire } from 'node:module';
import type { ConfusablePrototypes } from './read-text.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

function asciiPrototypes(): ConfusablePrototypes {
  const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;
  const table: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [character, prototype] of Object.entries(confusables)) {
    if (character.codePointAt(0)! >= 0x80 && PRINTABLE_ASCII.test(prototype)) table[character] = prototype;
  }
  return Object.freeze(table);
}

export const CONFUSABLE_PROTOTYPES: ConfusablePrototypes = asciiPrototypes();
