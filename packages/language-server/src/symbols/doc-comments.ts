/**
 * The comment that documents a declaration, taken from the source text (the AST keeps no
 * comments): the `//` lines (or one `/* … *\/` block) directly above the line it starts on,
 * and a `//` comment after it on its last line, as in
 *
 * ```adec
 * // Imaging, surgery and infusions always need prior authorization.
 * computed needs_prior_authorization: bool = …
 * supplied full_time_student: bool?   // only asked for adult children
 * ```
 *
 * A blank line between a comment and the declaration detaches the comment.
 */
import type { Span } from '@adec/diagnostics';

export function docComment(text: string, declaration: Span): string | undefined {
  const parts = [...leadingComment(text, declaration.offset), trailingComment(text, declaration.endOffset)];
  const doc = parts.filter((p) => p !== undefined && p !== '').join('\n');
  return doc === '' ? undefined : doc;
}

function lineStartOf(text: string, offset: number): number {
  let i = Math.min(offset, text.length);
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** The lines above `offset`'s line, nearest last, while they are comment lines. */
function leadingComment(text: string, offset: number): string[] {
  const start = lineStartOf(text, offset);
  if (text.slice(start, offset).trim() !== '') return []; // something else precedes it on its line
  const lines: string[] = [];
  let end = start;
  while (end > 0) {
    const previousEnd = text[end - 1] === '\n' && text[end - 2] === '\r' ? end - 2 : end - 1;
    const previousStart = lineStartOf(text, previousEnd);
    const line = text.slice(previousStart, previousEnd).trim();
    if (line.startsWith('//')) {
      lines.unshift(line.replace(/^\/\/\s?/, ''));
    } else if (line.endsWith('*/') && lines.length === 0) {
      const open = text.lastIndexOf('/*', previousEnd);
      if (open < 0) break;
      const block = text.slice(open + 2, previousEnd).replace(/\*\/\s*$/, '');
      return [block.split(/\r?\n|\r/).map((l) => l.trim().replace(/^\*\s?/, '')).join('\n').trim()];
    } else {
      break;
    }
    end = previousStart;
  }
  return lines.length === 0 ? [] : [lines.join('\n')];
}

function trailingComment(text: string, endOffset: number): string | undefined {
  const match = /^[ \t]*\/\/[ \t]?([^\r\n]*)/.exec(text.slice(endOffset, endOffset + 500));
  return match?.[1]?.trim();
}
