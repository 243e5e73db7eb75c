/**
 * The nesting limit (ADEC1010), applied to a file's tokens before they are parsed.
 *
 * The parser, the AST builder and every later phase (checking, analysis, code generation)
 * walk nested constructs recursively, so nesting without a bound would overflow the stack
 * (400 nested parentheses did). Chains are not nesting: `a or b or c …`, `x + 1 + 1 …` and
 * `a ?? b ?? c …` are parsed as flat sequences and every phase walks them iteratively, so a
 * chain of any length compiles. What counts as a level (grammar/README.md, "Nesting limit"):
 * - each pair of brackets around a token: `( )` (grouping or a call's arguments), `[ ]`,
 *   `{ }` (declaration bodies, records, record types) and `list< >`;
 * - an `if` that starts the condition or a branch of another `if` (`else if` ladders);
 * - each `not` or unary `-` in a row (`not not x` is two levels), and each `.field` in a row;
 *   a bracket right after them is one level deeper still (`not (` is two).
 *
 * The token that goes deeper than `NESTING_LIMIT` is where the limit is crossed: ADEC1010 is
 * reported there, once, and the construct it starts (the bracket with everything up to its
 * closing bracket, the `if` expression, the rest of the `not`/`-` run with its operand, the
 * operand with its `.field` run) is replaced by one `TooDeep` token. The grammar reads that
 * token wherever an expression, a test value or a type may stand, and cst-to-ast.ts turns it
 * into a placeholder the checker ignores. So the parser never recurses past the limit, and the
 * cut causes no other diagnostic.
 *
 * A linear pass; the token array is copied only when something is cut.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { IToken, TokenType } from 'chevrotain';
import type { LineMap } from './line-map.js';
import * as t from './tokens.js';

/** How many levels deep brackets, `if`, `not`, `-` and `.field` may nest. */
export const NESTING_LIMIT = 100;

const CLOSER_OF: ReadonlyMap<TokenType, TokenType> = new Map([
  [t.LParen, t.RParen],
  [t.LBracket, t.RBracket],
  [t.LCurly, t.RCurly],
]);

const CLOSERS: ReadonlySet<TokenType> = new Set([t.RParen, t.RBracket, t.RCurly]);

interface Frame {
  /** The level of the bracket that opened the frame (0 for the file). */
  readonly level: number;
  /** The token that closes it; undefined for the file. */
  readonly closer: TokenType | undefined;
  /** `if`s in a row at this bracket level (`if … then if …`, `else if …`). */
  ifRun: number;
  /** Index (in the output) of the first token of the operand being read at this level. */
  operandStart: number;
}

/**
 * `tokens` with every part nested deeper than `limit` replaced by a `TooDeep` token; one
 * ADEC1010 per replaced part is added to `diagnostics`. Returns `tokens` itself when nothing
 * is too deep.
 */
