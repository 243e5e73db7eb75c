import { describe, expect, it } from 'vitest';
import type { TemplateString } from '@adec/grammar';
import { parse, problems, sliceOf } from './helpers.js';

function reason(text: string): TemplateString {
  const action = parse(text).file.declarations[0];
  if (action?.kind !== 'ActionDecl') throw new Error('no action');
  const clause = action.rules[0]?.clauses[0];
  if (clause?.kind !== 'ReasonClause') throw new Error('no reason');
  return clause.template;
}

describe('interpolated strings', () => {
  it('splits text and expressions, with file positions for both', () => {
    const text = 'action a {\n  rule r {\n    reason "Age {dependent_age} of {payload.limit ?? 26}!"\n  }\n}';
    const template = reason(text);
    expect(template.parts.map((part) => [part.kind, sliceOf(text, part.span)])).toEqual([
      ['TemplateText', 'Age '],
      ['NameExpr', 'dependent_age'],
      ['TemplateText', ' of '],
      ['BinaryExpr', 'payload.limit ?? 26'],
      ['TemplateText', '!'],
    ]);
    expect(template.parts[1]!.span).toMatchObject({ line: 3, column: 18, endLine: 3, endColumn: 31 });
    expect(sliceOf(text, template.span)).toBe('"Age {dependent_age} of {payload.limit ?? 26}!"');
  });

  it('reads {{ and }} as literal braces', () => {
    const template = reason('action a { rule r { reason "{{literal}} and {x}" } }');
    expect(template.parts).toMatchObject([
      { kind: 'TemplateText', text: '{literal} and ' },
      { kind: 'NameExpr', name: 'x' },
    ]);
  });

  it('reads escaped quotes inside and outside interpolations', () => {
    const template = reason('action a { rule r { reason "say \\"{x ?? \\"none\\"}\\"" } }');
    expect(template.parts).toMatchObject([
      { kind: 'TemplateText', text: 'say "' },
      { kind: 'BinaryExpr', operator: '??', right: { kind: 'StringLiteral', value: 'none' } },
      { kind: 'TemplateText', text: '"' },
    ]);
  });

  it('allows braces inside quoted strings of an interpolation', () => {
    const template = reason("action a { rule r { reason \"{x ?? '}'}\" } }");
    expect(template.parts).toMatchObject([{ kind: 'BinaryExpr', right: { value: '}' } }]);
  });

  it('reports bad interpolations as ADEC1007 at the right place', () => {
    expect(problems('action a { rule r { reason "a {x +} b" } }')).toEqual([
      '1:35 ADEC1007 invalid interpolation in string: expected an expression before `}`',
    ]);
    expect(problems('action a { rule r { reason "a {x y} b" } }')).toEqual([
      '1:34 ADEC1007 invalid interpolation in string: expected `}`, found `y`',
    ]);
    expect(problems('action a { rule r { reason "a } b {} c {x" } }')).toEqual([
      '1:31 ADEC1007 invalid interpolation in string: unmatched `}`',
      '1:35 ADEC1007 invalid interpolation in string: empty `{}`',
      '1:40 ADEC1007 invalid interpolation in string: `{` is not closed',
    ]);
  });

  it('interpolates in prompts and skill templates too', () => {
    const { file, diagnostics } = parse('skill s { prompt "Hi {user}" template t { text: "{a} {b}" } }');
    expect(diagnostics).toEqual([]);
    expect(file.declarations[0]).toMatchObject({
      members: [
        { kind: 'SkillPrompt', template: { parts: [{ text: 'Hi ' }, { name: 'user' }] } },
        { kind: 'SkillTemplateDecl', fields: [{ template: { parts: [{ name: 'a' }, { text: ' ' }, { name: 'b' }] } }] },
      ],
    });
  });
});
