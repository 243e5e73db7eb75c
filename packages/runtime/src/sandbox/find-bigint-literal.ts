/**
 * Where a script writes a BigInt literal (`1n`, `0xffn`, `1_000n`), if anywhere.
 *
 * Why: BigInt arithmetic is the one thing a predicate can do that the sandbox can neither
 * interrupt nor bound. A multiplication or shift of numbers of millions of bits is a single
 * V8 operation that ignores the time limit (a loop of shifts ran past a 2 s limit for over a
 * minute, in-process, isolated-vm 5.0.4), and squaring in a loop was stopped only by the memory
 * limit, 13 s in. The world language has no BigInt, so adec-built bundles never hold one; the
 * sandbox removes every other way to make one (the `BigInt` function, the 64-bit typed arrays,
 * DataView's 64-bit accessors, code generation from strings: isolate-prelude.ts), and the
 * loader refuses a bundle in which this finds a literal.
 *
 * The scan is conservative: whatever it cannot tell apart, it reads as code, so a literal can
 * only be missed if JavaScript itself would not run it. Strings, template text, comments and
 * regular-expression literals are skipped exactly as JavaScript skips them (a `//` comment ends
 * at any line terminator, U+2028 included; `${…}` inside a template is code). A `/` starts a
 * regular expression only after a token after which JavaScript allows nothing else (an
 * operator, an opening bracket, `return`…); after `)`, `]`, `}`, `++`, `--`, a name or a
 * literal it is read as division, which scans what follows as code. The price is a possible
 * false alarm on hand-written code, never a miss.
 */

/** Keywords after which a `/` can only begin a regular expression, by length. */
const KEYWORDS_BEFORE_EXPRESSION: readonly (readonly string[])[] = (() => {
  const byLength: string[][] = [];
  for (const keyword of ['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else']) {
    (byLength[keyword.length] ??= []).push(keyword);
  }
  return byLength;
})();

function isKeywordBeforeExpression(source: string, start: number, end: number): boolean {
  return KEYWORDS_BEFORE_EXPRESSION[end - start]?.some((keyword) => source.startsWith(keyword, start)) ?? false;
}

/**
 * The character codes the scan compares against. A plain object rather than an enum: the codes
 * are compared with `charCodeAt`'s numbers, which an enum would not share a type with.
 */
const Char = {
  LineFeed: 10,
  CarriageReturn: 13,
  DoubleQuote: 34,
  Dollar: 36,
  SingleQuote: 39,
  CloseParen: 41,
  Plus: 43,
  Minus: 45,
  Dot: 46,
  Slash: 47,
  Star: 42,
  Zero: 48,
  Nine: 57,
  OpenBracket: 91,
  Backslash: 92,
  CloseBracket: 93,
  Underscore: 95,
  Backtick: 96,
  LowerN: 110,
  OpenBrace: 123,
  CloseBrace: 125,
  LineSeparator: 0x2028,
  ParagraphSeparator: 0x2029,
} as const;

function isLineTerminator(c: number): boolean {
  return c === Char.LineFeed || c === Char.CarriageReturn || c === Char.LineSeparator || c === Char.ParagraphSeparator;
}

function isDigit(c: number): boolean {
  return c >= Char.Zero && c <= Char.Nine;
}

const NON_ASCII_SPACE = /\s/;

/** JavaScript's white space and line terminators (control characters too: V8 refuses them anyway). */
function isSpace(c: number): boolean {
  return c <= 32 || (c > 127 && NON_ASCII_SPACE.test(String.fromCharCode(c)));
}

/** A character that continues a name or a numeric literal (any non-ASCII non-space one counts: conservative). */
function isWordPart(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === Char.Dollar || c === Char.Underscore || c === Char.Backslash || (c > 127 && !isSpace(c));
}

/**
 * Anything that could be a BigInt literal, wherever it is (in a string or a comment too): a run
 * of word characters that starts with a digit after a non-word character and ends in `n`. The
 * lexer below reports only such runs, so where this finds none (every bundle adec builds,
 * unless a string in it reads like `7n`), the answer is known at the speed of a regular
 * expression: about 1 ms at 1,000 rules, where the lexer takes 60 ms cold.
 */
const CANDIDATE = /(?<![A-Za-z0-9_$\\])(?<![^\s\x00-\x7f])[0-9][A-Za-z0-9_$]*n(?![A-Za-z0-9_$\\])(?![^\s\x00-\x7f])/;

