/**
 * A selection test's skill part (docs/language-guide.md §13.4): `expect skill output { … }`,
 * `expect skill validation …` and `model_reply { … }`. Generated over every output field type,
 * each right and wrong value, each field name mistyped, `CONTAINS` on every field, each check
 * name a failure can carry (and each mistyped), and each test in which no skill can run: the
 * right ones check into the test the runner gets, each wrong one is one diagnostic where the
 * mistake is. The formatter keeps every form.
 */
import { describe, expect, it } from 'vitest';
import { parseSource } from '@adec/grammar';
import { formatSource } from '../../src/format/index.js';
import { SEC_CHECK_NAMES } from '../../src/check/sec-check-names.js';
import { HEADER, check } from './helpers.js';

/** An llm skill with an output field of each type, its fallback, and a scenario that uses it. */
const WORLD = `${HEADER}skill pitch {
  version     "1.0.0"
  type        llm
  description "Pitches the session"
  prompt      "Pitch {action_metadata.title}"
  timeout     300ms
  fallback    pitch_note
  action_metadata { title: string(..40) }
  output {
    note:   string(5..80)
    count:  int(0..10)
    share:  float(0..1)
    urgent: bool
    tone:   "warm" | "brisk"
    tags:   list<string(..20)>
    hint:   string(..40)?
  }
  invariant "PITCH-001" "The note names the session": payload.note CONTAINS action_metadata.title
  prohibit "PITCH-PROHIB-001" "(?i)guarantee" "Promise nothing"
}
skill pitch_note {
  version     "1.0.0"
  type        deterministic
  description "Names the session"
  timeout     20ms
  action_metadata { title: string(..40) }
  output {
    note:  string(5..80)
    extra: string(..30)?
  }
  invariant "NOTE-001" "The note names the session": payload.note CONTAINS action_metadata.title
  template default { note: "Next: {action_metadata.title}." }
}
scenario day {
  version "1.0.0"
  action_type session { title: string(..40) skill pitch }
  action_type rest { }
  objective fit weight 1 = if action.type == "session" then 1 else 0
  tie_break action.action_id asc
  default_mode skill_enhanced
}
`;

const SESSION = '{ action_id: "s1", type: "session", title: "Yoga" }';

/** A selection test selecting `s1` (a session), with these lines after `expect selected`. */
function world(lines: string, options: { expect?: string; actions?: string } = {}): { source: string; line: number } {
  const head = `test "t" {\n  scenario day\n  actions  [ ${options.actions ?? SESSION} ]\n  expect   ${options.expect ?? 'selected "s1"'}\n`;
  const source = `${WORLD}${head}${lines}\n}\n`;
  return { source, line: WORLD.split('\n').length + 4 }; // the line of the first of `lines`
}

const diagnosticsOf = (source: string) => check(source).diagnostics.map((d) => ({ code: d.code, line: d.span.line, column: d.span.column, message: d.message, help: d.help }));

/** For each output field: values of its type, and values of another type with the code that refuses them. */
const FIELDS: readonly { field: string; right: readonly [string, unknown][]; wrong: readonly [string, string][] }[] = [
  { field: 'note', right: [['"Yoga at noon"', 'Yoga at noon']], wrong: [['5', 'ADEC3001'], ['true', 'ADEC3001'], ['"Yo"', 'ADEC4026'], ['null', 'ADEC3001']] },
  { field: 'count', right: [['3', 3], ['0', 0]], wrong: [['"3"', 'ADEC3001'], ['11', 'ADEC4026'], ['2.5', 'ADEC3001']] },
  { field: 'share', right: [['0.5', 0.5], ['1', 1]], wrong: [['"half"', 'ADEC3001'], ['2', 'ADEC4026']] },
  { field: 'urgent', right: [['false', false]], wrong: [['"no"', 'ADEC3001'], ['0', 'ADEC3001']] },
  { field: 'tone', right: [['"warm"', 'warm']], wrong: [['"cold"', 'ADEC3006'], ['1', 'ADEC3001']] },
  { field: 'tags', right: [['["calm", "short"]', ['calm', 'short']], ['[]', []]], wrong: [['"calm"', 'ADEC3001'], ['[1]', 'ADEC3001']] },
  { field: 'hint', right: [['"Breathe"', 'Breathe'], ['null', null]], wrong: [['3', 'ADEC3001']] },
  // The fallback's own field: its payload is the response's when no model answers.
  { field: 'extra', right: [['"more"', 'more']], wrong: [['[]', 'ADEC3001']] },
];

