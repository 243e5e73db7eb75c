/** World header, context, actions, rules, suppressions and work frames. */
import { describe, expect, it } from 'vitest';
import { checkSources } from '../../src/index.js';
import { HEADER, check, checkFiles, expectDiagnostics } from './helpers.js';

const rule = (body: string, id = 'r') => `  rule ${id} {\n${body}\n  }\n`;
const RULE_OK = '    outcome RED\n    severity t2\n    when x > 1';
/** Header on line 1, context `x` on line 2, `action a {` on line 3, first rule line on 5. */
const world = (actionBody: string, context = 'context { supplied x: int }') => `${HEADER}${context}\naction a {\n${actionBody}}\n`;

describe('world header', () => {
  it('reports a missing header at the start of the first file (ADEC4001)', () => {
    expectDiagnostics('context { supplied x: int }\n', [
      ['ADEC4001', 1, 1, 'the world has no `world` header: add `world { org "…" domain "…" version "…" }`', undefined],
      ['ADEC5006', 1, 20, 'context attribute `x` is never used', undefined],
    ]);
  });

  it('reports a second header (ADEC4002), across files', () => {
    const { diagnostics } = checkFiles({ 'a.adec': HEADER, 'b.adec': HEADER });
    expect(diagnostics.map((d) => [d.code, d.span.file, d.notes])).toEqual([['ADEC4002', 'b.adec', ['first declared at a.adec:1:1']]]);
  });

  // Generated: a header copied into files named to sort before and after world.adec, at the
  // root and in folders, one or several at once.
  const copies = [['a.adec'], ['actions.adec'], ['zz.adec'], ['rules/a.adec'], ['a.adec', 'zz.adec'], ['0.adec', 'rules/world.adec']];
  it.each(copies.flatMap((names) => ['', 'sub/'].map((root) => [names, root] as const)))('keeps the header in world.adec and reports the copies in %j (root %j)', (names, root) => {
    // In name order, as a world's files are read.
    const paths = [`${root}world.adec`, ...names.map((name) => `${root}${name}`)].sort();
    const { diagnostics } = checkFiles(Object.fromEntries(paths.map((path): [string, string] => [path, HEADER])));
    expect(diagnostics.map((d) => [d.code, d.span.file, d.notes]).sort()).toEqual(names.map((name) => ['ADEC4002', `${root}${name}`, [`the world's header is in ${root}world.adec:1:1`]]).sort());
  });

  it('reports missing settings (ADEC4003), bad versions (ADEC4004), repeats (ADEC4009) and timeouts (ADEC4017)', () => {
    expectDiagnostics('world { org "acme" version "v1.2.0" org "x" timeout 2s }\n', [
      ['ADEC4003', 1, 1, '`domain` is required in the world header', undefined],
      ['ADEC4004', 1, 28, 'invalid version `v1.2.0`: expected semantic versioning (MAJOR.MINOR.PATCH)', 'did you mean "1.2.0"?'],
      ['ADEC4009', 1, 37, '`org` appears more than once in the world header', undefined],
      ['ADEC4017', 1, 53, 'invalid timeout: `2s` exceeds the 1000ms limit for a predicate', undefined],
    ]);
  });
});

describe('context', () => {
  it('resolves types with suggestions (ADEC2009) and checks ranges (ADEC4019)', () => {
    expectDiagnostics(world(rule(RULE_OK), 'context { supplied x: int supplied y: integer supplied z: bool(0..1) }'), [
      ['ADEC5006', 2, 36, 'context attribute `y` is never used', undefined],
      ['ADEC2009', 2, 39, 'unknown type `integer`', 'did you mean `int`?'],
      ['ADEC5006', 2, 56, 'context attribute `z` is never used', undefined],
      ['ADEC4019', 2, 64, 'invalid range: `bool` takes no range: only int, float and string (length) do', undefined],
    ]);
  });

  it('reports duplicates, also between shared and action-local attributes (ADEC2010)', () => {
    const diagnostics = expectDiagnostics(world(`  context { supplied x: string }\n${rule(RULE_OK)}`), [
      ['ADEC2010', 4, 22, 'duplicate context attribute `x`', undefined],
    ]);
    expect(diagnostics[0]!.notes).toEqual(['first declared at world.adec:2:20']);
  });

  it('checks system attributes (ADEC2011, ADEC4022)', () => {
    expectDiagnostics(world(rule(RULE_OK), 'context { supplied x: int system request_tme: timestamp system request_id: int }'), [
      ['ADEC2011', 2, 34, 'unknown system attribute `request_tme`: system values are request_time, request_id and authenticated_caller', 'did you mean `request_time`?'],
      ['ADEC4022', 2, 76, 'system attribute `request_id` has type int, it must be string', undefined],
    ]);
  });

  it('checks defaults: literal (ADEC4021), typed (ADEC3001), members (ADEC3006), in range (ADEC4021)', () => {
    expectDiagnostics(
      world(`${rule(RULE_OK)}${rule('    outcome RED\n    severity t2\n    when y > 1 and z == "a" and w > 1 and v > 1', 'r2')}`, 'context { supplied x: int supplied y: int = x supplied z: "a" | "b" = "c" supplied w: int(0..9) = 10 supplied v: int = "no" }'),
      [
        ['ADEC4021', 2, 45, 'default value of `y` must be a literal value', 'declare a `computed` attribute to derive a value'],
        ['ADEC3006', 2, 71, '"c" is not a member of "a" | "b"', 'did you mean "a"?'],
        ['ADEC4021', 2, 99, 'default value of `w` is above the maximum 9', undefined],
        ['ADEC3001', 2, 120, 'expected int, found string', undefined],
      ],
    );
  });

  it('reports cycles among computed attributes (ADEC4014) and orders them by dependency', () => {
    expectDiagnostics(world(rule('    outcome RED\n    severity t2\n    when a'), 'context { supplied x: int computed a: bool = b computed b: bool = a or x > 1 }'), [
      ['ADEC4014', 2, 36, 'computed attribute `a` depends on itself: a → b → a', undefined],
    ]);
  });
});

