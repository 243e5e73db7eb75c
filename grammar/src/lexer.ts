/**
 * Lexing: source text → tokens, plus the lexical diagnostics (ADEC1001, 1002, 1005, 1006,
 * 1008). The lexer never throws and never stops early: an unexpected character is reported
 * and skipped; an unterminated string, an invalid duration or an out-of-range number is
 * reported and still handed to the parser as a string / duration / number, so one typo does
 * not turn into a cascade of syntax errors.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { IToken, Lexer as ChevrotainLexer } from 'chevrotain';
import { Lexer } from './chevrotain.js';
import type { LineMap } from './line-map.js';
import { allTokens, CurlyQuotedString, Duration, NumberToken, TYPESET_OPERATORS, UnterminatedBlockComment, UnterminatedString } from './tokens.js';

/**
 * The lexer of the language's tokens. `validate` runs Chevrotain's checks of the token
 * definitions (unreachable patterns, missing groups), half the construction time: off in
 * production, on in grammar/test/lexer-validation.test.ts, which fails on any token defect.
 */
export function createLexer(options: { readonly validate?: boolean } = {}): ChevrotainLexer {
  return new Lexer(allTokens, {
    // Offsets only: lines and columns are computed by LineMap for the few spans that need them.
    positionTracking: 'onlyOffset',
    // Keywords use `longer_alt`; the lexer still builds its first-character optimization.
    ensureOptimizations: false,
    skipValidations: !options.validate,
  });
}

const lexer = createLexer();

export interface LexResult {
  readonly tokens: IToken[];
  readonly diagnostics: Diagnostic[];
  /** True when a block comment runs to the end of the file (the parser's EOF errors are noise then). */
  readonly unterminatedComment: boolean;
}

/**
 * Lexes `text`, which starts at `baseOffset` in the file `lines` describes (non-zero for the
 * inner expression of an interpolation). Token offsets are file offsets.
 */
export function lex(text: string, lines: LineMap, baseOffset = 0): LexResult {
  const result = lexer.tokenize(text);
  const diagnostics: Diagnostic[] = [];
  const tokens = result.tokens;

  for (const error of result.errors) {
    const offset = baseOffset + error.offset;
    const char = String.fromCodePoint(text.codePointAt(error.offset) ?? 0xfffd);
    const help = UNEXPECTED_CHARACTER_HELP.get(char);
    diagnostics.push(
      diagnostic('ADEC1001', lines.span(offset, offset + char.length), { char }, help ? { help } : {}),
    );
  }

  if (baseOffset !== 0) for (const token of tokens) shiftToken(token, baseOffset);

  for (const token of tokens) {
    const type = token.tokenType;
    if (type === NumberToken) checkNumber(token, lines, diagnostics);
    else if (type === Duration) checkDuration(token, lines, diagnostics);
    else if (type === CurlyQuotedString) checkCurlyQuotes(token, lines, diagnostics);
    else if (TYPESET_OPERATORS.has(token.image)) {
      diagnostics.push(diagnostic('ADEC1001', tokenSpan(token, lines), { char: token.image }, { label: 'a typeset operator', help: `write \`${TYPESET_OPERATORS.get(token.image)}\`` }));
    }
    else if (type === UnterminatedString) {
      diagnostics.push(
        diagnostic('ADEC1002', tokenSpan(token, lines), {}, {
          help: `close the string with ${token.image[0]} on the same line`,
        }),
      );
    }
  }

  const comments = result.groups['errors'] ?? [];
  for (const comment of comments) {
    if (comment.tokenType !== UnterminatedBlockComment) continue;
    const offset = baseOffset + comment.startOffset;
    diagnostics.push(
      diagnostic('ADEC1006', lines.span(offset, offset + 2), {}, { label: 'this comment is never closed', help: 'close it with */' }),
    );
  }

  return { tokens, diagnostics, unterminatedComment: comments.length > 0 };
}

