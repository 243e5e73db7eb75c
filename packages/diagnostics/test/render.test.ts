import { describe, expect, it } from 'vitest';
import { diagnostic, diagnosticToJson, renderDiagnostic, renderDiagnostics, sortDiagnostics, type Span } from '@adec/diagnostics';

const SOURCE = [
  'skill s {',
  '  invariant "FIT-009" "x":',
  '    payload.rationale CONTAINS_ANY action_metadata.duration_minutes',
  '}',
].join('\n');

function span(line: number, column: number, endColumn: number, file = 'world/rules.adec'): Span {
  return { file, line, column, endLine: line, endColumn, offset: line * 100 + column, endOffset: line * 100 + endColumn };
}

describe('renderDiagnostic', () => {
  it('prints location, code, excerpt, caret under the span, label and help', () => {
    const d = diagnostic(
      'ADEC3004',
      span(3, 36, 68),
      { op: 'CONTAINS_ANY', expected: 'list<string>', side: 'right', found: 'int' },
      { label: 'this is int', help: 'did you mean action_metadata.session_type?' },
    );
    expect(renderDiagnostic(d, () => SOURCE)).toBe(
      [
        'world/rules.adec:3:36: error ADEC3004: CONTAINS_ANY expects list<string> on the right, found int',
        '  |',
        '3 |     payload.rationale CONTAINS_ANY action_metadata.duration_minutes',
        `  | ${' '.repeat(35)}${'^'.repeat(32)} this is int`,
        '  = help: did you mean action_metadata.session_type?',
      ].join('\n'),
    );
  });

  it('underlines a span that runs past its line to the end of that line', () => {
    const d = diagnostic('ADEC1006', { ...span(2, 3, 1), endLine: 4 });
    const caretLine = renderDiagnostic(d, () => SOURCE).split('\n')[3];
    expect(caretLine).toBe(`  |   ${'^'.repeat(SOURCE.split('\n')[1]!.length - 2)}`);
  });

  it('shows the line the span is on whichever line endings the file uses (\\n, \\r\\n, a lone \\r)', () => {
    for (const ending of ['\n', '\r\n', '\r']) {
      const excerpt = renderDiagnostic(diagnostic('ADEC3004', span(3, 36, 68), { op: 'CONTAINS_ANY', expected: 'list<string>', side: 'right', found: 'int' }), () => SOURCE.split('\n').join(ending));
      expect(excerpt.split('\n')[2]).toBe('3 |     payload.rationale CONTAINS_ANY action_metadata.duration_minutes');
    }
  });

  it('still renders the header and notes when the source is unavailable', () => {
    const d = diagnostic('ADEC2010', span(1, 1, 2), { kind: 'rule', name: 'r1' }, { notes: ['first declared at a.adec:3:8'] });
    expect(renderDiagnostic(d, () => undefined)).toBe(
      'world/rules.adec:1:1: error ADEC2010: duplicate rule `r1`\n  = note: first declared at a.adec:3:8',
    );
  });

  it('ends a report with an error and warning count', () => {
    const report = renderDiagnostics(
      [diagnostic('ADEC5001', span(1, 1, 3)), diagnostic('ADEC2001', span(2, 1, 3), { name: 'x' })],
      () => SOURCE,
    );
    expect(report.endsWith('\n\n1 error, 1 warning\n')).toBe(true);
    expect(renderDiagnostics([], () => SOURCE)).toBe('');
  });
});

describe('diagnostic values', () => {
  it('sorts by file, then position, then code', () => {
    const a = diagnostic('ADEC2001', span(5, 1, 2, 'b.adec'), { name: 'x' });
    const b = diagnostic('ADEC3001', span(2, 1, 2, 'b.adec'), { expected: 'int', found: 'bool' });
    const c = diagnostic('ADEC2001', span(9, 1, 2, 'a.adec'), { name: 'y' });
    const d = diagnostic('ADEC2008', span(2, 1, 2, 'b.adec'), { name: 'f' });
    expect(sortDiagnostics([a, b, c, d]).map((x) => `${x.code}@${x.span.file}:${x.span.line}`)).toEqual([
      'ADEC2001@a.adec:9',
      'ADEC2008@b.adec:2',
      'ADEC3001@b.adec:2',
      'ADEC2001@b.adec:5',
    ]);
  });

  it('serializes to the documented JSON shape', () => {
    const d = diagnostic('ADEC3006', span(7, 28, 35), { value: 'chlid', type: '"child" | "spouse"' }, { help: 'did you mean "child"?' });
    expect(diagnosticToJson(d)).toEqual({
      code: 'ADEC3006',
      severity: 'error',
      file: 'world/rules.adec',
      line: 7,
      column: 28,
      endLine: 7,
      endColumn: 35,
      message: '"chlid" is not a member of "child" | "spouse"',
      help: 'did you mean "child"?',
    });
  });

  it('refuses to build a message with a missing template argument (a bug in adec)', () => {
    expect(() => diagnostic('ADEC2001', span(1, 1, 2))).toThrow('diagnostic template is missing argument "name"');
  });
});
