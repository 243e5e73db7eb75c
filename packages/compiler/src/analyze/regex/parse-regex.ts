/**
 * A small parser for JavaScript regular expressions without the `u` flag (ECMAScript
 * Annex B syntax: `{` that does not start a quantifier is a literal, unknown escapes are
 * identity escapes). It only runs on patterns `new RegExp` already accepted, so it does not
 * try to explain syntax errors: anything it does not understand returns `undefined`, and
 * the caller then makes no claim about the pattern.
 */
import {
  ANY_CHAR,
  DIGITS,
  DOT,
  WHITESPACE,
  WORD_CHARS,
  complement,
  foldAsciiCase,
  singleChar,
  union,
  charRange,
  type CharSet,
} from './char-set.js';
import type { RegexNode } from './regex-ast.js';

class Unsupported extends Error {}

export function parseRegex(source: string, flags = ''): RegexNode | undefined {
  try {
    const parser = new RegexParser(source, flags.includes('i'), flags.includes('s'));
    const node = parser.parseAlternation();
    return parser.atEnd() ? node : undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class RegexParser {
  private pos = 0;

  constructor(
    private readonly source: string,
    private readonly ignoreCase: boolean,
    private readonly dotAll: boolean,
  ) {}

  atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  parseAlternation(): RegexNode {
    const start = this.pos;
    const branches = [this.parseSequence()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.parseSequence());
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alternation', branches, start, end: this.pos };
  }

  private parseSequence(): RegexNode {
    const start = this.pos;
    const items: RegexNode[] = [];
    while (!this.atEnd() && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.parseQuantified());
    }
    return items.length === 1 ? items[0]! : { kind: 'sequence', items, start, end: this.pos };
  }

  private parseQuantified(): RegexNode {
    const atom = this.parseAtom();
    const bounds = this.parseQuantifier();
    if (bounds === undefined) return atom;
    if (atom.kind === 'assertion') throw new Unsupported();
    if (this.peek() === '?') this.pos++; // lazy: backtracks over the same choices
    return { kind: 'repeat', body: atom, min: bounds.min, max: bounds.max, start: atom.start, end: this.pos };
  }

  private parseQuantifier(): { min: number; max: number } | undefined {
    const char = this.peek();
    if (char === '*') return this.advance(1, { min: 0, max: Infinity });
    if (char === '+') return this.advance(1, { min: 1, max: Infinity });
    if (char === '?') return this.advance(1, { min: 0, max: 1 });
    if (char !== '{') return undefined;
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
    if (!match) return undefined; // Annex B: a literal `{`
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    return this.advance(match[0].length, { min, max });
  }

  private advance<T>(count: number, value: T): T {
    this.pos += count;
    return value;
  }

  private parseAtom(): RegexNode {
    const start = this.pos;
    const char = this.source[this.pos]!;
    switch (char) {
      case '(':
        return this.parseGroup();
      case '[':
        return this.chars(this.parseClass(), start);
      case '.':
        this.pos++;
        return this.chars(this.dotAll ? ANY_CHAR : DOT, start);
      case '^':
      case '$':
        this.pos++;
        return { kind: 'assertion', start, end: this.pos };
      case '\\':
        return this.parseEscape();
      case '*':
      case '+':
      case '?':
        throw new Unsupported(); // a quantifier with nothing to repeat: RegExp rejects it
      default:
        this.pos++;
        return this.chars(singleChar(char.charCodeAt(0)), start);
    }
  }

  private chars(set: CharSet, start: number): RegexNode {
    return { kind: 'chars', set: this.ignoreCase ? foldAsciiCase(set) : set, start, end: this.pos };
  }

  private parseGroup(): RegexNode {
    const start = this.pos;
    const rest = this.source.slice(this.pos);
    const opener = /^\((\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(rest)!;
    const kind = opener[2];
    if (rest.startsWith('(?') && kind === undefined) throw new Unsupported();
    this.pos += opener[0].length;
    const body = this.parseAlternation();
    if (this.peek() !== ')') throw new Unsupported();
    this.pos++;
    const lookaround = kind === '=' || kind === '!' || kind === '<=' || kind === '<!';
    return { kind: 'group', body, lookaround, start, end: this.pos };
  }

  private parseEscape(): RegexNode {
    const start = this.pos;
    this.pos++; // the backslash
    const char = this.source[this.pos];
    if (char === undefined) throw new Unsupported();
    if (char === 'b' || char === 'B') {
      this.pos++;
      return { kind: 'assertion', start, end: this.pos };
    }
    if (/[1-9]/.test(char)) {
      while (/[0-9]/.test(this.peek() ?? '')) this.pos++;
      return { kind: 'backreference', start, end: this.pos };
    }
    if (char === 'k' && this.source[this.pos + 1] === '<') {
      const close = this.source.indexOf('>', this.pos);
      if (close < 0) throw new Unsupported();
      this.pos = close + 1;
      return { kind: 'backreference', start, end: this.pos };
    }
    return this.chars(this.parseCharacterEscape(false), start);
  }

  /** After the backslash: a class escape or one character. Advances past it. */
  private parseCharacterEscape(inClass: boolean): CharSet {
    const char = this.source[this.pos]!;
    this.pos++;
    switch (char) {
      case 'd':
        return DIGITS;
      case 'D':
        return complement(DIGITS);
      case 'w':
        return WORD_CHARS;
      case 'W':
        return complement(WORD_CHARS);
      case 's':
        return WHITESPACE;
      case 'S':
        return complement(WHITESPACE);
      case 'n':
        return singleChar(0x0a);
      case 'r':
        return singleChar(0x0d);
      case 't':
        return singleChar(0x09);
      case 'f':
        return singleChar(0x0c);
      case 'v':
        return singleChar(0x0b);
      case 'b':
        return inClass ? singleChar(0x08) : singleChar('b'.charCodeAt(0));
      case '0':
        return singleChar(0);
      case 'c': {
        const letter = this.source[this.pos];
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          this.pos++;
          return singleChar(letter.charCodeAt(0) % 32);
        }
        this.pos--; // Annex B: `\c` without a letter is a backslash followed by `c`
        return singleChar('\\'.charCodeAt(0));
      }
      case 'x':
        return this.hexEscape(2) ?? singleChar('x'.charCodeAt(0));
      case 'u':
        return this.hexEscape(4) ?? singleChar('u'.charCodeAt(0));
      default:
        return singleChar(char.charCodeAt(0));
    }
  }

  private hexEscape(digits: number): CharSet | undefined {
    const hex = this.source.slice(this.pos, this.pos + digits);
    if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
    this.pos += digits;
    return singleChar(parseInt(hex, 16));
  }

  private parseClass(): CharSet {
    this.pos++; // [
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const parts: CharSet[] = [];
    while (this.peek() !== ']') {
      if (this.atEnd()) throw new Unsupported();
      const first = this.parseClassAtom();
      if (this.peek() === '-' && this.source[this.pos + 1] !== ']' && this.source[this.pos + 1] !== undefined) {
        const dash = this.pos;
        this.pos++;
        const second = this.parseClassAtom();
        const lo = single(first);
        const hi = single(second);
        if (lo !== undefined && hi !== undefined) {
          parts.push(charRange(lo, hi));
          continue;
        }
        // Annex B: `[\d-z]` is `\d`, `-` and `z`.
        parts.push(first, singleChar(this.source.charCodeAt(dash)), second);
        continue;
      }
      parts.push(first);
    }
    this.pos++; // ]
    const set = this.ignoreCase ? foldAsciiCase(union(...parts)) : union(...parts);
    return negated ? complement(set) : set;
  }

  private parseClassAtom(): CharSet {
    const char = this.source[this.pos]!;
    if (char === '\\') {
      this.pos++;
      if (this.atEnd()) throw new Unsupported();
      return this.parseCharacterEscape(true);
    }
    this.pos++;
    return singleChar(char.charCodeAt(0));
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }
}

/** The code unit of a one-character set, else `undefined` (a class escape like `\d`). */
function single(set: CharSet): number | undefined {
  const only = set.length === 1 ? set[0] : undefined;
  return only !== undefined && only[0] === only[1] ? only[0] : undefined;
}
