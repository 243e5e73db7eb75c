/** Skills (SEC), scenarios (docs/spec/selection.md) and golden tests. */
import { describe, expect, it } from 'vitest';
import { HEADER, checkFiles, expectDiagnostics, type ExpectedDiagnostic } from './helpers.js';

const TEMPLATE_SKILL = `skill tmpl {
  version "1.0.0"
  type deterministic
  output { rationale: string(..200) }
  template default { rationale: "Chosen for you." }
}
`;

describe('skills', () => {
  it('checks type, prompt, fallback and version (ADEC4025, ADEC4023, ADEC2004, ADEC4004)', () => {
    expectDiagnostics(`${HEADER}skill s {\n  version "1"\n  type lml\n  output { text: string(..200) }\n  fallback tmlp\n}\n${TEMPLATE_SKILL}`, [
      ['ADEC4004', 3, 11, 'invalid version `1`: expected semantic versioning (MAJOR.MINOR.PATCH)', undefined],
      ['ADEC4025', 4, 8, 'invalid skill type `lml`: expected llm or deterministic', 'did you mean `llm`?'],
      ['ADEC2004', 6, 12, 'unknown skill `tmlp`', 'did you mean `tmpl`?'],
    ]);
    expectDiagnostics(`${HEADER}skill s {\n  version "1.0.0"\n  type llm\n  output { text: string(..200) }\n}\n`, [
      ['ADEC4023', 2, 7, 'llm skill `s` needs a `prompt`', undefined],
      ['ADEC4023', 2, 7, 'llm skill `s` needs a deterministic `fallback` (docs/spec/skill-contract.md §6: every skill has a defined fallback)', undefined],
    ]);
  });

  it('checks timeouts and fallbacks (ADEC4017, ADEC4016)', () => {
    const llm = (id: string, fallback: string) =>
      `skill ${id} {\n  version "1.0.0"\n  type llm\n  prompt "p"\n  timeout 300ms hard_limit 200ms\n  output { text: string(..200) }\n  fallback ${fallback}\n}\n`;
    expectDiagnostics(`${HEADER}${llm('a', 'b')}${llm('b', 'b')}`, [
      ['ADEC4017', 6, 28, 'invalid timeout: hard_limit `200ms` is shorter than timeout `300ms`', undefined],
      ['ADEC4016', 8, 12, 'skill `a` falls back to `b`, which is an llm skill: fallbacks must be deterministic', undefined],
      ['ADEC4017', 14, 28, 'invalid timeout: hard_limit `200ms` is shorter than timeout `300ms`', undefined],
      ['ADEC4016', 16, 12, 'skill `b` falls back to `b`, which is itself', undefined],
    ]);
  });

  // Generated: the slow fallback in the llm skill's file or its own, used by one skill or two.
  it.each([
    ['one file, one user', false, ['coach']],
    ['its own file, one user', true, ['coach']],
    ['its own file, two users', true, ['coach', 'tutor']],
  ] as const)('reports a fallback slower than 20ms at its own timeout, noting each skill that falls back to it (%s)', (_case, ownFile, users) => {
    const llm = (id: string) => `skill ${id} {\n  version "1.0.0"\n  type llm\n  prompt "p"\n  output { text: string(..200) }\n  fallback plain\n}\n`;
    const plain = 'skill plain {\n  version "1.0.0"\n  type deterministic\n  timeout 40ms\n  output { text: string(..200) }\n  template default { text: "Ready" }\n}\n';
    const files: Record<string, string> = ownFile ? { 'a.adec': `${HEADER}${users.map(llm).join('')}`, 'plain.adec': plain } : { 'a.adec': `${HEADER}${users.map(llm).join('')}${plain}` };
    const { diagnostics } = checkFiles(files);
    const timeoutLine = ownFile ? 4 : 1 + users.length * 7 + 4;
    expect(diagnostics.map((d) => [d.code, d.span.file, d.span.line, d.span.column, d.message, d.notes])).toEqual(
      users.map((user, i) => ['ADEC4016', ownFile ? 'plain.adec' : 'a.adec', timeoutLine, 11, `skill \`${user}\` falls back to \`plain\`, which may run for 40ms: a fallback must answer within 20ms`, [`\`${user}\` names it as its fallback at a.adec:${1 + i * 7 + 6}:12`]]),
    );
  });

  it('checks invariants, prohibitions and templates (ADEC2012, ADEC3002, ADEC3008, ADEC2002, ADEC2010)', () => {
    const source = `${HEADER}skill s {
  version "1.0.0"
  type deterministic
  output { rationale: string(..200), tone: string(..200)? }
  invariant "I-1" "mentions": payload.rational CONTAINS "x"
  invariant "I-1" "counts": payload.rationale LENGTH
  prohibit "P-1" "(?i)(unclosed" "bad"
  template default { rationale: "x", ton: "y" }
}
`;
    expectDiagnostics(source.replace('payload.rationale LENGTH', 'len(payload.rationale)'), [
      ['ADEC2012', 6, 39, 'invariant `I-1` reads `payload.rational`, which is not in the output schema of skill `s`', 'did you mean `rationale`?'],
      ['ADEC2010', 7, 13, 'duplicate invariant `I-1`', undefined],
      ['ADEC3002', 7, 29, '`invariant` must be bool, found int', undefined],
      ['ADEC3008', 8, 23, 'invalid regular expression: unterminated group', undefined],
      ['ADEC2002', 9, 38, '`s.output` has no field `ton`', 'did you mean `tone`?'],
    ]);
  });
});