/** The offset of the first BigInt literal in `source`, or undefined when it has none. */
export function findBigIntLiteral(source: string): number | undefined {
  if (!CANDIDATE.test(source)) return undefined;
  const length = source.length;
  /** The brace depth at each open `${` of the templates we are inside. */
  const substitutions: number[] = [];
  let braces = 0;
  /** Whether a `/` here would be division (the previous token ends an operand). */
  let afterOperand = false;
  /** Whether the previous token is `.`: a keyword after it is a property name (`x.return / 2`). */
  let afterDot = false;
  let i = 0;
  while (i < length) {
    const c = source.charCodeAt(i);
    const next = source.charCodeAt(i + 1);
    if (isSpace(c)) {
      i++;
      continue;
    }
    let inTemplateText = false;
    if (c === Char.Slash && next === Char.Slash) {
      while (i < length && !isLineTerminator(source.charCodeAt(i))) i++;
      continue;
    } else if (c === Char.Slash && next === Char.Star) {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? length : end + 2;
      continue;
    } else if (isWordPart(c) && !isDigit(c)) {
      const start = i;
      while (i < length && isWordPart(source.charCodeAt(i))) i++;
      afterOperand = afterDot || !isKeywordBeforeExpression(source, start, i);
    } else if (isDigit(c) || (c === Char.Dot && isDigit(next))) {
      const start = i;
      i++;
      while (i < length && isWordPart(source.charCodeAt(i))) i++;
      if (source.charCodeAt(i - 1) === Char.LowerN) return start;
      afterOperand = true;
    } else if (c === Char.Slash && !afterOperand) {
      i = regexEnd(source, i + 1);
      while (i < length && isWordPart(source.charCodeAt(i))) i++; // flags
      afterOperand = true;
    } else if (c === Char.SingleQuote || c === Char.DoubleQuote) {
      i = stringEnd(source, i + 1, c);
      afterOperand = true;
    } else if (c === Char.Backtick) {
      i++;
      inTemplateText = true;
    } else if (c === Char.CloseBrace && substitutions.length > 0 && substitutions[substitutions.length - 1] === braces) {
      substitutions.pop();
      i++;
      inTemplateText = true;
    } else {
      if (c === Char.OpenBrace) braces++;
      else if (c === Char.CloseBrace) braces--;
      const incrementOrDecrement = (c === Char.Plus || c === Char.Minus) && next === c;
      afterOperand = c === Char.CloseParen || c === Char.CloseBracket || c === Char.CloseBrace || incrementOrDecrement;
      i += incrementOrDecrement ? 2 : 1;
    }
    if (inTemplateText) {
      i = templateTextEnd(source, i);
      // Either past the closing backtick (an operand ends) or past a `${` (code begins).
      afterOperand = source.charCodeAt(i - 1) === Char.Backtick;
      if (source.charCodeAt(i - 1) === Char.OpenBrace) substitutions.push(braces);
    }
    afterDot = c === Char.Dot;
  }
  return undefined;
}

/** The offset after template text starting at `i`: past its closing backtick or past a `${`. */
function templateTextEnd(source: string, i: number): number {
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === Char.Backslash) i += 2;
    else if (c === Char.Backtick) return i + 1;
    else if (c === Char.Dollar && source.charCodeAt(i + 1) === Char.OpenBrace) return i + 2;
    else i++;
  }
  return source.length;
}

/** The offset after a string literal whose body starts at `i` (or the end of the line: a syntax error). */
function stringEnd(source: string, i: number, quote: number): number {
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === Char.Backslash) i += 2;
    else if (c === quote) return i + 1;
    else if (c === Char.LineFeed || c === Char.CarriageReturn) return i;
    else i++;
  }
  return i;
}

/** The offset after a regular-expression body starting at `i` (a `/` inside `[…]` does not end it). */
function regexEnd(source: string, i: number): number {
  let inClass = false;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === Char.Backslash) i += 2;
    else if (isLineTerminator(c)) return i;
    else {
      if (c === Char.OpenBracket) inClass = true;
      else if (c === Char.CloseBracket) inClass = false;
      else if (c === Char.Slash && !inClass) return i + 1;
      i++;
    }
  }
  return i;
}
