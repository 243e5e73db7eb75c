/**
 * What `adec check` refuses in a golden test, so that `adec test` never runs a test whose
 * request the runtime would refuse: values outside their type's range or length (ADEC4026),
 * required values left out (ADEC4003), a system value given as context (ADEC4026), and an
 * expected status no rule of the action can produce (ADEC4026).
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check, checkOk, summarize } from './helpers.js';

/** One action `a` reading `context`, its rule outcome `outcome`, and one test on line 4. */
function adjudication(context: string, testContext: string, { outcome = 'RED', expectation = 'RED', mode = '' } = {}): string {
  return `${HEADER}context { ${context} }\naction a { ${mode} rule r { outcome ${outcome} severity t2 when true } }\ntest "t" { action a context { ${testContext} } expect ${expectation} }\n`;
}

function errors(source: string) {
  return check(source)
    .diagnostics.filter((d) => d.severity === 'error')
    .map(summarize)
    .map(({ code, column, message }) => [code, column, message]);
}

describe('test values outside their type (ADEC4026)', () => {
  it.each([
    ['supplied x: int(0..120)', 'x: 130', 'int(0..120): it is 130, above the maximum 120'],
    ['supplied x: int(0..120)', 'x: -1', 'int(0..120): it is -1, below the minimum 0'],
    ['supplied x: float(0..1)', 'x: 1.5', 'float(0..1): it is 1.5, above the maximum 1'],
    ['supplied x: float(0..)', 'x: -0.01', 'float(0..): it is -0.01, below the minimum 0'],
    ['supplied x: string(2..2)', 'x: "FRA"', 'string(2..2): it is 3 characters long, above the maximum 2'],
    ['supplied x: string(1..)', 'x: ""', 'string(1..): it is 0 characters long, below the minimum 1'],
    ['supplied x: string(..3)', 'x: "👍👍👍👍"', 'string(..3): it is 4 characters long, above the maximum 3'],
    ['supplied x: string(2..2)', 'x: "F"', 'string(2..2): it is 1 character long, below the minimum 2'],
    ['supplied x: list<int(0..9)>', 'x: [1, 10]', 'int(0..9): it is 10, above the maximum 9'],
    ['supplied x: { zip: string(5..5) }', 'x: { zip: "123" }', 'string(5..5): it is 3 characters long, below the minimum 5'],
    ['supplied x: int(1..)?', 'x: 0', 'int(1..): it is 0, below the minimum 1'],
  ])('%s given %s', (context, given, problem) => {
    const [error] = errors(adjudication(context, given));
    expect(error?.slice(0, 1)).toEqual(['ADEC4026']);
    expect(error?.[2]).toBe(`test \`t\` gives a value outside its type ${problem}`);
  });

  it('points at the value', () => {
    expect(errors(adjudication('supplied x: int(0..120)', 'x: 130'))).toEqual([['ADEC4026', 34, 'test `t` gives a value outside its type int(0..120): it is 130, above the maximum 120']]);
  });

  it.each([
    ['supplied x: int(0..120)', 'x: 120'],
    ['supplied x: string(2..2)', 'x: "🇫"'.replace('🇫', 'FR')],
    ['supplied x: string(..3)', 'x: "👍👍👍"'],
    ['supplied x: int(1..)?', 'x: null'],
  ])('accepts %s given %s', (context, given) => {
    expect(errors(adjudication(context, given))).toEqual([]);
  });

  it('checks signals and candidate fields of selection tests the same way', () => {
    const source = `${HEADER}scenario s {
  version "1.0.0"
  signals { visits: int(0..100) = 0 }
  action_type note { priority: int(1..5) }
  objective value weight 1.0 = if visits > 1 then 1 else 0
  tie_break action_id asc
}
test "t" { scenario s signals { visits: 101 } actions [ { action_id: "n", type: "note", priority: 9 } ] expect selected "n" }
`;
    expect(errors(source)).toEqual([
      ['ADEC4026', 41, 'test `t` gives a value outside its type int(0..100): it is 101, above the maximum 100'],
      ['ADEC4026', 99, 'test `t` gives a value outside its type int(1..5): it is 9, above the maximum 5'],
    ]);
  });
});