describe('expect skill output { … }', () => {
  const right = FIELDS.flatMap(({ field, right }) => right.map(([text, value]) => [field, text, value] as const));
  it.each(right)('%s: %s is a value of its type and reaches the runner', (field, text, value) => {
    const { source } = world(`  expect   skill output { ${field}: ${text} }`);
    const result = check(source);
    expect(result.diagnostics).toEqual([]);
    const test = result.world!.tests[0]!;
    expect(test.kind === 'selection' && test.expectSkill).toEqual({ skill: 'pitch', output: [{ field, match: 'equals', value }] });
  });

  const wrong = FIELDS.flatMap(({ field, wrong }) => wrong.map(([text, code]) => [field, text, code] as const));
  it.each(wrong)('%s: %s is refused at the value (%s)', (field, text, code) => {
    const written = `  expect   skill output { ${field}: ${text} }`;
    const { source, line } = world(written);
    // Inside a list, the item that is not of the items' type.
    const at = written.indexOf(text) + (text.startsWith('[') && text !== '[]' ? 2 : 1);
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column])).toEqual([[code, line, at]]);
  });

  const names = FIELDS.map(({ field }) => field);
  const typos = names.flatMap((field) => [`${field}s`, field.slice(0, -1), `${field[1]}${field[0]}${field.slice(2)}`].filter((typo) => !names.includes(typo)).map((typo) => [typo, field] as const));
  it.each(typos)('a field `%s` is not in the output: ADEC4031 at the name, suggesting `%s`', (typo, field) => {
    const { source, line } = world(`  expect   skill output { ${typo}: null }`);
    expect(diagnosticsOf(source)).toEqual([{ code: 'ADEC4031', line, column: 27, message: `skill \`pitch\` has no output field \`${typo}\``, help: `did you mean \`${field}\`?` }]);
  });

  it.each(names.map((field) => [field, ['note', 'tone', 'hint', 'extra'].includes(field)] as const))('%s CONTAINS "…" reads text: accepted %s', (field, text) => {
    const { source, line } = world(`  expect   skill output { ${field} CONTAINS "a" }`);
    const found = diagnosticsOf(source);
    if (text) expect(found).toEqual([]);
    else expect(found.map((d) => [d.code, d.line, d.column, d.help])).toEqual([['ADEC3001', line, 27, `compare it exactly instead: \`${field}: …\``]]);
  });

  it('a field given twice is refused at the second', () => {
    const written = '  expect   skill output { note: "Yoga now", note CONTAINS "Yoga" }';
    const { source, line } = world(written);
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column])).toEqual([['ADEC4009', line, written.lastIndexOf('note') + 1]]);
  });
});

describe('expect skill validation …', () => {
  const known = [...SEC_CHECK_NAMES, 'PITCH-001', 'PITCH-PROHIB-001', 'NOTE-001'];
  it.each(known)('failed "%s" names a check a failure can carry', (name) => {
    const result = check(world(`  expect   skill validation failed "${name}"`).source);
    expect(result.diagnostics).toEqual([]);
    const test = result.world!.tests[0]!;
    expect(test.kind === 'selection' && test.expectSkill).toEqual({ skill: 'pitch', validation: { passed: false, checks: [name] } });
  });

  // Each name with its next-to-last character dropped (`INV-05`), which is one edit from it alone.
  const typos = known.map((name) => [`${name.slice(0, -2)}${name.slice(-1)}`, name] as const);
  it.each(typos)('failed "%s" is no check: ADEC4032 at the name, suggesting "%s"', (typo, name) => {
    const written = `  expect   skill validation failed "INV-001", "${typo}"`;
    const { source, line } = world(written);
    expect(diagnosticsOf(source)).toEqual([{ code: 'ADEC4032', line, column: written.lastIndexOf('"', written.length - 2) + 1, message: `no check \`${typo}\` can fail in the output of skill \`pitch\``, help: `did you mean \`${name}\`?` }]);
  });

  it('passed, and failed with no name, check into the test', () => {
    for (const [text, validation] of [['passed', { passed: true }], ['failed', { passed: false, checks: [] }]] as const) {
      const test = check(world(`  expect   skill validation ${text}`).source).world!.tests[0]!;
      expect(test.kind === 'selection' && test.expectSkill).toEqual({ skill: 'pitch', validation });
    }
  });
});

