/**
 * Trivia: what lies between two tokens. In a file that lexes without errors that is only
 * whitespace, `// line` comments and `/* block *\/` comments (the lexer skips them), so the
 * formatter reads them back from the text between token offsets rather than from the lexer.
 */

export interface Comment {
  /**
   * As written, `//` or `/*` included; a line comment without its line break and without the
   * spaces and tabs that ended its line (whitespace, which the formatter may move or drop).
   */
  readonly text: string;
  readonly block: boolean;
  /** Its offset in the file. */
  readonly offset: number;
  /** Line breaks between the previous token or comment (or the start of the file) and this comment. */
  readonly newlinesBefore: number;
  /** Its column in the original line, less that line's indentation: where a trailing comment stood. */
  readonly relativeColumn: number;
}

export interface Gap {
  readonly comments: readonly Comment[];
  /** Line breaks between the last comment (or the previous token) and the next token or the end of the file. */
  readonly newlinesAfter: number;
}

const WHITESPACE = /[ \t\f\v\u00a0\ufeff]/;

/** The trivia of `text` between `start` and `end`, which must hold only whitespace and comments. */
export function scanGap(text: string, start: number, end: number): Gap {
  const comments: Comment[] = [];
  let newlines = 0;
  let i = start;
  while (i < end) {
    const ch = text[i]!;
    if (ch === '\n') {
      newlines += 1;
      i += 1;
    } else if (ch === '\r') {
      newlines += 1;
      i += text[i + 1] === '\n' ? 2 : 1;
    } else if (WHITESPACE.test(ch)) {
      i += 1;
    } else if (text.startsWith('//', i)) {
      let stop = i;
      while (stop < end && text[stop] !== '\n' && text[stop] !== '\r') stop += 1;
      let textEnd = stop;
      while (textEnd > i + 2 && (text[textEnd - 1] === ' ' || text[textEnd - 1] === '\t')) textEnd -= 1;
      comments.push(comment(text, i, textEnd, false, newlines));
      newlines = 0;
      i = stop;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > end) throw new Error(`unterminated comment at offset ${i}`);
      comments.push(comment(text, i, close + 2, true, newlines));
      newlines = 0;
      i = close + 2;
    } else {
      throw new Error(`unexpected text between tokens at offset ${i}: ${JSON.stringify(text.slice(i, i + 10))}`);
    }
  }
  return { comments, newlinesAfter: newlines };
}

function comment(text: string, start: number, end: number, block: boolean, newlinesBefore: number): Comment {
  let lineStart = start;
  while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart -= 1;
  let indent = lineStart;
  while (indent < start && (text[indent] === ' ' || text[indent] === '\t')) indent += 1;
  return { text: text.slice(start, end), block, offset: start, newlinesBefore, relativeColumn: start - indent };
}

/** Lines of the original text: which line an offset is on, and whether only indentation precedes it. */
export class OriginalLines {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) this.starts.push(i + 1);
    }
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Whether only spaces and tabs (or a byte-order mark) stand before `offset` on its line. */
  startsLine(offset: number): boolean {
    for (let i = this.starts[this.lineOf(offset)]!; i < offset; i++) {
      const ch = this.text[i];
      if (ch !== ' ' && ch !== '\t' && ch !== '\ufeff') return false;
    }
    return true;
  }
}
