/**
 * A deterministic skill's templates must satisfy its own output schema for every input its
 * declared types allow (ADEC4023, ADEC3006), have one without a `when` (ADEC4023), and have
 * nothing after it (ADEC5008); its output strings are bounded (INV-006, ADEC4023).
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check, checkOk } from './helpers.js';

/** A deterministic skill with these input and output fields and one `default` template. */
function skill(output: string, template: string, input = 'action_metadata { name: string(1..20), plain: string, kind: "yoga" | "hiit" } user_state { visits: int(0..999), mood: bool, at: timestamp, rest: duration, score: float }'): string {
  return `${HEADER}skill s {\n  version "1.0.0"\n  type deterministic\n  ${input}\n  output { ${output} }\n  template default { ${template} }\n}\n`;
}

function problems(source: string) {
  return check(source).diagnostics.map((d) => [d.code, d.message]);
}

const TEMPLATE = 'deterministic skill `s` template `default`';

describe('template text lengths against the output field (ADEC4023)', () => {
  it.each([
    ['text: string(..10)', 'text: "Eleven char"', `${TEMPLATE} renders \`text\` in 11 characters, more than its maximum of 10`],
    ['text: string(5..10)', 'text: "Hi"', `${TEMPLATE} renders \`text\` in 2 characters, fewer than its minimum of 5`],
    ['text: string(..10)', 'text: "Go {action_metadata.name}"', `${TEMPLATE} may render \`text\` in up to 23 characters, more than its maximum of 10`],
    ['text: string(5..50)', 'text: "{action_metadata.name}"', `${TEMPLATE} may render \`text\` in 1 character, fewer than its minimum of 5`],
    ['text: string(2..10)', 'text: "H"', `${TEMPLATE} renders \`text\` in 1 character, fewer than its minimum of 2`],
    ['text: string(..50)', 'text: "Go {action_metadata.plain}"', `${TEMPLATE} may render \`text\` longer than its maximum of 50 characters: \`action_metadata.plain\` is a string with no maximum length`],
    ['text: string(..6)', 'text: "{action_metadata.kind}!!!"', `${TEMPLATE} renders \`text\` in 7 characters, more than its maximum of 6`],
    ['text: string(..5)', 'text: "v{user_state.visits}!!"', `${TEMPLATE} may render \`text\` in up to 6 characters, more than its maximum of 5`],
    ['text: string(..20)', 'text: "{user_state.score} points"', `${TEMPLATE} may render \`text\` in up to 31 characters, more than its maximum of 20`],
    ['text: string(..10)', 'text: "in {user_state.rest}"', `${TEMPLATE} may render \`text\` in up to 22 characters, more than its maximum of 10`],
    ['text: string(..12)?', 'text: "Thirteen char"', `${TEMPLATE} renders \`text\` in 13 characters, more than its maximum of 12`],
  ])('%s set to %s', (output, template, message) => {
    expect(problems(skill(output, template))).toEqual([['ADEC4023', message]]);
  });

  it.each([
    ['text: string(..9)', 'text: "ok: {user_state.mood}"'],
    ['text: string(..30)', 'text: "at {user_state.at}"'],
    ['text: string(4..7)', 'text: "{action_metadata.kind}!!!"'],
    ['text: string(1..23)', 'text: "Go {action_metadata.name}"'],
    ['text: string(..40)', 'text: "{user_state.score} and {user_state.visits}"'],
  ])('accepts %s set to %s: every rendering fits', (output, template) => {
    expect(problems(skill(output, template))).toEqual([]);
  });

  it('counts characters, not UTF-16 units, and `{{ }}` as one brace each', () => {
    checkOk(skill('text: string(3..3)', 'text: "👍👍👍"'));
    checkOk(skill('text: string(..4)', 'text: "{{x}}"'));
    expect(problems(skill('text: string(..2)', 'text: "{{x}}"'))).toEqual([['ADEC4023', `${TEMPLATE} renders \`text\` in 3 characters, more than its maximum of 2`]]);
  });

  // The unknown field is the one mistake: no length is claimed for what it would render.
  it.each(['action_metadata.nme', 'user_state.vists', 'action_metadata.name.first'])('an interpolation of `%s`, an error of its own, claims no length', (read) => {
    expect(problems(skill('text: string(..50)', `text: "Go {${read}}"`)).map(([code]) => code)).toEqual(['ADEC2002']);
  });

  it('points at the template text', () => {
    const [diagnostic] = check(skill('text: string(..3)', 'text: "Long"')).diagnostics;
    expect([diagnostic!.span.line, diagnostic!.span.column]).toEqual([7, 28]);
  });
});