describe('model_reply { … }', () => {
  it('is taken as written, whatever the schema says: the checks of stage 7 judge it', () => {
    const test = check(world('  model_reply { note: "x", mood: [1, { a: null }] }').source).world!.tests[0]!;
    expect(test.kind === 'selection' && test.modelReply).toEqual({ note: 'x', mood: [1, { a: null }] });
  });

  // A reply giving every required field of `pitch`'s output a value of its type.
  const REPLY: readonly (readonly [string, string])[] = [['note', '"Yoga at noon"'], ['count', '3'], ['share', '0.5'], ['urgent', 'false'], ['tone', '"warm"'], ['tags', '[]']];
  const reply = (entries: readonly (readonly [string, string])[]) => `  model_reply { ${entries.map(([key, value]) => `${key}: ${value}`).join(', ')} }`;
  const passed = '\n  expect   skill validation passed';

  it('that fits the output schema checks clean in a test expecting validation to pass', () => {
    expect(diagnosticsOf(world(reply(REPLY) + passed).source)).toEqual([]);
    expect(diagnosticsOf(world(reply([...REPLY, ['hint', 'null']]) + passed).source)).toEqual([]);
  });

  // In a test that expects validation to pass, a reply outside the schema makes a test that could never pass.
  const ownFields = FIELDS.filter(({ field }) => field !== 'extra');
  const wrongValues = ownFields.flatMap(({ field, wrong }) => wrong.map(([text, code]) => [field, text, code] as const));
  it.each(wrongValues)('%s: %s in a reply expected to pass is refused at the value (%s)', (field, text, code) => {
    const written = reply(REPLY.some(([key]) => key === field) ? REPLY.map(([key, value]) => [key, key === field ? text : value] as const) : [...REPLY, [field, text]]);
    const { source, line } = world(written + passed);
    const at = written.indexOf(`${field}: ${text}`) + field.length + 2 + (text.startsWith('[') && text !== '[]' ? 2 : 1);
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column])).toEqual([[code, line, at]]);
  });

  const names = ownFields.map(({ field }) => field);
  const typos = REPLY.map(([field]) => [`${field[1]}${field[0]}${field.slice(2)}`, field] as const).filter(([typo]) => !names.includes(typo));
  it.each(typos)('a key `%s` in a reply expected to pass: ADEC4031 at the key, suggesting `%s`, and no required field reported missing', (typo, field) => {
    const written = reply(REPLY.map(([key, value]) => [key === field ? typo : key, value] as const));
    const { source, line } = world(written + passed);
    expect(diagnosticsOf(source)).toEqual([{ code: 'ADEC4031', line, column: written.indexOf(typo) + 1, message: `skill \`pitch\` has no output field \`${typo}\``, help: `did you mean \`${field}\`?` }]);
  });

  it.each(REPLY.map(([field]) => field))('a reply expected to pass without required field `%s`: ADEC4003 at the reply', (field) => {
    const { source, line } = world(reply(REPLY.filter(([key]) => key !== field)) + passed);
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column, d.message])).toEqual([['ADEC4003', line, 15, `\`${field}\` is required in the model_reply of test \`t\``]]);
  });

  const outsideSchema = reply([['nte', '"Yoga at noon"'], ['tone', '"cold"']]);
  it.each(['', '\n  expect   skill validation failed "schema_valid"', '\n  expect   skill validation failed "PITCH-001"', '\n  expect   skill output { note: "Next: Yoga." }'])(
    'outside the schema is taken as written when the test does not expect validation to pass:%s',
    (expectation) => {
      expect(diagnosticsOf(world(outsideSchema + expectation).source)).toEqual([]);
    },
  );
});