export function limitNesting(tokens: IToken[], lines: LineMap, diagnostics: Diagnostic[], limit = NESTING_LIMIT): IToken[] {
  const n = tokens.length;
  const frames: Frame[] = [{ level: 0, closer: undefined, ifRun: 0, operandStart: 0 }];
  // The output: `tokens` itself until the first cut, then a copy.
  let out: IToken[] | undefined;
  let written = 0; // tokens in the output (the index of the next one)
  let prefix = 0; // `not` / unary `-` in a row, up to and including the previous token
  let members = 0; // `.field` in a row
  let last: IToken | undefined; // the previous token of the output
  let lastEndsOperand = false;

  const emit = (token: IToken): void => {
    if (out !== undefined) out.push(token);
    written++;
  };
  /**
   * Replaces output tokens from `fromOutput` on, and source tokens up to `end`, by one TooDeep;
   * the diagnostic spans the tokens that cross the limit, `crossingFrom` to `crossingTo`.
   */
  const cut = (fromOutput: number, first: IToken, end: number, crossingFrom: IToken, crossingTo: IToken): void => {
    out = (out ?? tokens).slice(0, fromOutput);
    const lastToken = tokens[end - 1]!;
    const endOffset = lastToken.startOffset + lastToken.image.length;
    const replacement = tooDeepToken(lines.text.slice(first.startOffset, endOffset), first.startOffset);
    out.push(replacement);
    written = out.length;
    diagnostics.push(
      diagnostic('ADEC1010', lines.span(crossingFrom.startOffset, crossingTo.startOffset + crossingTo.image.length), { limit }, {
        label: `level ${limit + 1} starts here`,
        help: HELP(limit),
      }),
    );
    frames[frames.length - 1]!.operandStart = fromOutput;
    last = replacement;
    lastEndsOperand = true;
    prefix = 0;
    members = 0;
  };

  for (let i = 0; i < n; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    const frame = frames[frames.length - 1]!;
    const lastType = last?.tokenType;

    // ── Brackets ──
    let closer = CLOSER_OF.get(type);
    let openerLength = 1;
    if (closer === undefined && type === t.List && tokens[i + 1]?.tokenType === t.Less && opensListType(lastType, frame)) {
      closer = t.Greater;
      openerLength = 2;
    }
    if (closer !== undefined) {
      const level = frame.level + frame.ifRun + prefix + 1;
      const isCall = type === t.LParen && lastEndsOperand && last !== undefined && isName(lastType!);
      if (level > limit) {
        // A call's name goes with its arguments, `list` with its `<`.
        const end = matchingEnd(tokens, i);
        const from = isCall ? written - 1 : written;
        const first = isCall ? last! : token;
        const opener = tokens[i + openerLength - 1]!;
        cut(from, first, end, first, opener);
        i = end - 1;
        continue;
      }
      if (!lastEndsOperand) frame.operandStart = written;
      frames.push({ level, closer, ifRun: 0, operandStart: written + openerLength });
      for (let k = 0; k < openerLength; k++) emit(tokens[i + k]!);
      i += openerLength - 1;
      last = tokens[i];
      lastEndsOperand = false;
      prefix = 0;
      members = 0;
      continue;
    }
    if (CLOSERS.has(type) || (type === t.Greater && frame.closer === t.Greater)) {
      // Closes the innermost open bracket of its kind (and any left open inside it); a
      // closing bracket with no opening one closes nothing (the parser reports it).
      for (let f = frames.length - 1; f > 0; f--) {
        if (frames[f]!.closer === type) {
          frames.length = f;
          break;
        }
      }
      emit(token);
      last = token;
      lastEndsOperand = type === t.RParen || type === t.RBracket;
      prefix = 0;
      members = 0;
      continue;
    }

    // ── if ──
    if (type === t.If) {
      frame.ifRun = lastType === t.If || lastType === t.Then || lastType === t.Else ? frame.ifRun + 1 : 1;
      if (frame.level + frame.ifRun > limit) {
        frame.ifRun -= 1;
        const end = ifEnd(tokens, i);
        cut(written, token, end, token, token);
        i = end - 1;
        continue;
      }
      emit(token);
      last = token;
      lastEndsOperand = false;
      prefix = 0;
      members = 0;
      continue;
    }

    // ── not, unary minus ──
    // `NOT` before CONTAINS, CONTAINS_ANY or MATCHES, or after `IS`, is part of an operator; a
    // `-` after an operand is subtraction (a clause keyword such as `when` is no operand).
    const next = tokens[i + 1]?.tokenType;
    const isPrefix =
      (type === t.Not && lastType !== t.Is && next !== t.Contains && next !== t.ContainsAny && next !== t.Matches) ||
      (type === t.Minus && !(lastEndsOperand && !isKeyword(lastType!)));
    if (isPrefix) {
      if (prefix === 0) frame.operandStart = written;
      prefix += 1;
      if (frame.level + frame.ifRun + prefix > limit) {
        const end = prefixRunEnd(tokens, i);
        cut(written, token, end, token, token);
        i = end - 1;
        continue;
      }
      emit(token);
      last = token;
      lastEndsOperand = false;
      members = 0;
      continue;
    }

    // ── .field ──
    const property = tokens[i + 1];
    if (type === t.Dot && lastEndsOperand && property !== undefined && isPropertyName(property.tokenType)) {
      members += 1;
      if (frame.level + frame.ifRun + members > limit) {
        // The whole operand goes: a shorter path would only be misread as another one.
        let end = i;
        while (tokens[end]?.tokenType === t.Dot && tokens[end + 1] !== undefined && isPropertyName(tokens[end + 1]!.tokenType)) end += 2;
        const from = Math.min(frame.operandStart, written);
        const first = (out ?? tokens)[from] ?? token;
        cut(from, first, end, token, property);
        i = end - 1;
        continue;
      }
      emit(token);
      emit(property);
      i += 1;
      last = property;
      lastEndsOperand = true;
      prefix = 0;
      continue;
    }

    // ── anything else ──
    if (type === t.Comma || (lastEndsOperand && isName(type))) {
      // A list or call goes on to its next item, or a name after an operand starts the next
      // clause: `if`s before it are finished.
      frame.ifRun = 0;
    }
    if (startsOperand(type)) frame.operandStart = written;
    emit(token);
    last = token;
    lastEndsOperand = endsOperand(type);
    prefix = 0;
    members = 0;
  }
  return out ?? tokens;
}

const HELP = (limit: number): string =>
  `at most ${limit} levels of brackets, \`if\`, \`not\`, \`-\` and \`.field\` can be nested ` +
  '(a chain such as `a or b or …` counts once): move the inner part into a computed attribute';