describe('template fields of other types', () => {
  it.each(['bool', 'int', 'float(0..1)', 'timestamp', 'duration', 'list<string(..5)>', '{ a: string(..5) }'])('a template cannot set a %s field (ADEC4023)', (type) => {
    expect(problems(skill(`text: string(..20), extra: ${type}?`, 'text: "ok", extra: "1"'))).toEqual([
      ['ADEC4023', `${TEMPLATE} sets \`extra\`, a ${type} field: a template renders text, so it sets only string and enum fields`],
    ]);
  });

  it('an enum field takes a literal member (ADEC3006 with a suggestion) and never an interpolation (ADEC4023)', () => {
    checkOk(skill('tone: "calm" | "warm"', 'tone: "warm"'));
    expect(check(skill('tone: "calm" | "warm"', 'tone: "wram"')).diagnostics.map((d) => [d.code, d.message, d.help])).toEqual([
      ['ADEC3006', '"wram" is not a member of "calm" | "warm"', 'did you mean "warm"?'],
    ]);
    expect(problems(skill('tone: "yoga" | "hiit"', 'tone: "{action_metadata.kind}"'))).toEqual([
      ['ADEC4023', `${TEMPLATE} sets enum field \`tone\` from an interpolation, which may not be one of its members`],
    ]);
  });
});

describe('template order', () => {
  const templates = (...decls: string[]) =>
    `${HEADER}skill s {\n  version "1.0.0"\n  type deterministic\n  user_state { visits: int }\n  output { text: string(..20) }\n${decls.map((d) => `  ${d}\n`).join('')}}\n`;

  it('needs a template without a `when` (ADEC4023)', () => {
    expect(problems(templates('template a when user_state.visits > 1 { text: "a" }', 'template b when user_state.visits <= 1 { text: "b" }'))).toEqual([
      ['ADEC4023', 'deterministic skill `s` has no template without a `when`: when no condition holds, it has nothing to answer'],
    ]);
  });

  it('warns about every template after the first without a `when` (ADEC5008)', () => {
    const found = check(templates('template a when user_state.visits > 1 { text: "a" }', 'template d { text: "d" }', 'template b when user_state.visits > 5 { text: "b" }', 'template e { text: "e" }')).diagnostics;
    expect(found.map((d) => [d.code, d.severity, d.span.line, d.message])).toEqual([
      ['ADEC5008', 'warning', 9, 'template `b` can never be chosen: template `d` before it has no `when`, so it is always chosen first'],
      ['ADEC5008', 'warning', 10, 'template `e` can never be chosen: template `d` before it has no `when`, so it is always chosen first'],
    ]);
  });

  it('accepts conditional templates followed by one without a condition', () => {
    checkOk(templates('template a when user_state.visits > 1 { text: "a" }', 'template d { text: "d" }'));
  });
});

describe('output strings need a maximum length (INV-006, ADEC4023)', () => {
  it.each([
    ['text: string', 'text'],
    ['text: string(5..)', 'text'],
    ['text: string?', 'text'],
    ['items: list<string>', 'items[]'],
    ['detail: { note: string }?', 'detail.note'],
    ['detail: { rows: list<{ cell: string(1..) }> }', 'detail.rows[].cell'],
  ])('%s', (output, path) => {
    const found = check(`${HEADER}skill s {\n  version "1.0.0"\n  type llm\n  prompt "p"\n  fallback t\n  output { ${output} }\n}\n${skill('text: string(..20)', 'text: "ok"').slice(HEADER.length).replace('skill s', 'skill t')}`).diagnostics;
    expect(found.map((d) => [d.code, d.message, d.help])).toEqual([
      ['ADEC4023', `llm skill \`s\` declares output field \`${path}\` as a string with no maximum length`, 'SEC INV-006 bounds every output string: give it one, e.g. `string(..200)`'],
    ]);
  });

  it('accepts bounded strings and enums', () => {
    checkOk(skill('a: string(..20), b: "x" | "y", c: list<string(1..5)>?', 'a: "ok", b: "x"'));
  });
});
