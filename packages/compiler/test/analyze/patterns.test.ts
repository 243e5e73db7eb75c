import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtrackingRisk, translatePattern } from '../../src/analyze/index.js';

describe('translatePattern', () => {
  it.each([
    // SEC examples (docs/spec/skill-contract.md), backslashes literal as written in the contract
    ['(?i)(injury|pain|hurt|damage)', '(injury|pain|hurt|damage)', 'i'],
    ['(?i)(weight loss|lose weight|burn fat)', '(weight loss|lose weight|burn fat)', 'i'],
    ['\\d+(\\.\\d+)?\\s*(fatigue|tired)', '\\d+(\\.\\d+)?\\s*(fatigue|tired)', ''],
    ['(?i)(i recommend|you should|instead of)', '(i recommend|you should|instead of)', 'i'],
    ['\\d+%', '\\d+%', ''],
    ['^\\d{3}-\\d{4}$', '^\\d{3}-\\d{4}$', ''],
    // other leading flag groups, merged and sorted
    ['(?s)a.b', 'a.b', 's'],
    ['(?m)^x$', '^x$', 'm'],
    ['(?im)^x', '^x', 'im'],
    ['(?i)(?s)x', 'x', 'is'],
    // Python-style escaped punctuation stays valid (the reason there is no `u` flag)
    ['a\\-b\\ c\\\'', 'a\\-b\\ c\\\'', ''],
    // Python named groups
    ['(?P<word>\\w+) (?P=word)', '(?<word>\\w+) \\k<word>', ''],
    // `]` first in a class is a literal in Python
    ['[]a]', '[\\]a]', ''],
    // a non-capturing group is not an inline flag
    ['(?:ab)+', '(?:ab)+', ''],
  ])('%s → /%s/%s', (pattern, source, flags) => {
    expect(translatePattern(pattern)).toEqual({ source, flags });
  });

  // JavaScript's own syntax errors, placed in the pattern: `new RegExp` says what, not where.
  it.each([
    ['(abc', 0, 1, 'unterminated group'],
    ['^(a(b)c[(]d$', 1, 1, 'unterminated group'],
    ['ab)c', 2, 1, "unmatched ')'"],
    ['(a)|b)', 5, 1, "unmatched ')'"],
    ['a[bc', 1, 1, 'unterminated character class'],
    ['a{2,1}', 1, 5, 'numbers out of order in {} quantifier'],
    ['x{1,3}y{9,2}', 7, 5, 'numbers out of order in {} quantifier'],
    ['(?i)[b-a]', 5, 3, 'range out of order in character class'],
    ['[a-c\\-x-z9-0]', 9, 3, 'range out of order in character class'],
    ['*a', 0, 1, 'nothing to repeat'],
    ['a|+b', 2, 1, 'nothing to repeat'],
    ['(?i)(+a)', 5, 1, 'nothing to repeat'],
    ['a**', 2, 1, 'nothing to repeat'],
  ])('%s is rejected at %i (%i characters): %s', (pattern, index, length, problem) => {
    expect(translatePattern(pattern)).toEqual({ problem, at: { index, length } });
  });

  it('places every error it places inside the pattern, and never throws (property over regex-like text)', () => {
    const piece = fc.constantFrom('(', ')', '[', ']', '{', '}', '{2,1}', '{1,3}', '*', '+', '?', '|', '\\', '-', 'a', 'z', '0', '9', '^', '$', '(?', '(?:', '(?<n>', ':', 'b-a');
    let placed = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')), (pattern) => {
        const translated = translatePattern(pattern);
        if (!('problem' in translated) || translated.at === undefined) return;
        placed++;
        expect(translated.at.index).toBeGreaterThanOrEqual(0);
        expect(translated.at.length).toBeGreaterThan(0);
        expect(translated.at.index + translated.at.length).toBeLessThanOrEqual(pattern.length);
      }),
      { numRuns: 3_000, seed: 1_013 },
    );
    expect(placed).toBeGreaterThan(1_000);
  });

  it('leaves an error it cannot place on the whole pattern', () => {
    expect(translatePattern('(?<1a>x)')).toEqual({ problem: 'invalid capture group name' });
  });

  // What JavaScript rejects or reads differently from Python and PCRE, at its place in the pattern.
  it.each([
    ['a(?i)b', 1, 4, 'inline flags are only supported at the start of a pattern'],
    ['(?i:ab)', 0, 4, 'inline flags are only supported at the start of a pattern'],
    ['x(?-i:ab)', 1, 5, 'inline flags are only supported at the start of a pattern'],
    ['(?x)a b', 0, 4, 'unsupported inline flag `x` in `(?x)`: only i, m and s are supported'],
    ['(?i)(?x)a', 4, 4, 'unsupported inline flag `x` in `(?x)`: only i, m and s are supported'],
    ['\\p{L}+', 0, 2, 'unsupported escape `\\p`'],
    ['\\Aabc\\Z', 0, 2, 'unsupported escape `\\A`'],
    ['\\d{,4} days', 2, 4, '`{,4}` repeats 0 to 4 times in Python but is the text `{,4}` in JavaScript: write `{0,4}`'],
    ['(?i)a{,}', 5, 3, '`{,}` repeats 0 to any number of times in Python but is the text `{,}` in JavaScript: write `{0,}`'],
    ['\\d++', 3, 1, 'JavaScript has no possessive quantifiers (`++`): drop the `+`'],
    ['a*+b', 2, 1, 'JavaScript has no possessive quantifiers (`*+`): drop the `+`'],
    ['a?+', 2, 1, 'JavaScript has no possessive quantifiers (`?+`): drop the `+`'],
    ['x{2,3}+', 6, 1, 'JavaScript has no possessive quantifiers (`}+`): drop the `+`'],
    ['(?>ab|a)c', 0, 3, 'JavaScript has no atomic groups `(?>…)`: write a plain group `(…)`'],
    ['x(?#note)y', 1, 3, 'JavaScript has no comments `(?#…)` in patterns: remove it'],
    ['\\\\d+ days', 0, 3, '`\\\\d` is a backslash followed by `d`: a backslash in an adec string is literal, so `\\d` is written with one (a pattern copied from JSON has each doubled)'],
    ['[\\\\s]', 1, 3, '`\\\\s` is a backslash followed by `s`: a backslash in an adec string is literal, so `\\s` is written with one (a pattern copied from JSON has each doubled)'],
  ])('%s is rejected at %i (%i characters): %s', (pattern, index, length, problem) => {
    expect(translatePattern(pattern)).toEqual({ problem, at: { index, length } });
  });

  it.each([
    // lazy quantifiers read the same in both dialects
    ['a+?b*?c??d{2,3}?', 'a+?b*?c??d{2,3}?'],
    // `+` after a group, a class or a literal `{` is an ordinary quantifier
    ['(ab)+[cd]+x{+', '(ab)+[cd]+x{+'],
    // lookarounds and named groups: their `?` is no quantifier
    ['(?=a)+', '(?=a)+'],
    ['(?<n>a)+', '(?<n>a)+'],
    // `+` inside a class, an escaped backslash before a non-letter
    ['[a+]+\\\\.', '[a+]+\\\\.'],
  ])('%s is accepted as JavaScript reads it', (pattern, source) => {
    expect(translatePattern(pattern)).toEqual({ source, flags: '' });
  });

  it('produces patterns that behave like the SEC intends', () => {
    const translated = translatePattern('(?i)(injury|pain|hurt|damage)');
    if (!('source' in translated)) throw new Error('expected a pattern');
    const pattern = new RegExp(translated.source, translated.flags);
    expect(pattern.test('No PAIN today')).toBe(true);
    expect(pattern.test('Great session')).toBe(false);
    const fatigue = translatePattern('\\d+(\\.\\d+)?\\s*(fatigue|tired)');
    if (!('source' in fatigue)) throw new Error('expected a pattern');
    expect(new RegExp(fatigue.source, fatigue.flags).test('fatigue at 7.5 tired')).toBe(true);
  });
});

