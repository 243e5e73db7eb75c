/**
 * Lays the tokens and comments of a file out in lines: which token starts a line, how far each
 * line is indented, the spaces between pieces, the aligned columns and the blank lines. See
 * format-source.ts for the rules; this file applies them.
 */
import type { SourceToken } from '@adec/grammar';
import type { LayoutHints, TokenIndex } from './layout-hints.js';
import type { Gap, OriginalLines } from './trivia.js';

/** Lines longer than this are broken at the expression's top-level `and` / `or` (and after `=`). */
export const MAX_LINE_WIDTH = 120;

const INDENT = 2;

interface Piece {
  readonly text: string;
  readonly kind: 'token' | 'comment' | 'verbatim';
  /** The token's index (for a token piece). */
  readonly token?: number;
  /** Spaces before the piece; not used for the first piece of a line. */
  space: number;
  /** For a comment: its column in the original, relative to its line's indentation. */
  readonly relativeColumn?: number;
}

interface Line {
  readonly indent: number;
  readonly pieces: Piece[];
  readonly blankBefore: boolean;
  /** A piece holds a line break (a block comment or an invariant check over several lines). */
  multiline: boolean;
  /** Only comments so far, placed on a line of their own. */
  commentOnly: boolean;
}

export interface LayoutInput {
  readonly text: string;
  readonly tokens: readonly SourceToken[];
  /** `gaps[i]` is the trivia before token i; `gaps[tokens.length]` the trivia at the end. */
  readonly gaps: readonly Gap[];
  readonly index: TokenIndex;
  readonly hints: LayoutHints;
  readonly original: OriginalLines;
}

export interface Layout {
  readonly lines: readonly Line[];
  /** The line each token is on. */
  readonly lineOf: Int32Array;
}

const INLINE_OPENERS = new Set(['LParen', 'LBracket', 'LCurly']);
const INLINE_CLOSERS = new Set(['RParen', 'RBracket', 'RCurly']);
const NO_SPACE_BEFORE = new Set(['Comma', 'Colon', 'RParen', 'RBracket', 'Dot', 'DotDot', 'Question']);
const NO_SPACE_AFTER = new Set(['LParen', 'LBracket', 'Dot', 'DotDot']);
/** A line may break after these tokens, and before `|`, `then`, `else`. */
const BREAK_AFTER = new Set(['Comma', 'Assign', 'Pipe', 'Then', 'Else']);
const BREAK_BEFORE = new Set(['Pipe', 'Then', 'Else']);

/** Lays out the file; `forcedBreaks` are tokens that must start a line (long expressions). */
export function layOut(input: LayoutInput, forcedBreaks: ReadonlySet<number>): Layout {
  const builder = new LineBuilder(input, forcedBreaks);
  const layout = builder.run();
  align(layout, input.hints);
  return layout;
}

class LineBuilder {
  private readonly lines: Line[] = [];
  private current: Line | undefined;
  /** The current line ends in a line comment. */
  private closed = false;
  /** Statement blocks open. */
  private depth = 0;
  /** Inline brackets open: the opener and the indentation of its line. */
  private readonly inline: { readonly token: number; readonly indent: number }[] = [];
  private readonly lineOf: Int32Array;
  private previous = -1;

  constructor(
    private readonly input: LayoutInput,
    private readonly forcedBreaks: ReadonlySet<number>,
  ) {
    this.lineOf = new Int32Array(input.tokens.length).fill(-1);
  }

  run(): Layout {
    const { tokens, gaps, hints } = this.input;
    for (let t = 0; t < tokens.length; t++) {
      const placedOwnLine = this.comments(gaps[t]!, t);
      this.token(t, gaps[t]!, placedOwnLine);
      const last = hints.verbatim.get(t);
      if (last !== undefined) t = this.verbatim(t, last);
    }
    this.comments(gaps[tokens.length]!, tokens.length);
    return { lines: this.lines, lineOf: this.lineOf };
  }

  // ── Kinds of tokens ─────────────────────────────────────────────────────

  private type(t: number): string {
    return this.input.tokens[t]!.type;
  }

  private isInlineOpener(t: number): boolean {
    return INLINE_OPENERS.has(this.type(t)) && !this.input.hints.blockOpen.has(t);
  }

  private isInlineCloser(t: number): boolean {
    return INLINE_CLOSERS.has(this.type(t)) && !this.input.hints.blockClose.has(t);
  }

  private isCloser(t: number): boolean {
    return INLINE_CLOSERS.has(this.type(t));
  }

  // ── Indentation ─────────────────────────────────────────────────────────

  /** The indentation of a line that starts with token `t`. */
  private indentFor(t: number): number {
    const { hints, index } = this.input;
    if (hints.blockClose.has(t)) return INDENT * (this.depth - 1);
    if (hints.itemStart.has(t)) return INDENT * this.depth;
    const open = this.inline[this.inline.length - 1];
    if (open !== undefined) {
      if (this.isInlineCloser(t) && index.match[t] === open.token) return open.indent;
      return open.indent + INDENT;
    }
    return INDENT * this.depth + INDENT; // a continuation line of an item
  }

