/**
 * Interpolated strings (`reason`, `prompt`, skill templates): "Dependent is {dependent_age}".
 *
 * The scan works on the raw source text of the string token, so every text part and every
 * inner expression keeps its exact file position. `{{` and `}}` are literal braces. Inside
 * `{…}`, a quoted string may contain braces; the outer quote escaped (`\"`) is read as a
 * plain quote, which lets `"{x ?? \"none\"}"` work.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { IToken } from 'chevrotain';
import type { Expr, TemplateString, TemplateText } from './ast.js';
import type { LineMap } from './line-map.js';
import { tokenSpan } from './lexer.js';
import { UnterminatedString } from './tokens.js';

/** Parses the source text `[offset, offset + text.length)` as one expression. */
export type ParseInnerExpression = (text: string, offset: number) => Expr;

export function parseTemplateString(
  token: IToken,
  lines: LineMap,
  parseExpression: ParseInnerExpression,
  diagnostics: Diagnostic[],
): TemplateString {
  const source = lines.text;
  const quote = token.image[0]!;
  const start = token.startOffset + 1;
  const closed = token.tokenType !== UnterminatedString;
  const end = token.startOffset + token.image.length - (closed ? 1 : 0);
  const parts: (TemplateText | Expr)[] = [];

  let text = '';
  let textStart = start;
  const flushText = (until: number) => {
    if (until > textStart) parts.push({ kind: 'TemplateText', text, span: lines.span(textStart, until) });
    text = '';
  };

  let i = start;
  while (i < end) {
    const ch = source[i]!;
    const next = source[i + 1];
    if (ch === '\\' && next === quote) {
      text += quote;
      i += 2;
    } else if ((ch === '{' && next === '{') || (ch === '}' && next === '}')) {
      text += ch;
      i += 2;
    } else if (ch === '}') {
      diagnostics.push(
        diagnostic('ADEC1007', lines.span(i, i + 1), { problem: 'unmatched `}`' }, { help: 'write `}}` for a literal brace' }),
      );
      text += ch;
      i += 1;
    } else if (ch === '{') {
      const close = findClosingBrace(source, i + 1, end, quote);
      if (close === undefined) {
        diagnostics.push(
          diagnostic('ADEC1007', lines.span(i, i + 1), { problem: '`{` is not closed' }, { help: 'write `{{` for a literal brace' }),
        );
        text += source.slice(i, end);
        i = end;
        continue;
      }
      flushText(i);
      const inner = source.slice(i + 1, close);
      if (inner.trim() === '') {
        diagnostics.push(diagnostic('ADEC1007', lines.span(i, close + 1), { problem: 'empty `{}`' }, { help: 'write `{{}}` for literal braces' }));
      } else {
        parts.push(parseExpression(unescapeQuotes(inner, quote), i + 1));
      }
      i = close + 1;
      textStart = i;
    } else {
      text += ch;
      i += 1;
    }
  }
  flushText(end);

  return { kind: 'TemplateString', parts, span: tokenSpan(token, lines) };
}

/** The `}` that closes an interpolation opened before `from`, skipping quoted strings. */
function findClosingBrace(source: string, from: number, end: number, outerQuote: string): number | undefined {
  let inString: string | undefined;
  for (let i = from; i < end; i++) {
    let ch = source[i]!;
    if (ch === '\\' && source[i + 1] === outerQuote) {
      ch = outerQuote;
      i += 1;
    }
    if (inString !== undefined) {
      if (ch === inString) inString = undefined;
    } else if (ch === '"' || ch === "'") {
      inString = ch;
    } else if (ch === '}') {
      return i;
    }
  }
  return undefined;
}

/**
 * The escaped outer quotes of an interpolation made plain, keeping the length so inner token
 * offsets stay file offsets: an opening `\"` becomes ` "`, a closing one `" `.
 */
function unescapeQuotes(inner: string, quote: string): string {
  if (!inner.includes(`\\${quote}`)) return inner;
  let out = '';
  let inString: string | undefined;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === '\\' && inner[i + 1] === quote) {
      out += inString === quote ? `${quote} ` : ` ${quote}`;
      inString = inString === quote ? undefined : inString ?? quote;
      i += 1;
    } else {
      if (ch === '"' || ch === "'") inString = inString === ch ? undefined : inString ?? ch;
      out += ch;
    }
  }
  return out;
}