const SCENARIO = (body: string) => `${HEADER}${TEMPLATE_SKILL}scenario sc {
  version "1.0.0"
  signals { n: int = 0 }
  action_type walk { minutes: int, skill tmpl }
  action_type rest { note: string }
${body}
}
`;

/**
 * What a skill reads from the action (ADEC4018), generated: a field of each shape in the skill
 * the action type names, or in the fallback it falls back to; the action type having it, having
 * another spelling of it, another type or wider bounds, or not having it (an optional field
 * may be missing). Each problem is one error at the skill's field, naming the action type.
 */
describe('action_metadata against the action types that hand their actions over (ADEC4018)', () => {
  const world = (skillField: string, actionField: string, via: 'named' | 'fallback') => {
    const note = `skill note {\n  version "1.0.0"\n  type deterministic\n  timeout 20ms\n  action_metadata { ${skillField} }\n  output { text: string(..200) }\n  template default { text: "Next." }\n}\n`;
    const pitch = `skill pitch {\n  version "1.0.0"\n  type llm\n  prompt "Pitch it."\n  timeout 300ms\n  fallback note\n  output { text: string(..200) }\n}\n`;
    const scenario = `scenario sc {\n  version "1.0.0"\n  action_type walk { minutes: int(1..60), ${actionField} skill ${via === 'named' ? 'note' : 'pitch'} }\n  action_type rest { route: string(..60), skill note }\n  objective o weight 1 = 1\n}\n`;
    return `${HEADER}${note}${pitch}${scenario}`;
  };
  const cases: readonly { skillField: string; actionField: string; problem?: string; help?: string }[] = [
    { skillField: 'route: string(..60)', actionField: 'route: string(..60),' },
    { skillField: 'route: string(..60)', actionField: 'route: string(..40),' },
    { skillField: 'route: string(..60)?', actionField: '' },
    { skillField: 'route: string(..60)', actionField: '', problem: 'has no field `route`' },
    { skillField: 'rute: string(..60)', actionField: 'route: string(..60),', problem: 'has no field `rute`', help: 'did you mean `route`?' },
    { skillField: 'route: string(..60)', actionField: 'route: int,', problem: 'its field `route` is int, the skill expects string(..60)' },
    { skillField: 'route: string(..60)', actionField: 'route: string,', problem: 'its field `route` is string, the skill expects string(..60)' },
    { skillField: 'pace: "slow" | "fsat"', actionField: 'pace: "slow" | "fast",', problem: 'its field `pace` is "slow" | "fast", the skill expects "slow" | "fsat"', help: 'did you mean "fast"?' },
  ];
  it.each(cases.flatMap((c) => (['named', 'fallback'] as const).map((via) => ({ via, ...c }))))(
    'skill $via, `$skillField` against `$actionField`: $problem',
    ({ via, skillField, actionField, problem, help }) => {
      // `rest` has `route` as the skill reads it; any other field it lacks.
      const name = skillField.split(':')[0]!;
      const expected: ExpectedDiagnostic[] = problem === undefined ? [] : [['ADEC4018', 6, 21, `action type \`walk\` uses skill \`note\` but ${problem}`, help]];
      if (name !== 'route') expected.push(['ADEC4018', 6, 21, `action type \`rest\` uses skill \`note\` but has no field \`${name}\``, name === 'rute' ? help : undefined]);
      const diagnostics = expectDiagnostics(world(skillField, actionField, via), expected);
      const notes = diagnostics.map((d) => d.notes?.[0]);
      const handedOver = via === 'named' ? 'to skill `note`' : 'to skill `pitch`, which falls back to `note`';
      if (problem !== undefined) expect(notes[0]).toMatch(new RegExp(`^scenario \`sc\` hands action type \`walk\` ${handedOver.replace(/[`,]/g, '.')} at world.adec:20:`));
    },
  );
});

describe('scenarios', () => {
  it('checks guardrails (ADEC2005, ADEC3002, ADEC3001) and action types (ADEC4018)', () => {
    expectDiagnostics(
      SCENARIO(`  guardrail "G1" "force" { when n > 1 force reset }
  guardrail "G2" "block" { when n > 2 block action.minutes }
  guardrail "G3" "cap" { when n > 3 cap action.note 10 }
  objective o weight 1 = 1`).replace('output { rationale: string(..200) }', 'output { rationale: string(..200) }\n  action_metadata { label: string }'),
      [
        ['ADEC4018', 6, 21, 'action type `walk` uses skill `tmpl` but has no field `label`', undefined],
        ['ADEC2005', 14, 45, 'unknown action type `reset` in scenario `sc`', 'did you mean `rest`?'],
        ['ADEC3002', 15, 45, '`block` must be bool, found int?', undefined],
        ['ADEC3001', 16, 41, 'expected a numeric action field such as `action.duration_minutes`, found string?', undefined],
      ],
    );
  });

  it('checks objectives, weights, risk and default mode (ADEC3011, ADEC4012, ADEC4013, ADEC4024)', () => {
    expectDiagnostics(
      SCENARIO(`  objective a weight 0.5 = "high"
  objective b weight 0.2 = n
  execution_risk weight 1.5 { offline 0.2 }
  default_mode skill_enhance`),
      [
        ['ADEC4013', 8, 10, 'objective weights of scenario `sc` sum to 0.7, they must sum to 1', undefined],
        ['ADEC3011', 13, 28, 'objective `a` must be a number, found string', undefined],
        ['ADEC4012', 15, 25, 'weight 1.5 of `execution_risk` is out of range: weights must be between 0 and 1', undefined],
        ['ADEC4024', 16, 16, 'scenario `sc` has an invalid default_mode `skill_enhance`: expected skill_enhanced or deterministic_only', 'did you mean `skill_enhanced`?'],
      ],
    );
  });

  it('reports cycles in state derivations (ADEC4014)', () => {
    expectDiagnostics(SCENARIO('  state { a: int = b + n, b: int = a }'), [['ADEC4014', 13, 11, 'computed attribute `a` depends on itself: a → b → a', undefined]]);
  });
});

const ACTION = `${HEADER}context { supplied r: "child" | "spouse" }
action add {
  rule ok { outcome GREEN severity t2 when r == "child" }
}
`;

describe('tests', () => {
  it('checks the action, context and expectation (ADEC2006, ADEC2014, ADEC3006, ADEC4015, ADEC4020)', () => {
    expectDiagnostics(`${ACTION}test "t1" { action ad context { r: "x" } expect RED }
test "t2" { action add context { rr: "child", r: "chld" } system { request_tim: "2026-01-01T00:00:00Z" } expect REDD by okk }
`, [
      ['ADEC2006', 6, 20, 'unknown action `ad`', 'did you mean `add`?'],
      ['ADEC2014', 7, 34, 'unknown attribute `rr` in test context of action `add`', 'did you mean `r`?'],
      ['ADEC3006', 7, 50, '"chld" is not a member of "child" | "spouse"', 'did you mean "child"?'],
      ['ADEC2011', 7, 68, 'unknown system attribute `request_tim`: system values are request_time, request_id and authenticated_caller', 'did you mean `request_time`?'],
      ['ADEC4015', 7, 113, 'invalid status `REDD`: expected GREEN, GREEN-SKIP, YELLOW or RED', 'did you mean `RED`?'],
      ['ADEC4020', 7, 121, 'test expects rule `okk`, which is not a rule of action `add`', 'did you mean `ok`?'],
    ]);
  });

  it('requires exactly one of action and scenario (ADEC4003, ADEC4026) and checks selection tests (ADEC2007)', () => {
    expectDiagnostics(`${ACTION}test "t1" { expect RED }
test "t2" { action add scenario sc expect RED }
test "t3" { scenario sx expect selected "a" }
`, [
      ['ADEC4003', 6, 6, '`action` or `scenario` is required in test `t1`', undefined],
      ['ADEC4026', 7, 24, 'test `t2` names both an action and a scenario: an adjudication test names an action, a selection test a scenario', undefined],
      ['ADEC2007', 8, 22, 'unknown scenario `sx`', undefined],
    ]);
  });
});
