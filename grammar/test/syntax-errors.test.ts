import { describe, expect, it } from 'vitest';
import type { ActionDecl, SkillDecl, TestDecl } from '../src/index.js';
import { parse, problems, shape } from './helpers.js';

describe('syntax errors', () => {
  it('reports one error per broken clause and declaration in a single run', () => {
    const text = `world {
  org "acme"
}

action add_dependent {
  rule a {
    outcome GREEN
    when    age >
    reason  "r"
  }
  rule b {
    outcome RED
    severity t1
    when x ==
  }
}

skill s {
  version "1.0.0"
  timeout
  fallback other
}

scenario sc {
  objective o weight = 1
  default_mode skill_enhanced
}
`;
    expect(problems(text)).toEqual([
      '9:5 ADEC1003 expected an expression, found `reason`',
      '15:3 ADEC1003 expected an expression, found `}`',
      '21:3 ADEC1003 expected a duration, found `fallback`',
      '25:22 ADEC1003 expected a number, found `=`',
    ]);
    const { file } = parse(text);
    expect(file.declarations.map((d) => d.kind)).toEqual(['WorldHeader', 'ActionDecl', 'SkillDecl', 'ScenarioDecl']);
    const action = file.declarations[1];
    if (action?.kind !== 'ActionDecl') throw new Error('no action');
    expect(action.rules.map((r) => r.id.name)).toEqual(['a', 'b']);
    // The clause after the broken expression is still read.
    expect(action.rules[0]!.clauses.map((c) => c.kind)).toEqual(['OutcomeClause', 'WhenClause', 'ReasonClause']);
    expect(action.rules[0]!.clauses[1]).toMatchObject({
      condition: { kind: 'BinaryExpr', right: { kind: 'MissingExpr', span: { line: 8, column: 18 } } },
    });
  });

  it('does not let a missing } swallow the rest of the file', () => {
    const text = `action a {
  rule r {
    outcome GREEN
  rule s { outcome RED }
}
skill k { version "1.0.0" }
`;
    expect(problems(text)).toEqual([
      '4:3 ADEC1003 expected `}` or a rule clause (`outcome`, `severity`, `when`, …), found `rule`',
    ]);
    const { file } = parse(text);
    expect(file.declarations.map((d) => d.kind)).toEqual(['ActionDecl', 'SkillDecl']);
    expect(file.declarations[0]).toMatchObject({ rules: [{ id: { name: 'r' } }, { id: { name: 's' } }] });
  });

  it('resumes at the next declaration after a declaration missing its }', () => {
    const text = 'action a {\n  rule r { outcome GREEN\n\nskill k { version "1.0.0" }\ntest "t" { expect RED }';
    expect(problems(text)).toEqual([
      '4:1 ADEC1003 expected `}` or a rule clause (`outcome`, `severity`, `when`, …), found `skill`',
    ]);
    expect(parse(text).file.declarations.map((d) => d.kind)).toEqual(['ActionDecl', 'SkillDecl', 'TestDecl']);
  });

  it('skips stray text between declarations', () => {
    const text = 'world { org "a" }\nthis is not adec\naction a { rule r { outcome GREEN } }';
    expect(problems(text)).toEqual([
      '2:1 ADEC1003 expected a declaration (`world`, `context`, `action`, `skill`, `scenario` or `test`), found `this`',
    ]);
    expect(parse(text).file.declarations.map((d) => d.kind)).toEqual(['WorldHeader', 'ActionDecl']);
  });

  it('names the members a block accepts when it finds something else', () => {
    expect(problems('action a { rule r { outcome GREEN  colour blue } }')).toEqual([
      '1:36 ADEC1003 expected `}` or a rule clause (`outcome`, `severity`, `when`, …), found `colour`',
    ]);
    expect(problems('action a { rules r { } }')).toEqual([
      '1:12 ADEC1003 expected `}` or `aggregate`, `context`, `rule` or `on`, found `rules`',
    ]);
  });

  it('reports the end of the file as ADEC1004 at the last token', () => {
    const { diagnostics } = parse('action a {\n  rule r {\n    outcome GREEN\n');
    expect(diagnostics).toMatchObject([
      {
        code: 'ADEC1004',
        message: 'unexpected end of file: expected `}` or a rule clause (`outcome`, `severity`, `when`, …)',
        span: { line: 3, column: 18, endLine: 3, endColumn: 18 },
      },
    ]);
  });

  it('points at the offending token', () => {
    const { diagnostics } = parse('context {\n  supplied age int\n}');
    expect(diagnostics).toMatchObject([
      { code: 'ADEC1003', message: 'expected `:`, found `int`', span: { line: 2, column: 16, endLine: 2, endColumn: 19 } },
    ]);
  });

  it('reports a missing type as a type', () => {
    expect(problems('context { supplied age: = 3 }')).toEqual(['1:25 ADEC1003 expected a type, found `=`']);
  });

  it('reports each problem once, not its cascade', () => {
    const codes = parse('action a { rule r { when ( ( ( } }').diagnostics.map((d) => d.code);
    expect(codes).toEqual(['ADEC1003']);
  });

  it('leaves a placeholder, not a half-built operator, when recovery drops the word after NOT', () => {
    const { file, diagnostics } = parse("action a { rule r { when note NOT{ MATCHES 'x' } }");
    expect(diagnostics.map((d) => d.code)).toEqual(['ADEC1003']);
    const action = file.declarations[0];
    const clause = action?.kind === 'ActionDecl' ? action.rules[0]?.clauses[0] : undefined;
    expect(clause?.kind === 'WhenClause' && clause.condition.kind).toBe('MissingExpr');
  });

  it('never throws, even on binary garbage', () => {
    const garbage = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 0x3000)).join('');
    const { file, diagnostics } = parse(garbage);
    expect(file.kind).toBe('SourceFile');
    expect(diagnostics.length).toBeGreaterThan(0);
  });
});

