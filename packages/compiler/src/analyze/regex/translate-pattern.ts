/**
 * SEC patterns → JavaScript regular expressions.
 *
 * SEC contracts write patterns for Python's `re` (docs/spec/skill-contract.md: `(?i)(injury|pain|hurt|damage)`,
 * `\d+(\.\d+)?\s*(fatigue|tired)`), with a backslash taken literally. The translation:
 *
 * - Leading inline flag groups `(?i)`, `(?m)`, `(?s)`, `(?im)`, … become the `i`, `m`, `s`
 *   flags; an inline flag group anywhere else (or a scoped one, `(?i:…)`) is rejected, since
 *   JavaScript has no inline flags.
 * - Python's named groups `(?P<name>…)` / `(?P=name)` become `(?<name>…)` / `\k<name>`.
 * - No `u` flag. Python accepts escaped punctuation anywhere (`\-`, `\'`, `\ `, `\#`), and
 *   so does JavaScript without `u`, while `u` rejects it as an invalid escape: with `u`,
 *   valid contract patterns would fail to build. `\d`, `\s`, `\w`, `\b` mean the same with or
 *   without `u`. What we give up: `.` and classes see an astral character (emoji) as two
 *   code units, which no SEC pattern depends on. The one silent change non-`u` mode would
 *   make, an unknown letter escape read as the letter (`\p{L}` as `p{L}`, Python's `\A`,
 *   `\Z` as `A`, `Z`), is rejected here with a problem instead.
 * - What JavaScript would reject or read differently from the dialects contracts are written
 *   in (Python, PCRE) is rejected at its position in the pattern: `{,4}` (0 to 4 times in
 *   Python, the literal text `{,4}` in JavaScript), possessive quantifiers (`a++`) and atomic
 *   groups (`(?>…)`), comments `(?#…)`, and `\\d`, a backslash escaped as JSON escapes it,
 *   which is a literal backslash and `d` here, where backslashes are literal.
 * - The result is validated with `new RegExp`; its error message becomes the problem, placed
 *   in the pattern by locate-regex-error.ts where it can be.
 */
import { locateRegexError } from './locate-regex-error.js';

/** Where in the pattern as written (leading flags included) a problem is, when it is known. */
export interface PatternPosition {
  readonly index: number;
  readonly length: number;
}

export type TranslatedPattern =
  | { readonly source: string; readonly flags: string }
  | { readonly problem: string; readonly at?: PatternPosition };

const SUPPORTED_FLAGS: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's' };

/** Letters JavaScript gives a meaning after a backslash (outside and inside classes). */
const KNOWN_LETTER_ESCAPES = new Set('dDwWsSbBnrtfvcxuk');

export function translatePattern(pattern: string): TranslatedPattern {
  const leading = leadingFlags(pattern);
  if ('problem' in leading) return leading;
  const body = translateBody(pattern.slice(leading.length));
  if ('problem' in body) return { problem: body.problem, at: { index: leading.length + body.at.index, length: body.at.length } };
  const flags = [...new Set(leading.flags)].sort().join('');
  try {
    new RegExp(body.source, flags);
  } catch (error) {
    const problem = regExpProblem(error, body.source, flags);
    // Placed only when the body went to JavaScript as written: its positions are the pattern's.
    const at = body.source === pattern.slice(leading.length) ? locateRegexError(body.source, problem) : undefined;
    return at === undefined ? { problem } : { problem, at: { index: leading.length + at.index, length: at.length } };
  }
  return { source: body.source, flags };
}

function leadingFlags(pattern: string): { flags: string[]; length: number } | { problem: string; at: PatternPosition } {
  const flags: string[] = [];
  let length = 0;
  for (;;) {
    const group = /^\(\?([A-Za-z]+)\)/.exec(pattern.slice(length));
    if (!group) return { flags, length };
    for (const letter of group[1]!) {
      const flag = SUPPORTED_FLAGS[letter];
      if (flag === undefined) return { problem: `unsupported inline flag \`${letter}\` in \`${group[0]}\`: only i, m and s are supported`, at: { index: length, length: group[0].length } };
      flags.push(flag);
    }
    length += group[0].length;
  }
}