describe('actions and rules', () => {
  it('reports duplicate actions and rule ids across actions (ADEC2010)', () => {
    const source = `${world(rule(RULE_OK))}action a {\n${rule(RULE_OK)}}\n`;
    expectDiagnostics(source, [
      ['ADEC2010', 10, 8, 'duplicate action `a`', undefined],
      ['ADEC2010', 11, 8, 'duplicate rule `r`', undefined],
    ]);
  });

  it('checks aggregation (ADEC4009, ADEC4010, ADEC4011)', () => {
    expectDiagnostics(world(`  aggregate vote_of_n 0\n  aggregate majority\n${rule(RULE_OK)}`), [
      ['ADEC4011', 4, 23, 'aggregation `vote_of_n` needs the number of votes, a whole number of at least 1, e.g. `vote_of_n 2`', undefined],
      ['ADEC4009', 5, 3, '`aggregate` appears more than once in action `a`', undefined],
    ]);
    expectDiagnostics(world(`  aggregate winner_take_all\n${rule(RULE_OK)}`), [
      ['ADEC4010', 4, 13, 'invalid aggregation mode `winner_take_all`: expected winner_takes_all, vote_of_n or weighted_sum_threshold', 'did you mean `winner_takes_all`?'],
    ]);
  });

  it('requires outcome, severity and when (ADEC4003) and reports repeats (ADEC4009)', () => {
    expectDiagnostics(world(rule('    outcome RED\n    outcome GREEN\n    reason "x"')), [
      ['ADEC5006', 2, 20, 'context attribute `x` is never used', undefined],
      ['ADEC4003', 4, 8, '`severity` is required in rule `r`', undefined],
      ['ADEC4003', 4, 8, '`when` is required in rule `r`', undefined],
      ['ADEC4009', 6, 5, '`outcome` appears more than once in rule `r`', undefined],
    ]);
  });

  it('suggests outcome and severity spellings (ADEC4005, ADEC4006)', () => {
    expectDiagnostics(world(rule('    outcome GREEN_SKIP\n    severity tier1\n    when x > 1')), [
      ['ADEC4005', 5, 13, 'invalid outcome `GREEN_SKIP`: expected GREEN, GREEN-SKIP, YELLOW or RED', 'did you mean `GREEN-SKIP`?'],
      ['ADEC4006', 6, 14, 'invalid severity `tier1`: expected t1, t2 or t3', 'did you mean `t1`?'],
    ]);
  });

  it('requires bool conditions (ADEC3002)', () => {
    const diagnostics = expectDiagnostics(world(rule('    outcome RED\n    severity t2\n    applies_when x\n    when x > 1')), [
      ['ADEC3002', 7, 18, '`applies_when` must be bool, found int', undefined],
    ]);
    expect(diagnostics[0]!.label).toBe('this is int');
  });

  it('checks suppressions (ADEC2003, ADEC4007, ADEC4008)', () => {
    const source = `${world(`${rule(`${RULE_OK}\n    suppresses hard, sotf, r, other`)}${rule('    outcome RED\n    severity t1\n    when x > 2', 'hard')}${rule('    outcome RED\n    severity t2\n    when x > 3', 'soft')}`)}action b {\n${rule('    outcome RED\n    severity t2\n    when true', 'other')}}\n`;
    expectDiagnostics(source, [
      ['ADEC4007', 8, 16, 'rule `r` cannot suppress T1 rule `hard`: T1 rules are never suppressed', undefined],
      ['ADEC2003', 8, 22, 'unknown rule `sotf` in `suppresses`', 'did you mean `soft`?'],
      ['ADEC4008', 8, 28, 'rule `r` cannot suppress `r`: a rule cannot suppress itself', undefined],
      ['ADEC4008', 8, 31, 'rule `r` cannot suppress `other`: it is a rule of action `b`, and a rule suppresses only rules of its own action', undefined],
    ]);
  });

  it('checks rule timeouts (ADEC4017) and weights (ADEC4012, ADEC5007)', () => {
    expectDiagnostics(world(`  aggregate weighted_sum_threshold 0.5\n${rule(`${RULE_OK}\n    timeout 0ms\n    weight 2`)}`), [
      ['ADEC4017', 9, 13, 'invalid timeout: `0ms` must be greater than 0', undefined],
      ['ADEC4012', 10, 12, 'weight 2 of `r` is out of range: weights must be between 0 and 1', undefined],
    ]);
    expectDiagnostics(world(rule(`${RULE_OK}\n    weight 0.5\n    reason "large"`)), [
      ['ADEC5007', 8, 5, 'weight of rule `r` is ignored: action `a` aggregates with `winner_takes_all`', undefined],
    ]);
  });

  it('checks work frames (ADEC4015, ADEC4009, ADEC2013, ADEC3001)', () => {
    expectDiagnostics(world(`${rule(RULE_OK)}  on Red { next_action "x" }\n  on YELLOW { next_acton "x" required_output "y" }\n  on YELLOW { mode "m" }\n`), [
      ['ADEC4015', 9, 6, 'invalid status `Red`: expected GREEN, GREEN-SKIP, YELLOW or RED', 'did you mean `RED`?'],
      ['ADEC2013', 10, 15, 'unknown work_frame field `next_acton`', 'did you mean `next_action`?'],
      ['ADEC3001', 10, 46, 'expected list<string>, found string', undefined],
      ['ADEC4009', 11, 6, '`on YELLOW` appears more than once in action `a`', undefined],
    ]);
  });
});