// Maps, not objects: keys come from the world, and `toString` is a key of every object.
const UNEXPECTED_CHARACTER_HELP: ReadonlyMap<string, string> = new Map([
  ['&', 'use `and` to combine conditions'],
  ['!', 'use `not` to negate a condition, `!=` to compare'],
  [';', 'declarations and clauses need no separator'],
  ['\u201c', 'use a straight double quote `"`'],
  ['\u201d', 'use a straight double quote `"`'],
  ['\u2018', "use a straight single quote `'`"],
  ['\u2019', "use a straight single quote `'`"],
]);

/** One ADEC1001 for a string in curly quotes, at its opening quote, with the string as it should be. */
function checkCurlyQuotes(token: IToken, lines: LineMap, diagnostics: Diagnostic[]): void {
  const char = token.image[0]!;
  const straight = char === '\u201c' || char === '\u201d' ? '"' : "'";
  const fixed = `${straight}${token.image.slice(1, -1)}${straight}`;
  diagnostics.push(
    diagnostic('ADEC1001', lines.span(token.startOffset, token.startOffset + 1), { char }, {
      label: 'a curly quote',
      help: `write the string in straight quotes: \`${fixed}\``,
    }),
  );
}

function shiftToken(token: IToken, by: number): void {
  token.startOffset += by;
}

/** The file span of a token (whose offsets are file offsets). */
export function tokenSpan(token: IToken, lines: LineMap) {
  return lines.span(token.startOffset, token.startOffset + token.image.length);
}

// ── Literal values ──────────────────────────────────────────────────────────

const MILLISECONDS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['ms', 1],
  ['s', 1_000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
]);

/** The units a duration may have, smallest first. */
export const DURATION_UNITS: readonly string[] = [...MILLISECONDS_PER_UNIT.keys()];

/** "a duration needs a unit: `30ms`, `30s`, `30m`, `30h` or `30d`": help for a number written for a duration. */
export function durationUnitsHelp(number: string): string {
  const written = DURATION_UNITS.map((unit) => `\`${number}${unit}\``);
  return `a duration needs a unit: ${written.slice(0, -1).join(', ')} or ${written[written.length - 1]}`;
}

/** `18h` → 64800000; `undefined` for an unknown unit (`5y`). */
export function durationMilliseconds(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
  if (!match) return undefined;
  const perUnit = MILLISECONDS_PER_UNIT.get(match[2]!);
  return perUnit === undefined ? undefined : Number(match[1]) * perUnit;
}

/** An int literal: written without a decimal point or an exponent. */
export function isIntegerText(text: string): boolean {
  return /^\d+$/.test(text);
}

function isOutOfRange(value: number, integer: boolean): boolean {
  return integer ? !Number.isSafeInteger(value) : !Number.isFinite(value);
}

function checkNumber(token: IToken, lines: LineMap, diagnostics: Diagnostic[]): void {
  const text = token.image;
  if (isOutOfRange(Number(text), isIntegerText(text))) {
    diagnostics.push(diagnostic('ADEC1008', tokenSpan(token, lines), { text }));
  }
}

function checkDuration(token: IToken, lines: LineMap, diagnostics: Diagnostic[]): void {
  const text = token.image;
  const milliseconds = durationMilliseconds(text);
  if (milliseconds === undefined) {
    const unit = /[A-Za-z_].*$/.exec(text)?.[0] ?? '';
    const help = DURATION_UNIT_HELP.get(unit);
    diagnostics.push(diagnostic('ADEC1005', tokenSpan(token, lines), { text }, help ? { help } : {}));
  } else if (!Number.isSafeInteger(Math.round(milliseconds))) {
    diagnostics.push(diagnostic('ADEC1008', tokenSpan(token, lines), { text }));
  }
}

const DURATION_UNIT_HELP: ReadonlyMap<string, string> = new Map([
  ['y', 'write years in days, e.g. `365d`'],
  ['w', 'write weeks in days, e.g. `7d`'],
  ['sec', 'write seconds as `s`'],
  ['secs', 'write seconds as `s`'],
  ['min', 'write minutes as `m`'],
  ['mins', 'write minutes as `m`'],
  ['hr', 'write hours as `h`'],
  ['hrs', 'write hours as `h`'],
  ['ns', 'the smallest unit is `ms`'],
  ['us', 'the smallest unit is `ms`'],
]);