  /** The indentation of a comment on its own line before token `t` (a closer's comment is inside). */
  private commentIndent(t: number): number {
    if (t >= this.input.tokens.length) return 0;
    return this.isCloser(t) ? this.indentFor(t) + INDENT : this.indentFor(t);
  }

  // ── Lines ───────────────────────────────────────────────────────────────

  private newLine(indent: number, blank: boolean): Line {
    const previous = this.previous;
    // No blank line first in a block or bracket, nor at the start of the file.
    const afterOpener = previous >= 0 && this.lineOf[previous] === this.lines.length - 1 && INLINE_OPENERS.has(this.type(previous));
    const line: Line = {
      indent,
      pieces: [],
      blankBefore: blank && this.lines.length > 0 && !afterOpener,
      multiline: false,
      commentOnly: true,
    };
    this.lines.push(line);
    this.current = line;
    this.closed = false;
    return line;
  }

  /** Places the comments of a gap before token `t`; returns whether one was put on a line of its own. */
  private comments(gap: Gap, t: number): boolean {
    const topLevel = t < this.input.tokens.length && this.input.hints.topLevel.has(t) && this.previous >= 0;
    let ownLine = false;
    for (const comment of gap.comments) {
      let line = this.current;
      if (line === undefined || this.closed || comment.newlinesBefore > 0) {
        // A blank line separates top-level declarations, above the comments that lead one.
        line = this.newLine(this.commentIndent(t), comment.newlinesBefore >= 2 || (topLevel && !ownLine));
        ownLine = true;
      }
      line.pieces.push({ text: comment.text, kind: 'comment', space: 1, ...(this.sameLine(line, comment.offset) && { relativeColumn: comment.relativeColumn }) });
      if (/[\r\n]/.test(comment.text)) line.multiline = true;
      if (!comment.block) this.closed = true;
    }
    return ownLine;
  }

  /**
   * Whether a comment at `offset` that ends `line` was written on the line this one comes
   * from: the line starts with the token that started the comment's original line. Only
   * then does the comment keep its column.
   */
  private sameLine(line: Line, offset: number): boolean {
    const first = line.pieces[0];
    if (first?.kind !== 'token') return false;
    const start = this.input.tokens[first.token!]!.offset;
    const { original } = this.input;
    return original.startsLine(start) && original.lineOf(start) === original.lineOf(offset);
  }

  private startsLine(t: number, gap: Gap): boolean {
    const { hints, index } = this.input;
    const line = this.current;
    const previous = this.previous;
    if (line === undefined || this.closed) return true;
    if (previous >= 0 && hints.blockOpen.has(previous) && index.match[previous] === t && gap.comments.length === 0) return false; // `{}`
    const forced =
      hints.itemStart.has(t) ||
      hints.blockClose.has(t) ||
      this.forcedBreaks.has(t) ||
      (previous >= 0 && (hints.blockOpen.has(previous) || hints.blockClose.has(previous)));
    if (forced) {
      // `/* note */ rule x {`: the token stays after a comment that starts its line.
      return !(line.commentOnly && gap.newlinesAfter === 0 && gap.comments.length > 0 && !hints.blockClose.has(t));
    }
    return gap.newlinesAfter > 0 && previous >= 0 && this.mayBreak(previous, t);
  }

  /** Whether the author's line break between tokens `a` and `b` is kept. */
  private mayBreak(a: number, b: number): boolean {
    const { hints } = this.input;
    if (BREAK_AFTER.has(this.type(a)) || hints.operatorLast.has(a) || this.isInlineOpener(a)) return true;
    return BREAK_BEFORE.has(this.type(b)) || hints.operatorFirst.has(b) || this.isInlineCloser(b);
  }

  private spaceBetween(a: number, b: number): number {
    const { hints } = this.input;
    if (hints.glueAfter.has(a) || hints.glueBefore.has(b)) return 0;
    const typeA = this.type(a);
    const typeB = this.type(b);
    if (NO_SPACE_BEFORE.has(typeB) || NO_SPACE_AFTER.has(typeA)) return 0;
    if (typeA === 'LCurly' && typeB === 'RCurly') return 0;
    return 1;
  }

  private token(t: number, gap: Gap, placedOwnLine: boolean): void {
    const { hints, tokens } = this.input;
    let line = this.current;
    if (line === undefined || this.startsLine(t, gap)) {
      let blank = gap.newlinesAfter >= 2;
      if (hints.topLevel.has(t) && this.previous >= 0 && !placedOwnLine) blank = true;
      if (this.isCloser(t)) blank = false;
      line = this.newLine(this.indentFor(t), blank);
    }
    const before = line.pieces[line.pieces.length - 1];
    const space = before === undefined ? 0 : before.kind === 'token' ? this.spaceBetween(before.token!, t) : 1;
    line.pieces.push({ text: tokens[t]!.image, kind: 'token', token: t, space });
    line.commentOnly = false;
    this.lineOf[t] = this.lines.length - 1;
    this.previous = t;

    if (hints.blockOpen.has(t)) this.depth += 1;
    else if (hints.blockClose.has(t)) this.depth -= 1;
    else if (this.isInlineOpener(t)) this.inline.push({ token: t, indent: line.indent });
    else if (this.isInlineCloser(t)) this.inline.pop();
  }

