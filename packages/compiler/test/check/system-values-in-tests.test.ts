/**
 * Where a system value given in a test's context is reported (ADEC4026): at the key in each test
 * that gives it, which is where the edit goes (into that test's `system { … }`), once per such
 * test and never at the `system` declaration, which is right. Generated over every system value,
 * declared in the shared or the action's context, and every layout of three tests giving it or not.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const SYSTEM_VALUES = [
  ['request_time', 'timestamp', '"2026-03-01T00:00:00Z"'],
  ['request_id', 'string', '"r-1"'],
  ['authenticated_caller', 'string?', '"svc"'],
] as const;

function world(name: string, type: string, value: string, shared: boolean, gives: readonly boolean[]): string {
  const declaration = `system ${name}: ${type}`;
  const tests = gives.map((give, i) => `test "t${i}" {\n  action refund\n  context { amount: 1${give ? `, ${name}: ${value}` : ''} }\n  expect GREEN\n}\n`).join('');
  return `${HEADER}context {\n  supplied amount: int\n${shared ? `  ${declaration}\n` : ''}}\naction refund {\n${shared ? '' : `  context { ${declaration} }\n`}  rule r {\n    outcome RED\n    severity t2\n    when amount > 5 and ${name} IS NOT NULL\n    reason "no"\n  }\n}\n${tests}`;
}

describe('a system value in a test context is reported at each test that gives it (ADEC4026)', () => {
  const layouts = Array.from({ length: 7 }, (_, mask) => [0, 1, 2].map((i) => (((mask + 1) >> i) & 1) === 1));
  const cases = SYSTEM_VALUES.flatMap((value) => [true, false].flatMap((shared) => layouts.map((gives) => [value, shared, gives] as const)));

  it(`one error per giving test, at its key (${cases.length} generated)`, () => {
    for (const [[name, type, value], shared, gives] of cases) {
      const source = world(name, type, value, shared, gives);
      const lines = source.split('\n');
      const expected = gives.flatMap((give, i) => {
        if (!give) return [];
        const line = lines.findIndex((text) => text.startsWith(`test "t${i}"`)) + 3;
        return [[line, lines[line - 1]!.indexOf(`${name}:`) + 1, `test \`t${i}\` gives system attribute \`${name}\` in its context: the host captures system values, a request never sends them`]];
      });
      const errors = check(source).diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => [d.span.line, d.span.column, d.message]), source).toEqual(expected);
    }
  });
});
