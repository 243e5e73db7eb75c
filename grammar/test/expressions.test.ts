import { describe, expect, it } from 'vitest';
import { parse, render, sliceOf, whenExpr } from './helpers.js';

const tree = (expr: string) => render(whenExpr(expr));

describe('expression precedence', () => {
  it('binds and tighter than or, not tighter than and', () => {
    expect(tree('a or b and not c')).toBe('(a or (b and (not c)))');
    expect(tree('a AND b OR c')).toBe('((a and b) or c)');
  });

  it('binds ?? tighter than comparisons', () => {
    expect(tree('x ?? 0 >= 5')).toBe('((x ?? 0) >= 5)');
  });

  it('makes ?? right-associative and looser than arithmetic', () => {
    expect(tree('a ?? b ?? c')).toBe('(a ?? (b ?? c))');
    expect(tree('a ?? b + 1 > 2')).toBe('((a ?? (b + 1)) > 2)');
  });

  it('orders arithmetic as usual, left-associative', () => {
    expect(tree('1 + 2 * 3 - 4 % 5 > x')).toBe('(((1 + (2 * 3)) - (4 % 5)) > x)');
    expect(tree('a - b - c == 0')).toBe('(((a - b) - c) == 0)');
  });

  it('applies not to a whole comparison', () => {
    expect(tree('not a == b')).toBe('(not (a == b))');
    expect(tree('not not a')).toBe('(not (not a))');
  });

  it('binds member access tighter than unary minus', () => {
    expect(tree('-a.b < 0')).toBe('((-a.b) < 0)');
    expect(tree('- -1 < x')).toBe('((-(-1)) < x)');
  });

  it('reads if/then/else and the SEC implication IF … THEN …', () => {
    expect(tree('if a then 1 else 2')).toBe('(if a then 1 else 2)');
    expect(tree("IF a IS NULL THEN b NOT CONTAINS 'x'")).toBe('(if (a IS NULL) then (b NOT CONTAINS "x"))');
  });

  it('parses calls of built-in functions, lists and parentheses', () => {
    expect(tree('clamp(x / 5, 0, 1) > max(a, b)')).toBe('(clamp((x / 5), 0, 1) > max(a, b))');
    expect(tree('(a or b) and c in ["x", "y"]')).toBe('((a or b) and (c in ["x", "y"]))');
    expect(tree('len([]) == 0')).toBe('(len([]) == 0)');
  });

  it('keeps literals with their values', () => {
    expect(tree('t > 18h and n == 2.5 and s == true and z == null')).toBe(
      '((((t > 64800000ms) and (n == 2.5)) and (s == true)) and (z == null))',
    );
    const number = whenExpr('26');
    expect(number).toMatchObject({ kind: 'NumberLiteral', value: 26, isInteger: true });
    expect(whenExpr('2.0')).toMatchObject({ kind: 'NumberLiteral', value: 2, isInteger: false });
    expect(whenExpr('1e3')).toMatchObject({ kind: 'NumberLiteral', value: 1000, isInteger: false });
  });

  it('rejects chained comparisons (non-associative)', () => {
    const { diagnostics } = parse('action a { rule r { when a < b < c } }');
    expect(diagnostics.map((d) => [d.code, d.span.column])).toEqual([['ADEC1003', 32]]);
  });
});

