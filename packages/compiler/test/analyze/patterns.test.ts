import { describe, expect, it } from 'vitest';
import { backtrackingRisk, translatePattern } from '../../src/analyze/index.js';

describe('translatePattern', () => {
  it.each([
    // SEC examples (seed 001), backslashes literal as written in the contract
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

  it.each([
    ['(abc', 'unterminated group'],
    ['a{2,1}', 'numbers out of order in {} quantifier'],
    ['(?i)[b-a]', 'range out of order in character class'],
    ['*a', 'nothing to repeat'],
    ['a(?i)b', 'inline flags are only supported at the start of a pattern'],
    ['(?i:ab)', 'inline flags are only supported at the start of a pattern'],
    ['x(?-i:ab)', 'inline flags are only supported at the start of a pattern'],
    ['(?x)a b', 'unsupported inline flag `x` in `(?x)`: only i, m and s are supported'],
    ['\\p{L}+', 'unsupported escape `\\p`'],
    ['\\Aabc\\Z', 'unsupported escape `\\A`'],
  ])('%s is rejected: %s', (pattern, problem) => {
    expect(translatePattern(pattern)).toEqual({ problem });
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
