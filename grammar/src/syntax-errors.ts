/**
 * Chevrotain's parse errors → ADEC1003 / ADEC1004.
 *
 * The error message provider does not write sentences: it returns only the "expected" part
 * (e.g. "`}` or a rule clause (`outcome`, `severity`, `when`, …)"), and `toDiagnostics`
 * puts it into the catalogue template with the offending token. Errors on a token already
 * reported (cascades of one mistake) are dropped.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { IParserErrorMessageProvider, IRecognitionException, IToken, TokenType } from 'chevrotain';
import { EOF } from './chevrotain.js';
import type { LineMap } from './line-map.js';
import { tokenSpan } from './lexer.js';
import type { SyntaxErrorNote } from './syntax-repair.js';
import * as t from './tokens.js';

/** How a token type reads in "expected …". */
export function describeTokenType(type: TokenType): string {
  if (type === EOF) return 'end of file';
  if (type === t.Name || type === t.Identifier) return 'a name';
  if (type === t.PropertyName) return 'a field name';
  if (type.CATEGORIES?.includes(t.StringLiteral) || type === t.StringLiteral) return 'a string';
  if (type === t.NumberToken) return 'a number';
  if (type === t.Duration) return 'a duration';
  return `\`${type.LABEL ?? type.name}\``;
}

/** "a, b or c" for up to four items; "a, b, c, …" beyond. */
export function humanList(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? 'something else';
  if (unique.length > 4) return `${unique.slice(0, 3).join(', ')}, …`;
  return `${unique.slice(0, -1).join(', ')} or ${unique[unique.length - 1]}`;
}

/** What may continue a block, keyed by the rule that owns the block's closing `}`. */
const BLOCK_MEMBERS: Readonly<Record<string, string>> = {
  sourceFile: 'a declaration (`world`, `context`, `action`, `skill`, `scenario` or `test`)',
  worldHeader: 'a setting (`org`, `domain`, `version`, `name`, `timeout`)',
  contextBlock: 'an attribute (`supplied`, `system` or `computed`)',
  actionDecl: '`aggregate`, `context`, `rule` or `on`',
  ruleDecl: 'a rule clause (`outcome`, `severity`, `when`, …)',
  workFrameTemplate: 'a work_frame field',
  skillDecl: 'a skill member (`version`, `type`, `output`, `invariant`, …)',
  scenarioDecl: 'a scenario member (`signals`, `state`, `action_type`, `guardrail`, …)',
  testDecl: 'a test member (`action`, `context`, `expect`, …)',
  fieldBlock: 'a field',
  valuedFieldBlock: 'a field',
  actionType: 'a field or `skill`',
  skillTemplate: 'a template field',
  executionRisk: 'a risk factor',
  valueRecord: 'an entry',
  valueList: 'a value',
  stringList: 'a string',
};

function closingDescription(expected: TokenType, ruleName: string): string {
  const members = BLOCK_MEMBERS[ruleName];
  if (expected === EOF) return BLOCK_MEMBERS['sourceFile']!;
  if (members && (expected === t.RCurly || expected === t.RBracket)) {
    return `${describeTokenType(expected)} or ${members}`;
  }
  return describeTokenType(expected);
}

export const syntaxErrorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, ruleName }) {
    return closingDescription(expected, ruleName);
  },
  buildNotAllInputParsedMessage() {
    return BLOCK_MEMBERS['sourceFile']!;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, customUserDescription }) {
    if (customUserDescription) return customUserDescription;
    return humanList(expectedPathsPerAlt.flatMap((paths) => paths.map((path) => describeTokenType(path[0] ?? EOF))));
  },
  buildEarlyExitMessage({ expectedIterationPaths, customUserDescription }) {
    if (customUserDescription) return customUserDescription;
    return humanList(expectedIterationPaths.map((path) => describeTokenType(path[0] ?? EOF)));
  },
};

/** How the offending token reads in "found …". */
function describeFound(token: IToken): string {
  return `\`${truncate(token.image)}\``;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/**
 * The diagnostics for the parser's errors. `endOfText` is where an ADEC1004 points when the
 * previous token is unknown; `suppressEndOfFile` drops ADEC1004 when the lexer has already
 * explained the early end (an unterminated block comment). `notes` holds what syntax-repair.ts
 * found out about an error: a did-you-mean, or the bracket a missing `)` or `]` would close
 * (then the error is ADEC1011, at that bracket).
 */
export function toDiagnostics(
  errors: readonly IRecognitionException[],
  lines: LineMap,
  suppressEndOfFile: boolean,
  notes: ReadonlyMap<IRecognitionException, SyntaxErrorNote> = new Map(),
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const reportedOffsets = new Set<number>();
  for (const error of errors) {
    const token = error.token;
    const atEnd = token.tokenType === EOF || Number.isNaN(token.startOffset);
    if (atEnd && suppressEndOfFile) continue;
    const key = atEnd ? -1 : token.startOffset;
    if (reportedOffsets.has(key)) continue;
    reportedOffsets.add(key);
    const expected = error.message;
    // Recovery resynchronizes at the first `}`, which may close an inner block the broken
    // text had opened; the outer `}` is then "stray". After an earlier error that is noise.
    if (diagnostics.length > 0 && token.tokenType === t.RCurly && expected === BLOCK_MEMBERS['sourceFile']) continue;
    const note = notes.get(error);
    const extras = note?.help !== undefined ? { help: note.help } : {};
    if (note?.unclosed !== undefined) {
      const open = note.unclosed.image;
      const found = atEnd ? 'the end of the file' : describeFound(token);
      diagnostics.push(diagnostic('ADEC1011', tokenSpan(note.unclosed, lines), { open, expected, found }, { label: `this \`${open}\` is never closed` }));
    } else if (atEnd) {
      const previous = (error as { previousToken?: IToken }).previousToken;
      const at = previous && !Number.isNaN(previous.startOffset) ? previous.startOffset + previous.image.length : lines.text.length;
      diagnostics.push(diagnostic('ADEC1004', lines.point(at), { expected }, extras));
    } else {
      diagnostics.push(diagnostic('ADEC1003', tokenSpan(token, lines), { expected, found: describeFound(token) }, extras));
    }
  }
  return diagnostics;
}
