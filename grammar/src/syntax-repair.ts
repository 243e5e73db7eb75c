/**
 * Misspelled keywords and operators: a did-you-mean on the syntax error, and a repair so that
 * one misspelling is one diagnostic.
 *
 * Where the parser stops at a token, Chevrotain's content assist says which tokens the grammar
 * could have taken there, the continuations of the construct before it included (`over_age ang`
 * could have gone on with `and`). The closest spelling of those to what was written is the
 * suggestion (`whn` → `when`, `contains` → `CONTAINS`, `=` → `==`). When it is a keyword or an
 * operator, the token is read as that keyword and the file parsed again: the syntax error stays,
 * with its help, but the clause still counts as the clause and the declaration around it is not
 * lost, so no "`when` is required", no unknown name for an attribute whose declaration
 * recovery skipped, no cascade of syntax errors.
 *
 * Content assist walks the grammar over the tokens of the declaration so far: about 0.1 ms a
 * token (measured on the example worlds and on 20,000-token actions). It is bounded per
 * suggestion and per file, so a file full of errors costs a few parses, not one per error.
 */
import type { IRecognitionException, ISyntacticContentAssistPath, IToken, TokenType } from 'chevrotain';
import { closeMatches } from '@adec/diagnostics';
import { SCALAR_TYPE_NAMES } from './ast.js';
import { EOF } from './chevrotain.js';
import { durationUnitsHelp } from './lexer.js';
import type { WorldParser } from './parser.js';
import { describeTokenType } from './syntax-errors.js';
import * as t from './tokens.js';

/** At most this many misspellings are repaired in one file (each costs a parse). */
const MAX_REPAIRS = 8;
/** Content assist reads at most this many tokens before one error … */
const MAX_ASSIST_PREFIX = 2_000;
/** … and at most this many for all the errors of a file together. */
const ASSIST_BUDGET = 6_000;

export interface RepairedParse {
  readonly cst: ReturnType<WorldParser['sourceFile']>;
  /** Every syntax error to report, the repaired ones included, in source order. */
  readonly errors: readonly IRecognitionException[];
  /** What more is known about an error, where there is something. */
  readonly notes: ReadonlyMap<IRecognitionException, SyntaxErrorNote>;
}

export interface SyntaxErrorNote {
  readonly help?: string;
  /** The `(` or `[` a missing closing bracket was expected for: the error is reported there. */
  readonly unclosed?: IToken;
}

interface Suggestion {
  readonly text: string;
  /** The token type to read the token as, when that may repair the parse. */
  readonly repairAs?: TokenType;
}

interface Repair {
  /** The error as reported: at the misspelled token, which may be the one before the error's. */
  readonly error: IRecognitionException;
  readonly help: string;
  readonly input: IToken[];
  readonly reparsed: ReturnType<typeof parseFile>;
}

/** How many of the closest suggestions are tried as repairs. */
const REPAIRS_TRIED_PER_ERROR = 5;

/** Parses `tokens` as a file, repairing misspelled keywords and operators where it can. */
export function parseRepairing(parser: WorldParser, tokens: readonly IToken[]): RepairedParse {
  const budget = { tokens: ASSIST_BUDGET };
  let input = [...tokens];
  let { cst, errors } = parseFile(parser, input);
  const repaired: IRecognitionException[] = [];
  const help = new Map<IRecognitionException, string>();
  const tried = new Set<IRecognitionException>();

  for (let round = 0; round < MAX_REPAIRS; round++) {
    const error = errors.find((e) => !tried.has(e));
    if (error === undefined) break;
    tried.add(error);
    const repair = repairOf(parser, input, error, budget);
    if (repair === undefined) continue;
    repaired.push(repair.error);
    help.set(repair.error, repair.help);
    input = repair.input;
    ({ cst, errors } = repair.reparsed);
  }

  const notes = new Map<IRecognitionException, SyntaxErrorNote>([...help].map(([error, text]) => [error, { help: text }]));
  for (const error of errors) {
    const unclosed = unclosedOpener(input, error);
    const text = unclosed === undefined ? helpFor(parser, input, error, budget) : undefined;
    if (unclosed !== undefined || text !== undefined) notes.set(error, { ...(text !== undefined && { help: text }), ...(unclosed !== undefined && { unclosed }) });
  }
  const all = [...repaired, ...errors].sort((a, b) => offsetOf(a) - offsetOf(b));
  return { cst, errors: all, notes };
}