describe('POSIX classes in a pattern', () => {
  // Generated: every POSIX class name, negated or not, first or later in a class, in a class that
  // is itself negated or not, before and after other pattern text.
  const names = ['alpha', 'digit', 'alnum', 'upper', 'lower', 'space', 'word', 'xdigit', 'punct', 'cntrl', 'print', 'graph', 'blank'];
  const cases = names.flatMap((name) =>
    ['', '^'].flatMap((negated) =>
      [
        ['[', ']'],
        ['[^', ']'],
        ['[a-z', '_]'],
        ['[', '0-9]'],
      ].flatMap(([open, close]) => ['', '(?i)\\d+ '].map((prefix) => ({ name, written: `[:${negated}${name}:]`, pattern: `${prefix}${open}[:${negated}${name}:]${close}+$`, index: prefix.length + open!.length }))),
    ),
  );
  it.each(cases)('refuses $pattern at the class, with what to write instead', ({ name, written, pattern, index }) => {
    const translated = translatePattern(pattern);
    expect(translated).toMatchObject({ problem: expect.stringContaining(`\`${written}\``), at: { index, length: written.length } });
    const known = ['alpha', 'digit', 'alnum', 'upper', 'lower', 'space', 'word', 'xdigit'].includes(name);
    expect((translated as { problem: string }).problem).toMatch(known ? /is a POSIX class, .* write `\^?[^`]+` in its place$/ : /looks like a POSIX class, .* list the characters instead/);
  });

  it('keeps a class that only contains `[` or `:` as JavaScript reads it', () => {
    for (const pattern of ['[[]x]', '[:a]', '[[:]', 'a[:]b', '[x:y:]']) expect(translatePattern(pattern), pattern).toMatchObject({ source: expect.any(String) });
  });
});

describe('backtrackingRisk', () => {
  it.each([
    // nested quantifiers
    ['(a+)+', 'nested quantifier', '`(a+)+`'],
    ['(a*)*', 'nested quantifier', '`(a*)*`'],
    ['^(\\w+\\s?)*$', 'nested quantifier', '`(\\w+\\s?)*`'],
    ['(.*a)+', 'nested quantifier', '`(.*a)+`'],
    ['(\\d+)*x', 'nested quantifier', '`(\\d+)*`'],
    ['^(\\s*\\w+)*$', 'nested quantifier', '`(\\s*\\w+)*`'],
    ['(a[a-z]+)*', 'nested quantifier', '`(a[a-z]+)*`'],
    ['(?:x|(?:a+b?))+', 'nested quantifier', '`(?:x|(?:a+b?))+`'],
    ['(\\d+(\\.\\d+)?)+', 'nested quantifier', '`(\\d+(\\.\\d+)?)+`'],
    ['([a-z]+){3,}', 'nested quantifier', '`([a-z]+){3,}`'],
    // overlapping alternatives under a repeat
    ['(a|a)*', 'overlapping alternatives', '`a` and `a`'],
    ['(a|ab)*', 'overlapping alternatives', '`a` and `ab`'],
    ['(\\d|\\d\\d)+', 'overlapping alternatives', '`\\d` and `\\d\\d`'],
    ['(?:cat|[a-z]at)+', 'overlapping alternatives', '`cat` and `[a-z]at`'],
    ['(\\w|\\d)+$', 'overlapping alternatives', '`\\w` and `\\d`'],
  ])('%s is flagged (%s)', (source, kind, quoted) => {
    const risk = backtrackingRisk(source);
    expect(risk).toBeDefined();
    expect(risk).toContain(kind);
    expect(risk).toContain(quoted);
  });

  it('names the offending sub-pattern', () => {
    expect(backtrackingRisk('^x(a+)+y$')).toBe(
      'nested quantifier: `(a+)+` repeats a group that itself repeats (`a+`), so the same text can be split between iterations in exponentially many ways',
    );
    expect(backtrackingRisk('(a|ab)*c')).toBe(
      'overlapping alternatives: `(a|ab)*` repeats a choice between `a` and `ab`, which can match the same text',
    );
  });

  it('applies the case-insensitive flag to overlaps', () => {
    expect(backtrackingRisk('(a|A)+')).toBeUndefined();
    expect(backtrackingRisk('(a|A)+', 'i')).toContain('overlapping alternatives');
  });

  it.each([
    // SEC patterns (after translation)
    '(injury|pain|hurt|damage)',
    '(weight loss|lose weight|burn fat)',
    '(i recommend|you should|instead of)',
    '\\d+(\\.\\d+)?\\s*(fatigue|tired)',
    '\\d+ minutes',
    '\\d+%',
    '^\\d{3}-\\d{4}$',
    // a literal separator the inner repeat cannot match makes each split forced
    '^[a-z]+(-[a-z]+)*$',
    '^\\w+(\\.\\w+)*@\\w+(\\.\\w+)+$',
    '(?:\\s*,\\s*\\w+)*',
    // alternatives that never share a prefix
    '(cat|car)+',
    '(\\d|[a-z])+',
    '(ab|cd)*',
    // a quantifier on a group that repeats at most twice, or an optional group
    '(a+){2}',
    '(a+)?b',
    // adjacent repeats are polynomial, not reported
    '\\d+\\d+',
    '.*.*=.*',
    // escapes and classes the parser must read correctly
    '[\\]\\-]+x',
    'a{,5}b',
    '(?<=x)a+',
  ])('%s is not flagged', (source) => {
    expect(backtrackingRisk(source)).toBeUndefined();
  });

  it('makes no claim about patterns it cannot parse', () => {
    expect(backtrackingRisk('(a')).toBeUndefined();
  });
});
