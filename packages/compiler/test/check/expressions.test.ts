/**
 * Names, operators and types inside expressions (LANGUAGE.md "Types"). Each world has
 * one action whose rule `r` has `when` on line 9, starting at column 10.
 */
import { describe, expect, it } from 'vitest';
import { actionWith, check, checkOk, expectDiagnostics } from './helpers.js';

const BENEFITS_CONTEXT = `  supplied relationship: "child" | "spouse" | "domestic_partner"
  supplied dependent_age: int
  supplied full_time_student: bool?
  supplied documents: list<string>
  supplied note: string?`;

/** Context on lines 3–7, `when` on line 13 at column 10. */
const benefits = (when: string) => actionWith(BENEFITS_CONTEXT, when);

describe('names', () => {
  it('reports an unknown name with a suggestion (ADEC2001)', () => {
    expectDiagnostics(benefits('dependent_ag > 1 and dependent_age > 2 and relationship == "child" and full_time_student ?? false and documents == [] and note == "x"'), [
      ['ADEC2001', 13, 10, 'unknown name `dependent_ag`', 'did you mean `dependent_age`?'],
    ]);
  });

  it('reports an unknown field with a suggestion (ADEC2002)', () => {
    expectDiagnostics(actionWith('  supplied p: { limit: int, label: string }', 'p.limt > 1 and p.label == "x"'), [
      ['ADEC2002', 9, 12, '`p` has no field `limt`', 'did you mean `limit`?'],
    ]);
  });

  it('reports an unknown built-in function (ADEC2008)', () => {
    expectDiagnostics(actionWith('  supplied x: float', 'roud(x) > 1'), [['ADEC2008', 9, 10, 'unknown function `roud`', 'did you mean `round`?']]);
  });

  it('reports a wrong number of arguments (ADEC3009)', () => {
    expectDiagnostics(actionWith('  supplied x: float', 'clamp(x, 0) > 1'), [['ADEC3009', 9, 10, '`clamp` expects 3 argument(s), found 2', undefined]]);
  });

  it('reports an argument of the wrong type (ADEC3001)', () => {
    expectDiagnostics(actionWith('  supplied x: string', 'abs(x) > 1'), [['ADEC3001', 9, 14, 'expected a number, found string', undefined]]);
  });

  it('types built-in calls', () => {
    const world = checkOk(actionWith('  supplied x: float\n  supplied s: string', 'round(x) + len(lower(s)) > clamp(x, 0, 1)'));
    expect(world.actions[0]!.rules[0]!.when).toMatchObject({
      kind: 'compare',
      left: { kind: 'arithmetic', type: { kind: 'int' } },
      right: { kind: 'call', name: 'clamp', type: { kind: 'float' } },
    });
  });
});

describe('operators', () => {
  it('reports arithmetic on mismatched operands at the operator (ADEC3003)', () => {
    expectDiagnostics(actionWith('  supplied x: int', 'x + "a" > 1'), [['ADEC3003', 9, 12, 'operator `+` cannot be applied to int and string', undefined]]);
  });

  it('types int / int as float and timestamps minus timestamps as durations', () => {
    const world = checkOk(actionWith('  supplied x: int\n  supplied t: timestamp\n  system request_time: timestamp', 'x / 2 > 1.5 and request_time - t > 18h'));
    expect(world.actions[0]!.rules[0]!.when).toMatchObject({
      left: { left: { kind: 'arithmetic', type: { kind: 'float' } } },
      right: { left: { kind: 'arithmetic', type: { kind: 'duration' } } },
    });
  });

  it('reports CONTAINS_ANY with a non-list on the right, as LANGUAGE.md shows (ADEC3004)', () => {
    const diagnostics = expectDiagnostics(actionWith('  supplied s: string\n  supplied n: int', 's CONTAINS_ANY n'), [
      ['ADEC3004', 10, 25, 'CONTAINS_ANY expects list<string> on the right, found int', undefined],
    ]);
    expect(diagnostics[0]!.label).toBe('this is int');
  });

  it('reports CONTAINS on a number (ADEC3004)', () => {
    expectDiagnostics(actionWith('  supplied n: int', 'n CONTAINS "a"'), [['ADEC3004', 9, 10, 'CONTAINS expects a string or list on the left, found int', undefined]]);
  });

  it('reports LENGTH against a string (ADEC3004)', () => {
    expectDiagnostics(actionWith('  supplied s: string', 's LENGTH < "ten"'), [['ADEC3004', 9, 21, 'LENGTH < expects a number on the right, found string', undefined]]);
  });

  it('reports MATCHES with a pattern that is not a literal (ADEC3004)', () => {
    expectDiagnostics(actionWith('  supplied s: string\n  supplied p: string', 's MATCHES p'), [
      ['ADEC3004', 10, 20, 'MATCHES expects a string literal pattern on the right, found string', undefined],
    ]);
  });

  it('reports an invalid regular expression (ADEC3008)', () => {
    const [diagnostic] = check(actionWith('  supplied s: string', 's MATCHES "(unclosed"')).diagnostics;
    expect(diagnostic).toMatchObject({ code: 'ADEC3008', span: { line: 9, column: 21, endColumn: 22 } }); // the `(` never closed
    expect(diagnostic!.message).toMatch(/^invalid regular expression: /);
  });

  it('reports comparing values of different kinds (ADEC3005)', () => {
    expectDiagnostics(actionWith('  supplied n: int\n  supplied b: bool', 'n == b'), [['ADEC3005', 10, 10, 'cannot compare int with bool', undefined]]);
  });

  it('reports ordering booleans (ADEC3005)', () => {
    expectDiagnostics(actionWith('  supplied b: bool', 'b < true'), [['ADEC3005', 9, 10, 'cannot compare bool with bool', undefined]]);
  });

  it('reports a non-bool operand of `and` (ADEC3001)', () => {
    expectDiagnostics(actionWith('  supplied n: int', 'n and true'), [['ADEC3001', 9, 10, 'expected bool, found int', undefined]]);
  });

  it('reports `in` with a list of another type (ADEC3004)', () => {
    expectDiagnostics(actionWith('  supplied n: int', 'n in ["a"]'), [['ADEC3004', 9, 15, 'in expects list<int> on the right, found list<string>', undefined]]);
  });
});

