import type { Span } from '@adec/diagnostics';

/**
 * Turns 0-based character offsets into spans with 1-based lines and columns. Tokens carry
 * offsets only; lines are computed on demand (binary search over line starts), which is also
 * how the inner expressions of `{…}` interpolations get correct file positions.
 */
export class LineMap {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 10 /* \n */) this.lineStarts.push(i + 1);
      else if (ch === 13 /* \r */ && text.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  /** The span of `[offset, endOffset)`. */
  span(offset: number, endOffset: number): Span {
    // Hot (every AST node has a span): no intermediate position objects.
    const starts = this.lineStarts;
    const line = this.lineIndex(offset);
    const endLine = endOffset === offset ? line : this.lineIndex(endOffset);
    return {
      file: this.file,
      offset,
      endOffset,
      line: line + 1,
      column: offset - starts[line]! + 1,
      endLine: endLine + 1,
      endColumn: endOffset - starts[endLine]! + 1,
    };
  }

  /** An empty span at `offset`: where something absent was expected. */
  point(offset: number): Span {
    return this.span(offset, offset);
  }

  /** The 0-based line of `offset` (binary search over line starts). */
  private lineIndex(offset: number): number {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
