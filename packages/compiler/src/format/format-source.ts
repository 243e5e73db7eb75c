/**
 * `adec fmt`: the canonical layout of a `.adec` file.
 *
 * Design: the formatter moves whitespace only. It lays out the file's own token stream (the
 * tokens `parseSource` reads, from `sourceTokens`) and puts every comment back between the
 * two tokens it was written between; the AST is consulted only to know the structure (which
 * braces are blocks, where items start, which columns align, which `-` is unary). Since
 * whitespace never changes what a file means, the output is the same tokens in the same
 * order: the same AST (spans aside) and the same diagnostics, with every comment (less the
 * spaces that ended a line comment's line) and every literal exactly as written. The result
 * is checked: it must lex to the same tokens and hold the same comments, or nothing is
 * formatted (ADEC9001). A file with a syntax error is refused with the parser's diagnostics
 * and never touched. Printing from the AST instead would have to re-attach comments and
 * re-create literal spellings, which is where formatters lose comments; moving whitespace
 * cannot.
 *
 * The layout, as the example worlds are written:
 * * two spaces of indentation per block; one item per line in a block (a declaration, clause,
 *   attribute, field, setting or test member); `}` on a line of its own; an empty block `{}`;
 * * one blank line between top-level declarations (above the comments that lead one); inside
 *   blocks, the author's blank lines are kept (two or more become one), except right after
 *   `{` and right before `}`;
 * * the values of a block's clauses start in one column (`outcome      GREEN` /
 *   `applies_when is_child`, `org     "acme"`, `action  add_dependent`); in `context` blocks
 *   the names and then the types align, in field blocks the types, and objectives their
 *   `weight`. Names align only in items written on one line: a computed attribute whose
 *   expression continues on the next line keeps a single space after its name;
 * * one space around binary operators, `=`, `|` and after `,` and `:`; none inside `( )`,
 *   `[ ]`, around `.` and `..`, before `?`, `,` and `:`, in `list<T>`, `clamp(…)`,
 *   `int(0..120)` and after a unary `-`; `{ a: 1 }` inline records keep a space inside;
 * * line breaks inside an item are the author's, where they are allowed: after `,`, `=`, an
 *   opening bracket, a binary operator, `|`, `then`, `else`, and before a closing bracket, a
 *   binary operator, `|`, `then`, `else` (elsewhere the tokens are joined). A continuation line
 *   is indented two spaces past its item, or past the line of the bracket it is inside; a
 *   closing bracket that starts a line lines up with the line that opened it;
 * * an item written on one line that is longer than MAX_LINE_WIDTH (120) columns is broken:
 *   after the `=` of a computed attribute, default or objective, then, if still too long,
 *   before each operator of the expression's top-level `and` / `or` chain. An item the author
 *   has already broken is left as broken (so formatting twice changes nothing);
 * * comments: a comment that followed a token on its line stays there, at the column it had
 *   (relative to its line's indentation) when that still fits, else one space after the
 *   code; a comment on its own line stays on its own line, indented like the code after it;
 *   a line comment always ends its line, with no spaces or tabs after it;
 * * an invariant's check is kept exactly as written: the compiler records its text
 *   (`InvariantDecl.source`, in the bundle and in audit records), so changing a space there
 *   would change the module.
 * * line endings follow the file's first line break (`\n` or `\r\n`); a byte-order mark stays.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import { parseSource, sourceTokens, type SourceToken } from '@adec/grammar';
import { columnOf, contentWidth, layOut, MAX_LINE_WIDTH, render, singleLine, type Layout, type LayoutInput } from './layout.js';
import { layoutHints, TokenIndex } from './layout-hints.js';
import { OriginalLines, scanGap, type Gap } from './trivia.js';

export type FormatResult =
  | {
      readonly ok: true;
      /** The formatted text. */
      readonly text: string;
      /** Whether it differs from the input. */
      readonly changed: boolean;
    }
  | {
      readonly ok: false;
      /** Why the file was not formatted: its syntax diagnostics (or ADEC9001). */
      readonly diagnostics: readonly Diagnostic[];
    };

/**
 * Formats one file. `path` names it in diagnostics. Never throws; a file with a syntax error
 * is refused with the parser's diagnostics.
 */