/** `list<` opens a type after `:` (a declaration) or as the element of another `list<`. */
function opensListType(lastType: TokenType | undefined, frame: Frame): boolean {
  return lastType === t.Colon || (lastType === t.Less && frame.closer === t.Greater);
}

/** A soft keyword (`when`, `weight`, …): a name category token that is not a plain identifier. */
function isKeyword(type: TokenType): boolean {
  return type !== t.Identifier && isName(type);
}

function isName(type: TokenType): boolean {
  return type === t.Identifier || (type.CATEGORIES?.includes(t.Name) ?? false);
}

/** What may follow `.`: a name or any keyword. */
function isPropertyName(type: TokenType): boolean {
  return type === t.Identifier || (type.CATEGORIES?.includes(t.PropertyName) ?? false);
}

function isLiteral(type: TokenType): boolean {
  return (
    type === t.NumberToken ||
    type === t.Duration ||
    type === t.True ||
    type === t.False ||
    type === t.Null ||
    (type.CATEGORIES?.includes(t.StringLiteral) ?? false)
  );
}

function startsOperand(type: TokenType): boolean {
  return isName(type) || isLiteral(type);
}

function endsOperand(type: TokenType): boolean {
  return isName(type) || isLiteral(type) || type === t.RParen || type === t.RBracket;
}

/**
 * The index after the bracket opened at `start` is closed. A closing bracket of another kind
 * that closes nothing inside ends it before that bracket (it closes something outside).
 */
function matchingEnd(tokens: readonly IToken[], start: number): number {
  const expected: TokenType[] = [];
  for (let j = start; j < tokens.length; j++) {
    const type = tokens[j]!.tokenType;
    const closer = CLOSER_OF.get(type);
    if (closer !== undefined) {
      expected.push(closer);
    } else if (type === t.List && tokens[j + 1]?.tokenType === t.Less && (j === start || tokens[j - 1]!.tokenType === t.Colon || tokens[j - 1]!.tokenType === t.Less)) {
      expected.push(t.Greater);
      j += 1;
    } else if (type === t.Greater && expected[expected.length - 1] === t.Greater) {
      expected.pop();
    } else if (CLOSERS.has(type)) {
      const at = expected.lastIndexOf(type);
      if (at < 0) return j;
      expected.length = at;
    }
    if (expected.length === 0) return j + 1;
  }
  return tokens.length;
}

/**
 * The index after the `if` expression starting at `start`: it ends at a closing bracket or a
 * comma of the enclosing level, at a `then` or `else` of an enclosing `if` (an `else` goes to
 * the innermost `if` that can take it, as in the parser), or where a name follows an operand
 * (the next clause).
 */
function ifEnd(tokens: readonly IToken[], start: number): number {
  let depth = 0;
  let awaitingThen = 0;
  let mayTakeElse = 0;
  let lastEndsOperand = false;
  for (let j = start; j < tokens.length; j++) {
    const type = tokens[j]!.tokenType;
    if (CLOSER_OF.has(type)) {
      depth++;
    } else if (CLOSERS.has(type)) {
      if (depth === 0) return j;
      depth--;
    } else if (depth === 0) {
      if (type === t.If) awaitingThen++;
      else if (type === t.Then) {
        if (awaitingThen === 0) return j;
        awaitingThen--;
        mayTakeElse++;
      } else if (type === t.Else) {
        if (mayTakeElse === 0) return j;
        mayTakeElse--;
      } else if (type === t.Comma || (lastEndsOperand && isName(type))) {
        return j;
      }
    }
    lastEndsOperand = depth === 0 && endsOperand(type);
  }
  return tokens.length;
}

/** The index after a run of `not` / `-` starting at `start` and the operand it applies to. */
function prefixRunEnd(tokens: readonly IToken[], start: number): number {
  let j = start;
  while (tokens[j]?.tokenType === t.Not || tokens[j]?.tokenType === t.Minus) j++;
  const operand = tokens[j]?.tokenType;
  if (operand === undefined) return j;
  if (isName(operand) && tokens[j + 1]?.tokenType === t.LParen) j = matchingEnd(tokens, j + 1);
  else if (operand === t.LParen || operand === t.LBracket) j = matchingEnd(tokens, j);
  else if (startsOperand(operand)) j += 1;
  else return j;
  while (tokens[j]?.tokenType === t.Dot && tokens[j + 1] !== undefined && isPropertyName(tokens[j + 1]!.tokenType)) j += 2;
  return j;
}

function tooDeepToken(image: string, startOffset: number): IToken {
  return {
    image,
    startOffset,
    endOffset: startOffset + image.length - 1,
    startLine: Number.NaN,
    startColumn: Number.NaN,
    endLine: Number.NaN,
    endColumn: Number.NaN,
    tokenTypeIdx: t.TooDeep.tokenTypeIdx!,
    tokenType: t.TooDeep,
  };
}
