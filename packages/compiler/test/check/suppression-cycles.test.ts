/** ADEC4008 for suppressions that go round in a cycle, reported once per cycle at its first rule. */
import { describe, expect, it } from 'vitest';
import { HEADER, check, checkOk } from './helpers.js';

/** An action whose rules `[id, suppresses…]` are declared in order, one per line from line 4. */
function world(rules: readonly (readonly string[])[], severities: Record<string, string> = {}): string {
  const lines = rules.map(([id, ...targets]) => {
    const suppresses = targets.length > 0 ? ` suppresses ${targets.join(', ')}` : '';
    return `  rule ${id} { outcome RED severity ${severities[id!] ?? 't2'} when x > 1${suppresses} reason "no" }`;
  });
  return `${HEADER}context { supplied x: int }\naction a {\n${lines.join('\n')}\n}\n`;
}

function cycleErrors(source: string) {
  return check(source)
    .diagnostics.filter((d) => d.code === 'ADEC4008')
    .map((d) => [d.span.line, d.span.column, d.message]);
}

describe('suppression cycles (ADEC4008)', () => {
  it.each([
    ['two rules', [['a', 'b'], ['b', 'a']], [[4, 58, 'rule `a` cannot suppress `b`: the rules suppress each other in a cycle, a → b → a']]],
    ['three rules', [['a', 'b'], ['b', 'c'], ['c', 'a']], [[4, 58, 'rule `a` cannot suppress `b`: the rules suppress each other in a cycle, a → b → c → a']]],
    ['a cycle that does not start at the first rule', [['a', 'b'], ['b', 'c'], ['c', 'b']], [[5, 58, 'rule `b` cannot suppress `c`: the rules suppress each other in a cycle, b → c → b']]],
    ['two separate cycles', [['a', 'b'], ['b', 'a'], ['c', 'd'], ['d', 'c']], [
      [4, 58, 'rule `a` cannot suppress `b`: the rules suppress each other in a cycle, a → b → a'],
      [6, 58, 'rule `c` cannot suppress `d`: the rules suppress each other in a cycle, c → d → c'],
    ]],
    ['a cycle reached through a second target', [['a', 'c', 'b'], ['b', 'a'], ['c']], [[4, 61, 'rule `a` cannot suppress `b`: the rules suppress each other in a cycle, a → b → a']]],
  ])('%s', (_name, rules, expected) => {
    const diagnostics = check(world(rules)).diagnostics;
    expect(cycleErrors(world(rules))).toEqual(expected);
    expect(diagnostics.filter((d) => d.code === 'ADEC4008').every((d) => d.help?.startsWith('when every rule of the cycle matches'))).toBe(true);
  });

  it('accepts chains and diamonds that do not come back', () => {
    checkOk(`${world([['a', 'b', 'c'], ['b', 'c'], ['c', 'd'], ['d']])}test "t" { action a context { x: 2 } expect RED by a }\n`);
  });

  it('does not count a self-suppression or a suppression of a t1 rule as a cycle (each has its own error)', () => {
    expect(cycleErrors(world([['a', 'a']]))).toEqual([[4, 58, 'rule `a` cannot suppress `a`: a rule cannot suppress itself']]);
    const diagnostics = check(world([['a', 'b'], ['b', 'a']], { a: 't1' })).diagnostics;
    expect(diagnostics.map((d) => d.code)).toEqual(['ADEC4007']);
  });
});