export function formatSource(path: string, text: string): FormatResult {
  const parsed = parseSource(path, text);
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics: parsed.diagnostics };
  try {
    const formatted = format(text, parsed.file);
    const problem = difference(text, formatted);
    if (problem !== undefined) return internalError(path, problem);
    return { ok: true, text: formatted, changed: formatted !== text };
  } catch (error) {
    return internalError(path, error instanceof Error ? error.message : String(error));
  }
}

function format(text: string, file: ReturnType<typeof parseSource>['file']): string {
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const firstBreak = text.indexOf('\n');
  const newline = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n';

  const tokens = sourceTokens(text);
  const index = new TokenIndex(tokens);
  const gaps: Gap[] = [];
  for (let i = 0; i <= tokens.length; i++) {
    const start = i === 0 ? 0 : end(tokens[i - 1]!);
    gaps.push(scanGap(text, start, i === tokens.length ? text.length : tokens[i]!.offset));
  }
  const input: LayoutInput = { text, tokens, gaps, index, hints: layoutHints(file, index), original: new OriginalLines(text) };

  const first = layOut(input, new Set());
  const breaks = longLineBreaks(first, input);
  const layout = breaks.size === 0 ? first : layOut(input, breaks);
  return bom + render(layout, newline);
}

function end(token: SourceToken): number {
  return token.offset + token.image.length;
}

/**
 * Where to break items that are on one line longer than MAX_LINE_WIDTH: after the `=` before
 * their expression, and (when that is not enough) before each operator of the expression's
 * top-level `and` / `or` chain.
 */
function longLineBreaks(layout: Layout, input: LayoutInput): Set<number> {
  const breaks = new Set<number>();
  for (const candidate of input.hints.width) {
    if (!singleLine(layout, input.hints, candidate.item, candidate.end)) continue;
    const line = layout.lines[layout.lineOf[candidate.item]!]!;
    const width = contentWidth(line);
    if (width <= MAX_LINE_WIDTH) continue;
    if (candidate.assign !== undefined && candidate.assign + 1 < input.tokens.length) {
      const expression = candidate.assign + 1;
      breaks.add(expression);
      const start = line.pieces.findIndex((piece) => piece.token === expression);
      const startColumn = start < 0 ? 0 : columnOf(line, start);
      if (line.indent + 2 + (width - startColumn) <= MAX_LINE_WIDTH) continue;
    }
    for (const operator of candidate.chain) breaks.add(operator);
  }
  return breaks;
}

/**
 * Why `formatted` is not `original` with only whitespace moved, or undefined: the tokens and
 * the comments must be the same, in the same order.
 */
function difference(original: string, formatted: string): string | undefined {
  const before = sourceTokens(original);
  const after = sourceTokens(formatted);
  if (before.length !== after.length) return `the formatted text has ${after.length} tokens instead of ${before.length}`;
  for (let i = 0; i < before.length; i++) {
    if (before[i]!.image !== after[i]!.image || before[i]!.type !== after[i]!.type) {
      return `the formatted text has \`${after[i]!.image}\` where \`${before[i]!.image}\` was`;
    }
  }
  const commentsBefore = commentTexts(original, before);
  const commentsAfter = commentTexts(formatted, after);
  if (commentsBefore.join('\u0000') !== commentsAfter.join('\u0000')) return 'the formatted text does not hold the same comments';
  return undefined;
}

/** Every comment of a file that lexes without errors, in order. */
export function commentTexts(text: string, tokens: readonly SourceToken[] = sourceTokens(text)): string[] {
  const found: string[] = [];
  for (let i = 0; i <= tokens.length; i++) {
    const start = i === 0 ? 0 : end(tokens[i - 1]!);
    const gap = scanGap(text, start, i === tokens.length ? text.length : tokens[i]!.offset);
    for (const comment of gap.comments) found.push(comment.text);
  }
  return found;
}

function internalError(path: string, problem: string): FormatResult {
  const span = { file: path, offset: 0, endOffset: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };
  return { ok: false, diagnostics: [diagnostic('ADEC9001', span, { problem: `the formatter failed on ${path}: ${problem}` })] };
}