const CLOSING_OF: ReadonlyMap<TokenType, TokenType> = new Map([
  [t.LParen, t.RParen],
  [t.LBracket, t.RBracket],
]);

/**
 * For an error that expected a `)` or `]`: the bracket it would have closed, the nearest one
 * before the error that nothing closes, within the same block. The author's mistake is at the
 * opener (a bracket never closed), not at the token that happened to follow.
 */
function unclosedOpener(input: readonly IToken[], error: IRecognitionException): IToken | undefined {
  const closer = [...CLOSING_OF.values()].find((type) => error.message === describeTokenType(type));
  if (closer === undefined) return undefined;
  const end = Number.isNaN(error.token.startOffset) ? input.length : input.indexOf(error.token);
  let depth = 0;
  for (let i = end - 1; i >= 0; i--) {
    const type = input[i]!.tokenType;
    if (type === t.LCurly || type === t.RCurly) return undefined;
    if (type === closer) depth++;
    else if (CLOSING_OF.get(type) === closer && depth-- === 0) return input[i];
  }
  return undefined;
}

function parseFile(parser: WorldParser, input: IToken[]) {
  parser.input = input;
  const cst = parser.sourceFile();
  return { cst, errors: [...parser.errors] };
}

function offsetOf(error: IRecognitionException): number {
  return Number.isNaN(error.token.startOffset) ? Number.MAX_SAFE_INTEGER : error.token.startOffset;
}

function didYouMean(text: string): string {
  return `did you mean \`${text}\`?`;
}

/**
 * A repair of `error`: its token read as a keyword or an operator close to it, or else the
 * word before it (`ist<string>` fails at `<`, but `ist` is the typo; `action [` in a test fails
 * at `[`, but `action` is the keyword `actions` mistyped into another), such that the parse no
 * longer fails there. Among close suggestions the first that parses on wins.
 */
function repairOf(parser: WorldParser, input: IToken[], error: IRecognitionException, budget: { tokens: number }): Repair | undefined {
  const index = input.indexOf(error.token);
  if (index < 0) return undefined;
  for (const at of [index, index - 1]) {
    const token = input[at];
    if (token === undefined || (at !== index && !isWord(token))) continue;
    for (const suggestion of suggestionsAt(parser, input, at, budget).slice(0, REPAIRS_TRIED_PER_ERROR)) {
      if (suggestion.repairAs === undefined) continue;
      const attempt = input.map((tok, i) => (i === at ? retyped(tok, suggestion.repairAs!) : tok));
      const reparsed = parseFile(parser, attempt);
      // A repair must carry the parse past the error's token and the one after it: `an not x`
      // read as `in` fails at `not`, as `and` it reads on.
      const readsOn = input[index + 1]?.startOffset ?? Number.POSITIVE_INFINITY;
      if (reparsed.errors.some((e) => e.token.startOffset >= token.startOffset && e.token.startOffset <= readsOn)) continue;
      const reported = at === index ? error : misspelledWordError(error, token, suggestion.repairAs);
      return { error: reported, help: didYouMean(suggestion.text), input: attempt, reparsed };
    }
  }
  return undefined;
}

function retyped(token: IToken, type: TokenType): IToken {
  return { ...token, tokenType: type, tokenTypeIdx: type.tokenTypeIdx! };
}

/** The error to report at a word the parser took as a name, but that was the keyword `expected`. */
function misspelledWordError(error: IRecognitionException, token: IToken, expected: TokenType): IRecognitionException {
  return { name: error.name, message: describeTokenType(expected), token, resyncedTokens: [], context: error.context };
}

/**
 * The help of an error no repair applies to: a suggestion that is a name (a type), `not in`,
 * or a number where a duration was expected.
 */
