/**
 * Hover: what the name under the cursor is — its declaration in the language's own syntax
 * (with its type), a line saying what kind of name it is and where it belongs, and the
 * comment that documents it.
 */
import type { Hover } from 'vscode-languageserver';
import type { WorldIndex } from '../symbols/world-index.js';
import { spanRange } from './positions.js';

/** Several declarations answer for one name at most in a scenario's `action.x`; a few are enough. */
const MAX_TARGETS = 4;

export function hover(index: WorldIndex, file: string, offset: number): Hover | null {
  const occurrence = index.occurrenceAt(file, offset);
  if (occurrence === undefined) return null;
  const sections = occurrence.targets.slice(0, MAX_TARGETS).map((symbol) => {
    const doc = index.docOf(symbol);
    return ['```adec', symbol.signature, '```', symbol.detail, ...(doc === undefined ? [] : ['', doc])].join('\n');
  });
  return { contents: { kind: 'markdown', value: sections.join('\n\n---\n\n') }, range: spanRange(occurrence.span) };
}
