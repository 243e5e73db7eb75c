/**
 * A range of source text. Lines and columns are 1-based, as editors show them;
 * `end` is exclusive. `offset`/`endOffset` are 0-based character offsets into the file,
 * kept so the renderer and the parser never have to recount lines.
 */
export interface Span {
  readonly file: string;
  readonly offset: number;
  readonly endOffset: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** The smallest span covering both `a` and `b` (which must be in the same file). */
export function joinSpans(a: Span, b: Span): Span {
  const first = a.offset <= b.offset ? a : b;
  const last = a.endOffset >= b.endOffset ? a : b;
  return {
    file: a.file,
    offset: first.offset,
    line: first.line,
    column: first.column,
    endOffset: last.endOffset,
    endLine: last.endLine,
    endColumn: last.endColumn,
  };
}

/** Orders spans by file, then position: the order diagnostics are reported in. */
export function compareSpans(a: Span, b: Span): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.offset - b.offset || a.endOffset - b.endOffset;
}