function helpFor(parser: WorldParser, input: readonly IToken[], error: IRecognitionException, budget: { tokens: number }): string | undefined {
  const index = input.indexOf(error.token);
  if (index < 0) return undefined;
  const found = error.token;
  if (found.image.toLowerCase() === 'in' && input[index - 1]?.tokenType === t.Not) {
    return 'there is no `not in` operator: negate the whole test, `not (x in [...])`';
  }
  const paths = expectedAt(parser, input, index, budget);
  if (found.tokenType === t.NumberToken && paths.some((path) => path.nextTokenType === t.Duration)) return durationUnitsHelp(found.image);
  const [suggestion] = suggestionsFrom(paths, found);
  return suggestion === undefined ? undefined : didYouMean(suggestion.text);
}

/** What the grammar could have taken at `input[index]` that is closest to what is written there, closest first. */
function suggestionsAt(parser: WorldParser, input: readonly IToken[], index: number, budget: { tokens: number }): Suggestion[] {
  return suggestionsFrom(expectedAt(parser, input, index, budget), input[index]!);
}

/**
 * The continuations the grammar allows at `input[index]` (content assist over the tokens of
 * its declaration so far); none for a token no suggestion could be for, or past the budget.
 */
function expectedAt(parser: WorldParser, input: readonly IToken[], index: number, budget: { tokens: number }): ISyntacticContentAssistPath[] {
  const found = input[index]!;
  if (found.tokenType === EOF || Number.isNaN(found.startOffset)) return [];
  if (!isWord(found) && !OPERATOR_FIXES.has(found.image) && found.tokenType !== t.NumberToken) return [];
  const start = declarationStart(input, index);
  if (index - start > MAX_ASSIST_PREFIX || index - start > budget.tokens) return [];
  budget.tokens -= index - start;
  return parser.computeContentAssist('sourceFile', input.slice(start, index));
}

function isWord(token: IToken): boolean {
  return /^[A-Za-z_]/.test(token.image);
}

function suggestionsFrom(paths: readonly ISyntacticContentAssistPath[], found: IToken): Suggestion[] {
  if (!isWord(found)) {
    const fix = OPERATOR_FIXES.get(found.image);
    return fix !== undefined && paths.some((path) => path.nextTokenType === fix) ? [{ text: fix.LABEL!, repairAs: fix }] : [];
  }
  const spellings = new Map<string, TokenType | undefined>();
  for (const path of paths) {
    const type = path.nextTokenType;
    for (const spelling of inCaseOf(found.image, t.keywordSpellings.get(type) ?? [])) spellings.set(spelling, type);
    if (type === t.Name && path.ruleStack[path.ruleStack.length - 1] === 'namedType') {
      for (const name of SCALAR_TYPE_NAMES) spellings.set(name, undefined);
    }
  }
  return closeMatches(found.image, spellings.keys()).map((text) => {
    const type = spellings.get(text);
    return type === undefined ? { text } : { text, repairAs: type };
  });
}

/** A keyword's spellings, the one in the case the author wrote in first (`NTO` → `NOT`, not `not`). */
function inCaseOf(word: string, spellings: readonly string[]): readonly string[] {
  const upper = word === word.toUpperCase();
  return [...spellings].sort((a, b) => Number((b === b.toUpperCase()) === upper) - Number((a === a.toUpperCase()) === upper));
}

/** Operators written for another the grammar expected there. */
const OPERATOR_FIXES: ReadonlyMap<string, TokenType> = new Map([['=', t.EqualEqual]]);

/**
 * Where the top-level declaration around `input[index]` starts: after the last `}` before it
 * that closes a top-level block. Content assist needs a prefix the grammar can read from its
 * start rule, and a declaration is the shortest one that is always such a prefix.
 */
function declarationStart(input: readonly IToken[], index: number): number {
  let depth = 0;
  let start = 0;
  for (let i = 0; i < index; i++) {
    const type = input[i]!.tokenType;
    if (type === t.LCurly) depth++;
    else if (type === t.RCurly) {
      depth = Math.max(0, depth - 1);
      if (depth === 0) start = i + 1;
    }
  }
  return start;
}