  /**
   * An invariant's check, after its `:` at token `colon`, exactly as written up to token
   * `last` (comments included): the compiler records that text. Returns `last`.
   */
  private verbatim(colon: number, last: number): number {
    const { tokens, gaps, text } = this.input;
    const gap = gaps[colon + 1]!;
    const firstComment = gap.comments[0];
    const start = firstComment?.offset ?? tokens[colon + 1]!.offset;
    const breakBefore = (firstComment?.newlinesBefore ?? gap.newlinesAfter) > 0;
    const end = tokens[last]!.offset + tokens[last]!.image.length;
    const check = text.slice(start, end);
    const line = breakBefore ? this.newLine(INDENT * this.depth + INDENT, false) : this.current!;
    line.pieces.push({ text: check, kind: 'verbatim', space: 1 });
    line.commentOnly = false;
    if (/[\r\n]/.test(check)) line.multiline = true;
    for (let t = colon + 1; t <= last; t++) this.lineOf[t] = this.lines.length - 1;
    this.previous = last;
    return last;
  }
}

// ── Columns ─────────────────────────────────────────────────────────────────

/** The width of a piece's last line, and whether it holds a line break. */
function pieceWidth(piece: Piece): { readonly width: number; readonly broken: boolean } {
  const lastBreak = Math.max(piece.text.lastIndexOf('\n'), piece.text.lastIndexOf('\r'));
  return lastBreak < 0 ? { width: piece.text.length, broken: false } : { width: piece.text.length - lastBreak - 1, broken: true };
}

/** The column where piece `p` of `line` starts (0-based), with the spaces as they are. */
export function columnOf(line: Line, p: number): number {
  let column = line.indent;
  for (let i = 0; i < p; i++) {
    const piece = line.pieces[i]!;
    const { width, broken } = pieceWidth(piece);
    column = broken ? width : column + (i > 0 ? piece.space : 0) + width;
  }
  return column + (p > 0 ? line.pieces[p]!.space : 0);
}

/** The width of a line without its trailing comments. */
export function contentWidth(line: Line): number {
  let end = line.pieces.length;
  while (end > 0 && line.pieces[end - 1]!.kind === 'comment') end -= 1;
  if (end === 0) return 0;
  return columnOf(line, end - 1) + pieceWidth(line.pieces[end - 1]!).width;
}

/** Whether the item starting at token `item` (up to token `end`, by default the item's last) is on one line. */
export function singleLine(layout: Layout, hints: LayoutHints, item: number, end = hints.itemEnd.get(item) ?? item): boolean {
  const line = layout.lineOf[item]!;
  return line >= 0 && layout.lineOf[end] === line && !layout.lines[line]!.multiline;
}

function align(layout: Layout, hints: LayoutHints): void {
  for (const group of hints.groups) {
    const rows: { piece: Piece; natural: number; counts: boolean }[] = [];
    for (const { item, target } of group.entries) {
      const lineIndex = layout.lineOf[item]!;
      if (lineIndex < 0 || layout.lineOf[target] !== lineIndex) continue;
      const line = layout.lines[lineIndex]!;
      const p = line.pieces.findIndex((piece) => piece.token === target);
      if (p <= 0) continue;
      const piece = line.pieces[p]!;
      piece.space = 1;
      rows.push({ piece, natural: columnOf(line, p), counts: !group.fit || singleLine(layout, hints, item) });
    }
    const counted = rows.filter((row) => row.counts);
    if (counted.length === 0) continue;
    const column = Math.max(...counted.map((row) => row.natural));
    for (const row of rows) if (row.counts && row.natural <= column) row.piece.space = 1 + column - row.natural;
  }
}

// ── Text ────────────────────────────────────────────────────────────────────

export function render(layout: Layout, newline: string): string {
  const out: string[] = [];
  for (const line of layout.lines) {
    if (line.blankBefore) out.push('');
    let text = ' '.repeat(line.indent);
    let column = line.indent;
    line.pieces.forEach((piece, i) => {
      if (i > 0) {
        let space = piece.space;
        // A trailing comment keeps its column when it still fits (comments aligned by hand stay aligned).
        if (piece.kind === 'comment' && i === line.pieces.length - 1 && piece.relativeColumn !== undefined) {
          space = Math.max(1, line.indent + piece.relativeColumn - column);
        }
        text += ' '.repeat(space);
        column += space;
      }
      text += piece.text;
      const { width, broken } = pieceWidth(piece);
      column = broken ? width : column + width;
    });
    out.push(text);
  }
  return out.length === 0 ? '' : out.join(newline) + newline;
}
