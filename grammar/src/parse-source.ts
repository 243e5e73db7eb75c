/**
 * `parseSource`: one `.adec` file → AST + syntax diagnostics. Never throws.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '@adec/diagnostics';
import type { Expr, SourceFile } from './ast.js';
import { AstBuilder } from './cst-to-ast.js';
import { lex } from './lexer.js';
import { LineMap } from './line-map.js';
import { limitNesting } from './nesting.js';
import { WorldParser } from './parser.js';
import { toDiagnostics } from './syntax-errors.js';
import { parseRepairing } from './syntax-repair.js';

export interface ParseResult {
  readonly file: SourceFile;
  /** Lexical and syntax diagnostics (ADEC1001–ADEC1010), sorted by position. */
  readonly diagnostics: Diagnostic[];
}

/** Built once: constructing a Chevrotain parser analyses the whole grammar. */
let sharedParser: WorldParser | undefined;

export function worldParser(): WorldParser {
  sharedParser ??= new WorldParser();
  return sharedParser;
}

/**
 * Parses one file. `path` is the file name diagnostics print. Syntax errors are reported
 * and recovered from, so the AST covers everything that could be read.
 */
export function parseSource(path: string, text: string): ParseResult {
  try {
    return parse(path, text);
  } catch (error) {
    // A thrown error here is a bug in adec, never a problem of the world.
    const problem = `the parser failed on ${path}: ${error instanceof Error ? error.message : String(error)}`;
    const lines = new LineMap(path, text);
    return {
      file: { kind: 'SourceFile', path, declarations: [], span: lines.span(0, text.length) },
      diagnostics: [diagnostic('ADEC9001', lines.point(0), { problem })],
    };
  }
}

function parse(path: string, text: string): ParseResult {
  const lines = new LineMap(path, text);
  const parser = worldParser();
  const lexed = lex(text, lines);
  const tooDeep: Diagnostic[] = [];
  const { cst, errors, notes } = parseRepairing(parser, limitNesting(lexed.tokens, lines, tooDeep));
  const diagnostics: Diagnostic[] = [
    ...loneSurrogates(text, lines),
    ...lexed.diagnostics,
    ...tooDeep,
    ...toDiagnostics(errors, lines, lexed.unterminatedComment, notes),
  ];

  const builder: AstBuilder = new AstBuilder(lines, (inner, offset): Expr => parseInterpolation(inner, offset, lines, builder, diagnostics), diagnostics);
  const file = builder.sourceFile(path, cst);
  return { file, diagnostics: sortDiagnostics(diagnostics) };
}

/**
 * Half of a UTF-16 surrogate pair on its own is no character: no UTF-8 file can hold one, but
 * text handed to the compiler as a string can, and the generated module's type check failed on
 * it. One diagnostic per lone unit, at its position.
 */
function loneSurrogates(text: string, lines: LineMap): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const match of text.matchAll(LONE_SURROGATE)) {
    const unit = `\\u${match[0].charCodeAt(0).toString(16).toUpperCase()}`;
    found.push(diagnostic('ADEC1009', lines.span(match.index, match.index + 1), { unit }, { help: 'save the file as UTF-8 text, or remove the character' }));
  }
  return found;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The expression inside `{…}` of an interpolated string, at file offset `offset`. Runs after
 * the file's own parse, so the shared parser is free. Problems are reported as ADEC1007.
 */
function parseInterpolation(
  inner: string,
  offset: number,
  lines: LineMap,
  builder: AstBuilder,
  diagnostics: Diagnostic[],
): Expr {
  const parser = worldParser();
  const lexed = lex(inner, lines, offset);
  diagnostics.push(...lexed.diagnostics);
  parser.input = limitNesting(lexed.tokens, lines, diagnostics);
  const cst = parser.expression();
  const leftover = parser.errors.find((error) => error.name === 'NotAllInputParsedException');
  const errors = toDiagnostics(parser.errors, lines, false);
  const first = errors[0];
  if (leftover && first?.span.offset === leftover.token.startOffset) {
    const problem = `expected \`}\`, found \`${leftover.token.image}\``;
    diagnostics.push(diagnostic('ADEC1007', first.span, { problem }));
  } else if (first) {
    const problem = first.message.replace(/^unexpected end of file: /, '');
    const endOfInterpolation = first.code === 'ADEC1004';
    const span = endOfInterpolation ? lines.point(offset + inner.length) : first.span;
    diagnostics.push(
      diagnostic('ADEC1007', span, { problem: endOfInterpolation ? `${problem} before \`}\`` : problem }),
    );
  }
  return builder.expression(cst, offset);
}