describe('required values a test leaves out (ADEC4003)', () => {
  it('names each required attribute the context leaves out, at the context', () => {
    const diagnostics = check(adjudication('supplied x: int supplied y: bool supplied z: string', 'y: true')).diagnostics.filter((d) => d.severity === 'error');
    expect(diagnostics.map(summarize).map(({ code, line, column, message }) => [code, line, column, message])).toEqual([
      ['ADEC4003', 4, 21, '`x` is required in the context of test `t`'],
      ['ADEC4003', 4, 21, '`z` is required in the context of test `t`'],
    ]);
    expect(diagnostics[0]!.help).toBe('action `a` declares `x` with no default and not optional (`?`): a request without it is refused before any rule runs; to test that, add `expect missing_evidence [x]`');
  });

  it('points at the test name when there is no context at all', () => {
    const source = `${HEADER}context { supplied x: int }\naction a { rule r { outcome RED severity t2 when x > 1 } }\ntest "t" { action a expect RED }\n`;
    expect(errors(source)).toEqual([['ADEC4003', 6, '`x` is required in the context of test `t`']]);
  });

  it.each([
    ['an optional attribute', 'supplied x: int supplied y: bool?'],
    ['an attribute with a default', 'supplied x: int supplied y: bool = false'],
    ['a system attribute', 'supplied x: int system request_time: timestamp'],
    ['a computed attribute', 'supplied x: int computed y: bool = x > 1'],
  ])('does not require %s', (_name, context) => {
    const source = `${HEADER}context { ${context} }\naction a { rule r { outcome RED severity t2 when x > 1 and y } }\ntest "t" { action a context { x: 2 } expect RED }\n`.replace(' and y', context.includes('request_time') ? ' and request_time > request_time' : ' and (y ?? true)');
    expect(errors(source)).toEqual([]);
  });

  it('does not also report the attribute a misspelled one was meant to be', () => {
    expect(errors(adjudication('supplied amount: int', 'amuont: 5')).map(([code]) => code)).toEqual(['ADEC2014']);
  });

  it('requires signals without a default and the non-optional fields of a test action', () => {
    const source = `${HEADER}scenario s {
  version "1.0.0"
  signals { visits: int mood: string = "calm" tag: string? }
  action_type note { title: string priority: int topic: string? }
  objective value weight 1.0 = if visits > 1 then 1 else 0
  tie_break action_id asc
}
test "t" { scenario s signals { mood: "busy" } actions [ { action_id: "n", type: "note", title: "Hi" } ] expect selected "n" }
`;
    expect(errors(source)).toEqual([
      ['ADEC4003', 23, '`visits` is required in the signals of test `t`'],
      ['ADEC4003', 58, '`priority` is required in a test action of type `note`'],
    ]);
  });
});

describe('a system value given as context (ADEC4026)', () => {
  it.each(['request_time: "2026-01-01T00:00:00Z"', 'request_id: "r-1"', 'authenticated_caller: "svc"'])('%s', (given) => {
    const name = given.split(':')[0]!;
    const type = name === 'request_time' ? 'timestamp' : name === 'request_id' ? 'string' : 'string?';
    const diagnostics = check(adjudication(`supplied x: int system ${name}: ${type}`, `x: 1, ${given}`)).diagnostics.filter((d) => d.severity === 'error');
    expect(diagnostics.map((d) => [d.code, d.message, d.help])).toEqual([
      ['ADEC4026', `test \`t\` gives system attribute \`${name}\` in its context: the host captures system values, a request never sends them`, `set it in \`system { ${name}: … }\``],
    ]);
  });
});

describe('an expected status no rule can produce (ADEC4026)', () => {
  it.each([
    ['YELLOW', 'RED', 'GREEN, YELLOW'],
    ['RED', 'GREEN-SKIP', 'GREEN, YELLOW, RED'],
    ['GREEN', 'RED', 'GREEN, YELLOW'],
    ['GREEN-SKIP', 'RED', 'GREEN, GREEN-SKIP, YELLOW'],
  ])('rules calling for %s, a test expecting %s', (outcome, expectation, producible) => {
    const diagnostics = check(adjudication('supplied x: int', 'x: 1', { outcome, expectation })).diagnostics;
    expect(diagnostics.map((d) => [d.code, d.span.line, d.span.column, d.message, d.help])).toEqual([
      ['ADEC4026', 4, 45, `test \`t\` expects ${expectation}, but no rule of action \`a\` has outcome ${expectation}`, `action \`a\` can decide ${producible}`],
    ]);
  });

  it.each([
    ['GREEN by nothing matching', 'RED', 'GREEN'],
    ['YELLOW by the fail-safe', 'RED', 'YELLOW'],
    ['YELLOW below a quorum', 'RED', 'YELLOW'],
    ['the rule\'s own outcome', 'GREEN-SKIP', 'GREEN-SKIP'],
  ])('accepts %s', (_name, outcome, expectation) => {
    expect(errors(adjudication('supplied x: int', 'x: 1', { outcome, expectation }))).toEqual([]);
  });

  it('accepts a test world whose tests all expect producible statuses', () => {
    checkOk(`${HEADER}context { supplied x: int }\naction a { rule r { outcome RED severity t2 when x > 1 reason "over 1" } }\ntest "t" { action a context { x: 2 } expect RED by r }\ntest "u" { action a context { x: 0 } expect GREEN }\n`);
  });
});