describe('SEC check operators, as Appendix A and B write them', () => {
  const checks: [string, string][] = [
    [
      'payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type]',
      '(payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type])',
    ],
    [
      "payload.rationale NOT MATCHES '\\d+(\\.\\d+)?\\s*(fatigue|tired)'",
      '(payload.rationale NOT MATCHES "\\\\d+(\\\\.\\\\d+)?\\\\s*(fatigue|tired)")',
    ],
    [
      "payload.rationale NOT CONTAINS_ANY ['guarantee', 'will definitely', 'proven to']",
      '(payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"])',
    ],
    ['payload.rationale CONTAINS "yoga"', '(payload.rationale CONTAINS "yoga")'],
    ['payload.rationale CONTAINS_ANY ["yoga", "stretch"]', '(payload.rationale CONTAINS_ANY ["yoga", "stretch"])'],
    ['payload.rationale NOT CONTAINS "score"', '(payload.rationale NOT CONTAINS "score")'],
    ['payload.rationale MATCHES "\\\\d+ minutes"', '(payload.rationale MATCHES "\\\\\\\\d+ minutes")'],
    ['payload.rationale NOT MATCHES "\\\\d+%"', '(payload.rationale NOT MATCHES "\\\\\\\\d+%")'],
    ['user_state.fatigue IS NULL', '(user_state.fatigue IS NULL)'],
    ['action_metadata.name IS NOT NULL', '(action_metadata.name IS NOT NULL)'],
    ['payload.tone EQUALS "supportive"', '(payload.tone EQUALS "supportive")'],
    ['payload.rationale LENGTH < 200', '(payload.rationale LENGTH < 200)'],
  ];

  it.each(checks)('%s', (check, expected) => {
    const { file, diagnostics } = parse(`skill s {\n  invariant "ID" "description": ${check}\n}`);
    expect(diagnostics).toEqual([]);
    const skill = file.declarations[0];
    if (skill?.kind !== 'SkillDecl') throw new Error('no skill');
    const invariant = skill.members[0];
    if (invariant?.kind !== 'InvariantDecl') throw new Error('no invariant');
    expect(render(invariant.check)).toBe(expected);
  });

  it('keeps backslashes literal in patterns, as written in the SEC documents', () => {
    const text = 'skill s { invariant "FIT-002" "d": payload.rationale NOT MATCHES "\\d+(\\.\\d+)?\\s*(fatigue|tired)" }';
    const skill = parse(text).file.declarations[0];
    if (skill?.kind !== 'SkillDecl' || skill.members[0]?.kind !== 'InvariantDecl') throw new Error('no invariant');
    const check = skill.members[0].check;
    if (check.kind !== 'BinaryExpr') throw new Error('not binary');
    expect(check.right).toMatchObject({ kind: 'StringLiteral', value: '\\d+(\\.\\d+)?\\s*(fatigue|tired)' });
  });

  it('records the span of the operator words, e.g. NOT CONTAINS', () => {
    const text = 'action a { rule r { when b NOT   CONTAINS "x" } }';
    const expr = whenExpr('b NOT   CONTAINS "x"');
    if (expr.kind !== 'BinaryExpr') throw new Error('not binary');
    expect(sliceOf(text, expr.operatorSpan)).toBe('NOT   CONTAINS');
    expect(sliceOf(text, expr.span)).toBe('b NOT   CONTAINS "x"');
    expect(expr.operatorSpan).toMatchObject({ line: 1, column: 28, endLine: 1, endColumn: 42 });
  });
});

describe('expression spans', () => {
  const text = 'action a { rule r { when not (x ?? 0) >= clamp(y, 0, 1) and -z.w IS NOT NULL } }';
  const expr = whenExpr('not (x ?? 0) >= clamp(y, 0, 1) and -z.w IS NOT NULL');

  it('covers the source text of each node', () => {
    if (expr.kind !== 'BinaryExpr') throw new Error('not binary');
    expect(sliceOf(text, expr.span)).toBe('not (x ?? 0) >= clamp(y, 0, 1) and -z.w IS NOT NULL');
    expect(sliceOf(text, expr.left.span)).toBe('not (x ?? 0) >= clamp(y, 0, 1)');
    expect(sliceOf(text, expr.right.span)).toBe('-z.w IS NOT NULL');
    if (expr.left.kind !== 'UnaryExpr' || expr.left.operand.kind !== 'BinaryExpr') throw new Error('shape');
    expect(sliceOf(text, expr.left.operand.right.span)).toBe('clamp(y, 0, 1)');
    expect(sliceOf(text, expr.left.operand.left.span)).toBe('x ?? 0');
  });
});
