/**
 * The tokens of a file as plain records, for tools that lay out source text (the formatter in
 * packages/compiler/src/format): each token's type name (`LCurly`, `Identifier`, `When`, …),
 * its exact text and its offset. Comments and whitespace are not tokens, so the text between
 * two consecutive tokens of a file that lexes without errors is exactly its whitespace and
 * comments. The same lexer as `parseSource`, so the tokens are the ones the parser reads.
 */
import { lex } from './lexer.js';
import { LineMap } from './line-map.js';

export interface SourceToken {
  /** The Chevrotain token type's name, e.g. `LCurly`, `Identifier`, `StringLiteral` kinds `DoubleQuotedString`. */
  readonly type: string;
  readonly image: string;
  readonly offset: number;
}

export function sourceTokens(text: string): SourceToken[] {
  return lex(text, new LineMap('', text)).tokens.map((token) => ({
    type: token.tokenType.name,
    image: token.image,
    offset: token.startOffset,
  }));
}