describe('enums', () => {
  it('reports a string that is not a member, with a suggestion (ADEC3006)', () => {
    expectDiagnostics(benefits('relationship == "chlid" and dependent_age > 1 and full_time_student == true and documents == [] and note == "x"'), [
      ['ADEC3006', 13, 26, '"chlid" is not a member of "child" | "spouse" | "domestic_partner"', 'did you mean "child"?'],
    ]);
  });

  it('checks the members of an `in` list and of EQUALS', () => {
    expectDiagnostics(actionWith('  supplied r: "child" | "spouse"', 'r in ["child", "spuose"] or r EQUALS "kid"'), [
      ['ADEC3006', 9, 25, '"spuose" is not a member of "child" | "spouse"', 'did you mean "spouse"?'],
      ['ADEC3006', 9, 47, '"kid" is not a member of "child" | "spouse"', undefined],
    ]);
  });
});

describe('lists', () => {
  it('reports items of different types (ADEC3010)', () => {
    expectDiagnostics(actionWith('  supplied n: int', 'n in [1, "two"]'), [['ADEC3010', 9, 19, 'list elements must have one type: found int and string', undefined]]);
  });

  it('accepts an empty list against any list', () => {
    checkOk(actionWith('  supplied d: list<string>', 'd == [] or len(d) > 2'));
  });
});

describe('optional values', () => {
  it('reports an optional value used without a guard (ADEC3007)', () => {
    expectDiagnostics(actionWith('  supplied s: bool?', 's and true'), [
      ['ADEC3007', 9, 10, '`s` may be absent (bool?); use `??` or check `IS NOT NULL` first', undefined],
    ]);
  });

  it('narrows after `IS NOT NULL and`, `IS NULL or` and in `if … then`', () => {
    checkOk(
      actionWith(
        '  supplied s: bool?\n  supplied n: int?',
        '(s IS NOT NULL and s) or ((n IS NULL or n > 3) and (if n IS NOT NULL then n > 1 else false)) or n == 2',
      ),
    );
  });

  it('does not narrow the other branch', () => {
    expectDiagnostics(actionWith('  supplied n: int?', 'if n IS NOT NULL then true else n > 1'), [
      ['ADEC3007', 9, 42, '`n` may be absent (int?); use `??` or check `IS NOT NULL` first', undefined],
    ]);
  });

  it('reports the right side of `??` of another type (ADEC3001)', () => {
    expectDiagnostics(actionWith('  supplied n: int?', '(n ?? "none") == 1'), [['ADEC3001', 9, 16, 'expected int, found string', undefined]]);
  });

  it('reports an interpolated optional value (ADEC3007) and an interpolated list (ADEC3012)', () => {
    expectDiagnostics(actionWith('  supplied n: int?\n  supplied d: list<string>', 'true').replace('reason "refused"', 'reason "{n} {d}"'), [
      ['ADEC3007', 11, 14, '`n` may be absent (int?); use `??` or check `IS NOT NULL` first', undefined],
      ['ADEC3012', 11, 18, 'cannot interpolate list<string> into a string', undefined],
    ]);
  });

  it('proves presence from `or`: after `(n IS NULL or n > 3) or …`, `n` is present', () => {
    expectDiagnostics(actionWith('  supplied n: int?', '(n IS NULL or n > 3) or (n ?? 0) > 1'), [
      ['ADEC5005', 9, 35, '`n` cannot be absent (int), so `??` has no effect', undefined],
    ]);
  });
});

describe('conditionals', () => {
  it('joins int and float branches to float', () => {
    const world = checkOk(actionWith('  supplied n: int', '(if n > 1 then 1 else 0.5) > 0.7'));
    expect(world.actions[0]!.rules[0]!.when).toMatchObject({ left: { kind: 'if', type: { kind: 'float' } } });
  });

  it('desugars IF c THEN b to `not c or b`', () => {
    const world = checkOk(actionWith('  supplied n: int', 'IF n > 1 THEN n < 5'));
    expect(world.actions[0]!.rules[0]!.when).toMatchObject({ kind: 'logical', operator: 'or', left: { kind: 'not' }, right: { kind: 'compare' } });
  });

  it('reports branches of different types (ADEC3001)', () => {
    expectDiagnostics(actionWith('  supplied n: int', '(if n > 1 then 1 else "x") == 1'), [['ADEC3001', 9, 32, 'expected int, found string', undefined]]);
  });
});