describe('a type with an unknown part', () => {
  it.each([
    ['a default of a context attribute', `${HEADER}context { supplied r: { v: xx, w: int } = 0 }\naction a { rule q { outcome RED severity t2 when r IS NULL reason "r" } }\n`],
    ['a default of a scenario signal', `${HEADER}scenario s {\n  version "1.0.0"\n  signals { visits: { v: xx, isits: int } = 0 }\n  objective e weight 1 = 1\n  action_type t { n: string }\n}\n`],
    ['a list of it', `${HEADER}context { supplied r: list<{ v: xx }> = 0 }\naction a { rule q { outcome RED severity t2 when r IS NULL reason "r" } }\n`],
  ])('in %s is reported once, as the unknown type, never as a mismatch naming `<error>`', (_, source) => {
    const diagnostics = check(source).diagnostics.filter((d) => d.severity === 'error');
    expect(diagnostics.map((d) => d.code)).toEqual(['ADEC2009']);
    expect(diagnostics.map((d) => d.message).join('\n')).not.toContain('<error>');
  });
});

describe('a skill\'s action_metadata with a type that did not parse', () => {
  it('is reported where it is written, and the action type using the skill is not told about `<error>`', () => {
    const source = `${HEADER}scenario s {\n  version "1.0.0"\n  action_type review {\n    title: string(..60)\n    skill note\n  }\n  objective o weight 1 = 1\n}\nskill note {\n  version "1.0.0"\n  type deterministic\n  description "d"\n  action_metadata {\n    title: {action_metadata.cards}\n  }\n  output { note: string(..100) }\n  template default { note: "x" }\n}\n`;
    const diagnostics = checkSources({ root: 'w', files: [{ path: 'w/world.adec', text: source }] }).diagnostics;
    expect(diagnostics.map((d) => d.code)).not.toContain('ADEC4018');
    expect(diagnostics.map((d) => d.message).join('\n')).not.toContain('<error>');
    expect(diagnostics.map((d) => d.code)).toContain('ADEC1003');
  });
});

describe('a world whose own text says `<error>`', () => {
  it('keeps its only error, though follow-ons that would show `<error>` are dropped', () => {
    const source = `${HEADER}action refund {\n  context { supplied amount: int }\n  rule large_refund {\n    outcome  YELLOW\n    severity t2\n    when     amount > 500\n    reason   "A refund of {amount} needs a second look"\n  }\n}\ntest "t" {\n  action  refund\n  context { amount: 900 }\n  expect  YELLOW by large_refund\n  expect  reason "<error>"\n}\n`;
    const result = checkSources({ root: 'w', files: [{ path: 'w/world.adec', text: source }] });
    expect(result.world).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([['ADEC4026', 'test `t` expects reason "<error>", which rule `large_refund` never gives']]);
  });
});