describe('tests in which no skill runs (ADEC4030)', () => {
  const expectations = ['expect   skill output { note: "Yoga now" }', 'expect   skill validation passed', 'model_reply { note: "Yoga now" }'];
  it.each(expectations)('`%s` with NO_ELIGIBLE_ACTIONS', (line) => {
    const { source, line: at } = world(`  ${line}`, { expect: 'NO_ELIGIBLE_ACTIONS' });
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column, d.message])).toEqual([['ADEC4030', at, 3, 'test `t` cannot test a skill: it expects NO_ELIGIBLE_ACTIONS, so no action is selected and no skill runs']]);
  });

  it.each(expectations)('`%s` with the selected action of a type that names no skill', (line) => {
    const { source, line: at } = world(`  ${line}`, { actions: '{ action_id: "r1", type: "rest" }', expect: 'selected "r1"' });
    expect(diagnosticsOf(source).map((d) => [d.code, d.line, d.column, d.message, d.help])).toEqual([
      ['ADEC4030', at, 3, 'test `t` cannot test a skill: it expects `r1` selected, a `rest`, and action type `rest` names no skill', 'add `skill <name>` to `action_type rest` in scenario `day`'],
    ]);
  });

  it('a model_reply to a deterministic skill', () => {
    const deterministic = WORLD.replace('skill pitch }', 'skill pitch_note }');
    const source = `${deterministic}test "t" {\n  scenario day\n  actions  [ ${SESSION} ]\n  expect   selected "s1"\n  model_reply { note: "Yoga now" }\n}\n`;
    expect(diagnosticsOf(source).map((d) => [d.code, d.column, d.message])).toEqual([['ADEC4030', 3, 'test `t` cannot test a skill: it gives a model_reply, but skill `pitch_note` is deterministic and asks no model']]);
  });

  it.each([['deterministic_only', 'default_mode deterministic_only'], ['no default_mode', '']])('a model_reply in a scenario with %s, whose skills no model answers', (_, mode) => {
    const source = `${WORLD.replace('default_mode skill_enhanced', mode)}test "t" {\n  scenario day\n  actions  [ ${SESSION} ]\n  expect   selected "s1"\n  model_reply { note: "Yoga now" }\n}\n`;
    expect(diagnosticsOf(source).map((d) => [d.code, d.column, d.message])).toEqual([['ADEC4030', 3, 'test `t` cannot test a skill: it gives a model_reply, but scenario `day` runs its skills `deterministic_only`, so no model is asked']]);
    expect(diagnosticsOf(source.replace('  model_reply { note: "Yoga now" }\n', ''))).toEqual([]);
  });

  it.each(expectations)('`%s` in an adjudication test', (line) => {
    const source = `${HEADER}context { supplied n: int }\naction a { rule r { outcome RED severity t1 when n > 1 reason "big" } }\ntest "t" {\n  action  a\n  context { n: 2 }\n  expect  RED\n  ${line}\n}\n`;
    expect(diagnosticsOf(source).map((d) => [d.code, d.line])).toEqual([['ADEC4026', 8]]);
  });
});

describe('parsing and formatting', () => {
  const forms = [
    'expect skill output { note: "Yoga now", tone: "warm" }',
    'expect skill output { note CONTAINS "Yoga" tags: ["a"] }',
    'expect skill validation passed',
    'expect skill validation failed',
    'expect skill validation failed "INV-005", "PITCH-001"',
    'model_reply { note: "Yoga now", tone: "warm", tags: [] }',
  ];
  it.each(forms)('`%s` parses cleanly, and the formatter keeps it', (form) => {
    const source = world(`  ${form}`).source;
    expect(parseSource('w.adec', source).diagnostics).toEqual([]);
    const spread = source.replace(`  ${form}`, `  ${form.replace(/ (skill|output|validation|failed|passed|CONTAINS|\{)/g, '   $1')}`);
    const formatted = formatSource('w.adec', spread);
    if (!formatted.ok) throw new Error('the formatter refused the test');
    expect(formatted.text.replace(/ +/g, ' ')).toContain(` ${form}\n`);
    expect(formatSource('w.adec', formatted.text)).toMatchObject({ ok: true, changed: false });
  });
});