describe('operators typeset by a document', () => {
  it.each([
    ['≥', '>='],
    ['≤', '<='],
    ['≠', '!='],
  ])('`%s` is one ADEC1001 with `%s` to write, and reads as that operator', (typeset, operator) => {
    const typed = parse(`action a { rule r { when amount ${typeset} 100 } }`);
    expect(typed.diagnostics.map((d) => [d.code, d.span.column, d.help])).toEqual([['ADEC1001', 33, `write \`${operator}\``]]);
    expect(shape(typed.file)).toEqual(shape(parse(`action a { rule r { when amount ${operator} 100 } }`).file));
  });
});

describe('a work frame value left unquoted', () => {
  // Generated: every work frame field, unquoted, followed by another field, by a list field, or
  // by the frame's end.
  const fields = ['mode', 'next_action', 'required_output', 'next_human_owner'];
  const after = ['    next_action "retry"\n', '    forbidden_actions ["add_dependent"]\n', ''];
  const cases = fields.flatMap((field) => after.map((next) => [field, next] as const));
  it.each(cases)('`%s review` is one error that says to quote it, and the frame parses on (then: %j)', (field, next) => {
    const text = `action a {\n  on YELLOW {\n    ${field} review\n${next}  }\n}\n`;
    expect(problems(text)).toEqual(['3:' + String(field.length + 6) + ' ADEC1003 expected a string, found `review`']);
    const { file, diagnostics } = parse(text);
    expect(diagnostics[0]!.help).toBe('quote it: `"review"`');
    const frame = (file.declarations[0] as ActionDecl).workFrames[0]!;
    expect(frame.fields.map((f) => [f.name.name, f.value.kind === 'StringLiteral' ? f.value.value : f.value.items.map((i) => i.value)])).toEqual([[field, 'review'], ...(next === '' ? [] : [next.includes('[') ? ['forbidden_actions', ['add_dependent']] : ['next_action', 'retry']])]);
  });

  it('still reports a field with no value once, where its value should be, not as an unquoted value', () => {
    expect(problems('action a {\n  on YELLOW {\n    mode\n    next_action "retry"\n  }\n}\n')).toEqual(['4:5 ADEC1003 expected a string or `[`, found `next_action`']);
  });
});

