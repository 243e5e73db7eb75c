import { describe, expect, it } from 'vitest';
import { parse, problems, render, whenExpr } from './helpers.js';

describe('words and symbols', () => {
  it('lexes GREEN-SKIP as one outcome, never as GREEN - SKIP', () => {
    const { file, diagnostics } = parse('action a { rule r { outcome GREEN-SKIP } on GREEN-SKIP { mode "skip" } }');
    expect(diagnostics).toEqual([]);
    expect(file.declarations[0]).toMatchObject({
      rules: [{ clauses: [{ kind: 'OutcomeClause', value: { kind: 'Word', text: 'GREEN-SKIP' } }] }],
      workFrames: [{ status: { kind: 'Word', text: 'GREEN-SKIP' } }],
    });
  });

  it('keeps invalid outcome spellings as written for the checker', () => {
    const { file } = parse('action a { rule r { outcome green severity "t1" } }');
    expect(file.declarations[0]).toMatchObject({
      rules: [{ clauses: [{ value: { text: 'green' } }, { value: { text: '"t1"' } }] }],
    });
  });

  it('matches keywords as whole words only', () => {
    expect(render(whenExpr('whenever and notable or iffy and android'))).toBe('((whenever and notable) or (iffy and android))');
    expect(render(whenExpr('action_id == rule_count'))).toBe('(action_id == rule_count)');
  });

  it('skips line and block comments', () => {
    const { file, diagnostics } = parse('// header\nworld { /* a\n multi-line */ org "acme" // trailing\n}');
    expect(diagnostics).toEqual([]);
    expect(file.declarations[0]).toMatchObject({ kind: 'WorldHeader', settings: [{ key: { name: 'org' } }] });
  });
});

describe('strings', () => {
  const value = (literal: string) => {
    const expr = whenExpr(`x == ${literal}`);
    if (expr.kind !== 'BinaryExpr' || expr.right.kind !== 'StringLiteral') throw new Error('not a string');
    return expr.right.value;
  };

  it('accepts double and single quotes', () => {
    expect(value('"child"')).toBe('child');
    expect(value("'child'")).toBe('child');
  });

  it('keeps backslashes literal except before the string’s own quote', () => {
    expect(value('"\\d+\\s"')).toBe('\\d+\\s');
    expect(value('"say \\"hi\\""')).toBe('say "hi"');
    expect(value("'it\\'s'")).toBe("it's");
    expect(value('"it\'s"')).toBe("it's");
    expect(value("'a \\\"b'")).toBe('a \\"b');
  });
});

describe('durations', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['18h', 64_800_000],
    ['7d', 604_800_000],
    ['1.5s', 1_500],
  ])('%s is %d milliseconds', (text, milliseconds) => {
    expect(whenExpr(`t > ${text}`)).toMatchObject({ right: { kind: 'DurationLiteral', milliseconds, text } });
  });
});

describe('lexical errors', () => {
  it('reports an unexpected character and goes on', () => {
    expect(problems('world { org "a" # domain "b" }')).toEqual(['1:17 ADEC1001 unexpected character `#`']);
    const { diagnostics } = parse('action a { rule r { when a && b } }');
    expect(diagnostics[0]).toMatchObject({ code: 'ADEC1001', help: 'use `and` to combine conditions' });
  });

  it('reports an unterminated string and parses the rest of the file', () => {
    const text = 'world {\n  org "acme\n  domain "d"\n}\naction a { rule r { outcome RED } }';
    const { file, diagnostics } = parse(text);
    expect(diagnostics.map((d) => [d.code, d.span.line, d.span.column, d.span.endColumn])).toEqual([['ADEC1002', 2, 7, 12]]);
    expect(file.declarations.map((d) => d.kind)).toEqual(['WorldHeader', 'ActionDecl']);
    expect(file.declarations[0]).toMatchObject({ settings: [{ value: { value: 'acme' } }, { value: { value: 'd' } }] });
  });

  it('reports an unterminated block comment once, without end-of-file noise', () => {
    expect(problems('world { org "a" }\n/* unfinished\naction a {')).toEqual(['2:1 ADEC1006 unterminated block comment']);
  });

  it('reports a duration with an unknown unit', () => {
    const { diagnostics } = parse('action a { rule r { timeout 5y } }');
    expect(diagnostics).toMatchObject([
      {
        code: 'ADEC1005',
        message: 'invalid duration `5y`: expected a number followed by ms, s, m, h or d',
        help: 'write years in days, e.g. `365d`',
        span: { line: 1, column: 29, endColumn: 31 },
      },
    ]);
  });

  it('reports numbers beyond the safe range', () => {
    expect(problems('action a { rule r { when x > 9007199254740993 } }')).toEqual([
      '1:30 ADEC1008 number `9007199254740993` is out of range',
    ]);
    expect(problems('action a { rule r { when x > 9007199254740991 } }')).toEqual([]);
  });

  it('reports several lexical errors in one run', () => {
    expect(problems('world {\n  org "a" @\n  timeout 10x\n  version "1\n}')).toEqual([
      '2:11 ADEC1001 unexpected character `@`',
      '3:11 ADEC1005 invalid duration `10x`: expected a number followed by ms, s, m, h or d',
      '4:11 ADEC1002 unterminated string literal',
    ]);
  });
});