/** Rewrites Python-only group syntax and rejects what JavaScript would misread. */
function translateBody(body: string): { source: string } | { problem: string; at: PatternPosition } {
  let source = '';
  let inClass = false;
  // Whether the last thing read repeats the atom before it (`*`, `+`, `?`, `{2,3}`).
  let afterQuantifier = false;
  const problem = (text: string, index: number, length: number) => ({ problem: text, at: { index, length } });
  for (let pos = 0; pos < body.length; ) {
    const char = body[pos]!;
    const rest = body.slice(pos);
    if (char === '\\') {
      const next = body[pos + 1];
      if (next !== undefined && /[A-Za-z]/.test(next) && !KNOWN_LETTER_ESCAPES.has(next)) {
        return problem(`unsupported escape \`\\${next}\``, pos, 2);
      }
      const letter = body[pos + 2];
      if (next === '\\' && letter !== undefined && KNOWN_LETTER_ESCAPES.has(letter)) {
        return problem(
          `\`\\\\${letter}\` is a backslash followed by \`${letter}\`: a backslash in an adec string is literal, so \`\\${letter}\` is written with one (a pattern copied from JSON has each doubled)`,
          pos,
          3,
        );
      }
      source += body.slice(pos, pos + 2);
      pos += 2;
      afterQuantifier = false;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\^?)([A-Za-z]+):\]/.exec(rest);
      if (posix !== null) return problem(posixClassProblem(posix[0], posix[2]!, posix[1] === '^'), pos, posix[0].length);
      if (char === ']') inClass = false;
    } else if (char === '[') {
      // `]` right after `[` or `[^` is a literal in Python; JavaScript reads `[]` as empty.
      const opener = body[pos + 1] === '^' ? '[^' : '[';
      inClass = true;
      afterQuantifier = false;
      source += opener;
      pos += opener.length;
      if (body[pos] === ']') {
        source += '\\]';
        pos++;
      }
      continue;
    } else if (char === '(' && body[pos + 1] === '?') {
      afterQuantifier = false;
      const inlineFlags = /^\(\?([A-Za-z]+(-[A-Za-z]*)?|-[A-Za-z]+)[):]/.exec(rest);
      if (inlineFlags !== null && !/^\(\?P[<=]/.test(rest)) return problem('inline flags are only supported at the start of a pattern', pos, inlineFlags[0].length);
      if (rest.startsWith('(?>')) return problem('JavaScript has no atomic groups `(?>…)`: write a plain group `(…)`', pos, 3);
      if (rest.startsWith('(?#')) return problem('JavaScript has no comments `(?#…)` in patterns: remove it', pos, 3);
      const named = /^\(\?P<([A-Za-z_]\w*)>/.exec(rest);
      if (named) {
        source += `(?<${named[1]}>`;
        pos += named[0].length;
        continue;
      }
      const backreference = /^\(\?P=([A-Za-z_]\w*)\)/.exec(rest);
      if (backreference) {
        source += `\\k<${backreference[1]}>`;
        pos += backreference[0].length;
        continue;
      }
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` is no quantifier.
      source += '(?';
      pos += 2;
      continue;
    } else if (char === '{') {
      const quantifier = /^\{(\d*)(,\d*)?\}/.exec(rest);
      if (quantifier !== null && quantifier[1] === '' && quantifier[2] !== undefined) {
        return problem(`\`${quantifier[0]}\` repeats 0 to ${quantifier[2].slice(1) || 'any number of'} times in Python but is the text \`${quantifier[0]}\` in JavaScript: write \`{0${quantifier[2]}}\``, pos, quantifier[0].length);
      }
      if (quantifier !== null && quantifier[1] !== '') {
        source += quantifier[0];
        pos += quantifier[0].length;
        afterQuantifier = true;
        continue;
      }
    } else if (char === '+' && afterQuantifier) {
      return problem(`JavaScript has no possessive quantifiers (\`${body[pos - 1]}+\`): drop the \`+\``, pos, 1);
    } else if (char === '*' || char === '+' || char === '?') {
      // `?` right after a quantifier makes it lazy, which JavaScript reads as Python does.
      const lazy: boolean = char === '?' && afterQuantifier;
      source += char;
      pos++;
      afterQuantifier = !lazy;
      continue;
    }
    afterQuantifier = false;
    source += char;
    pos++;
  }
  return { source };
}

/** What each POSIX class matches, written as a class's contents both dialects read alike. */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
};

/**
 * `[[:alpha:]]` is a POSIX bracket expression, which neither JavaScript nor Python's `re` knows:
 * both read `[[:alpha:]` as a class of the characters `[`, `:`, `a`, `l`, `p`, `h` followed by
 * a literal `]`, so the pattern quietly matches something else.
 */
function posixClassProblem(written: string, name: string, negated: boolean): string {
  const contents = POSIX_CLASSES[name.toLowerCase()];
  const instead = contents === undefined ? 'list the characters instead, e.g. `A-Za-z`' : `write \`${negated ? '^' : ''}${contents}\` in its place`;
  return `\`${written}\` ${contents === undefined ? 'looks like' : 'is'} a POSIX class, which JavaScript (like Python) does not know: inside \`[…]\` it is read as the characters \`[:${negated ? '^' : ''}${name}:\` and the class ends early; ${instead}`;
}

/**
 * `Invalid regular expression: /(abc/: Unterminated group` → `unterminated group`: the
 * catalogue message (ADEC3008) already says "invalid regular expression".
 */
function regExpProblem(error: unknown, source: string, flags: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const exactPrefix = `Invalid regular expression: /${source}/${flags}: `;
  const detail = message.startsWith(exactPrefix)
    ? message.slice(exactPrefix.length)
    : message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '');
  const trimmed = detail.trim();
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}