describe('a skill template value left unquoted', () => {
  // Generated: the unquoted field first, last or in the middle, separated by line breaks or commas.
  const layouts = [
    ['    tone: calm\n    text: "Rest"\n', 1],
    ['    text: "Rest"\n    tone: calm\n', 2],
    ['    text: "Rest", tone: calm, note: "x"\n', 1],
    ['    tone: calm\n', 1],
  ] as const;
  it.each(layouts)('`tone: calm` is one error that says to quote it, and the template parses on (%j)', (body, line) => {
    const text = `skill s {\n  template default {\n${body}  }\n}\n`;
    const column = body.split('\n')[line - 1]!.indexOf('calm') + 1;
    expect(problems(text)).toEqual([`${line + 2}:${column} ADEC1003 expected a string, found \`calm\``]);
    const { file } = parse(text);
    const template = (file.declarations[0] as SkillDecl).members.find((m) => m.kind === 'SkillTemplateDecl')!;
    expect(template.fields.find((f) => f.name.name === 'tone')!.template.parts.map((p) => (p.kind === 'TemplateText' ? p.text : p.kind))).toEqual(['calm']);
    expect(template.fields.map((f) => f.name.name)).toEqual(body.match(/\w+(?=:)/g));
  });

  it('still reports a field with no value once, where its value should be', () => {
    expect(problems('skill s {\n  template default {\n    tone:\n    text: "Rest"\n  }\n}\n')).toEqual(['4:5 ADEC1003 expected a string, found `text`']);
  });
});

describe('a quoted name in missing_evidence', () => {
  // Generated: lists of one to three names, each quoted or not, with or without commas.
  const names = ['order_id', 'amount', 'receipt'];
  const lists = [1, 2, 3].flatMap((count) =>
    Array.from({ length: 2 ** count }, (_, mask) => names.slice(0, count).map((name, i) => ((mask >> i) & 1 ? `"${name}"` : name))).flatMap((items) => [items.join(', '), items.join(' ')]),
  );
  it.each(lists)('`[%s]`: one error per quoted name, saying to drop the quotes, and every name kept in order', (list) => {
    const text = `test "t" {\n  action refund\n  expect missing_evidence [${list}]\n}\n`;
    const quoted = [...list.matchAll(/"(\w+)"/g)];
    expect(problems(text)).toEqual(quoted.map((match) => `3:${'  expect missing_evidence ['.length + match.index + 1} ADEC1003 expected a name, found \`${match[0]}\``));
    const { file } = parse(text);
    const expectation = (file.declarations[0] as TestDecl).members.find((item) => item.kind === 'TestExpectMissingEvidence')!;
    expect(expectation.attributes.map((a) => a.name)).toEqual(names.slice(0, list.split(/[ ,]+/).length));
  });
});

describe('a keyword mistyped into another that the next token does not fit', () => {
  // `action` takes a name and `actions` a list: a test member written as the other fails at
  // the token after it, but the mistake is the keyword, repaired so the member still counts.
  const cases = [
    ['action', 'actions', '[ { action_id: "a1", type: "walk" } ]', 'TestActions'],
    ['actions', 'action', 'refund', 'TestAction'],
  ] as const;
  it.each(cases)('`%s` where `%s` was meant: one error at the keyword, with its did-you-mean', (written, meant, value, kind) => {
    const text = `test "t" {\n  ${written} ${value}\n  expect NO_ELIGIBLE_ACTIONS\n}\n`;
    const { file, diagnostics } = parse(text);
    expect(diagnostics.map((d) => [d.span.line, d.span.column, d.code, d.message, d.help])).toEqual([[2, 3, 'ADEC1003', `expected \`${meant}\`, found \`${written}\``, `did you mean \`${meant}\`?`]]);
    expect((file.declarations[0] as TestDecl).members.map((m) => m.kind)).toEqual([kind, 'TestExpectNoEligible']);
  });
});
