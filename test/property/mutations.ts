/**
 * Random edits of real worlds: delete, duplicate or swap pieces, insert tokens and
 * characters (unbalanced braces and quotes, unicode), truncate. One file of the world is
 * edited; the others stay as they are, as when an author is half-way through a change.
 */
import fc from 'fast-check';
import type { WorldSources } from '@adec/compiler';
import { VOCABULARY } from './vocabulary.js';

type Edit =
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'swapTokens'; readonly first: number; readonly second: number }
  | { readonly kind: 'truncate'; readonly at: number };

const INSERTED_CHARACTERS = ['{', '}', '"', "'", '(', ')', '[', ']', '\n', ':', ',', '.', '?', '|', 'é', '😀', '\u200b', '\\', '/*', '*/', '//', '{{', '}}'];

const position = fc.nat({ max: 1_000_000 });

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.constantFrom(...VOCABULARY).map((t) => ` ${t} `) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.constantFrom(...INSERTED_CHARACTERS) }),
  fc.record({ kind: fc.constant('swapTokens' as const), first: position, second: position }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
);

export function applyEdit(text: string, e: Edit): string {
  const at = (n: number) => (text.length === 0 ? 0 : n % (text.length + 1));
  switch (e.kind) {
    case 'delete':
      return text.slice(0, at(e.at)) + text.slice(at(e.at) + e.length);
    case 'duplicate': {
      const start = at(e.at);
      return text.slice(0, start + e.length) + text.slice(start, start + e.length) + text.slice(start + e.length);
    }
    case 'insert':
      return text.slice(0, at(e.at)) + e.text + text.slice(at(e.at));
    case 'swapTokens': {
      const parts = text.split(/(\s+)/);
      const tokens = parts.flatMap((part, index) => (/^\s*$/.test(part) ? [] : [index]));
      if (tokens.length < 2) return text;
      const i = tokens[e.first % tokens.length]!;
      const j = tokens[e.second % tokens.length]!;
      [parts[i], parts[j]] = [parts[j]!, parts[i]!];
      return parts.join('');
    }
    case 'truncate':
      return text.slice(0, at(e.at));
  }
}

/** A world from `corpus` with one of its files edited one to five times. */
export function mutatedWorld(corpus: readonly WorldSources[]): fc.Arbitrary<WorldSources> {
  if (corpus.length === 0) throw new Error('mutation corpus is empty');
  return fc
    .record({
      world: fc.constantFrom(...corpus),
      file: fc.nat(),
      edits: fc.array(edit, { minLength: 1, maxLength: 5 }),
    })
    .map(({ world, file, edits }) => {
      const index = file % world.files.length;
      return {
        root: world.root,
        files: world.files.map((f, i) => (i === index ? { path: f.path, text: edits.reduce(applyEdit, f.text) } : f)),
      };
    });
}
