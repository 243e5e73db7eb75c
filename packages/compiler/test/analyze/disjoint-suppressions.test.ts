/**
 * A suppression between rules that can never match together never takes effect (ADEC5011, a
 * warning at the suppressed name). Generated over pairs of conditions on an int attribute,
 * in `when` or split into `applies_when`, decided against a brute-force oracle over every
 * value of the attribute; and over enum members, where overlap depends on the members named.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from '../check/helpers.js';

interface Condition {
  readonly text: string;
  readonly holds: (amount: number) => boolean;
}

const THRESHOLDS = [0, 10, 50, 99, 100];
const CONDITIONS: readonly Condition[] = [
  ...THRESHOLDS.flatMap((t): Condition[] => [
    { text: `amount > ${t}`, holds: (a) => a > t },
    { text: `amount <= ${t}`, holds: (a) => a <= t },
    { text: `amount == ${t}`, holds: (a) => a === t },
  ]),
  { text: 'amount >= 20 and amount < 40', holds: (a) => a >= 20 && a < 40 },
  { text: 'amount < 20 or amount > 60', holds: (a) => a < 20 || a > 60 },
];
const AMOUNTS = Array.from({ length: 101 }, (_, a) => a);

function rule(id: string, outcome: string, severity: string, condition: string, splitAppliesWhen: boolean, extra = ''): string {
  // `x and y` split as `applies_when x` / `when y`, which together are the same condition.
  const [applies, when] = splitAppliesWhen && condition.includes(' and ') ? condition.split(' and ') : [undefined, condition];
  return `  rule ${id} {\n    outcome ${outcome}\n    severity ${severity}\n${applies === undefined ? '' : `    applies_when ${applies}\n`}    when ${when}\n    reason "${id}"\n${extra}  }\n`;
}

function world(suppressor: string, target: string, split: boolean): string {
  return `${HEADER}context { supplied amount: int(0..100)\n supplied plan: "basic" | "plus" | "premium" }\naction refund {\n${rule('target', 'YELLOW', 't3', target, split)}${rule('exception', 'GREEN', 't2', suppressor, split, '    suppresses target\n')}}\n`;
}

const suppressionWarnings = (source: string) =>
  check(source)
    .diagnostics.filter((d) => d.code === 'ADEC5011')
    .map((d) => [d.span.line, d.span.column, d.message, d.severity]);

const EXPECTED = (source: string) => [[source.split('\n').findIndex((line) => line.includes('suppresses target')) + 1, 16, 'rule `exception` suppresses `target`, but the two can never match together, so the suppression never takes effect', 'warning']];

describe('suppressions between rules that never match together (ADEC5011)', () => {
  const cases = CONDITIONS.flatMap((s) => CONDITIONS.flatMap((t) => [false, true].map((split) => [s, t, split] as const)));

  it(`warns exactly when the two conditions share no value, each having some (${cases.length} generated)`, () => {
    for (const [s, t, split] of cases) {
      const source = world(s.text, t.text, split);
      const eachMatches = AMOUNTS.some(s.holds) && AMOUNTS.some(t.holds);
      const together = AMOUNTS.some((a) => s.holds(a) && t.holds(a));
      expect(suppressionWarnings(source), `${s.text} / ${t.text}`).toEqual(eachMatches && !together ? EXPECTED(source) : []);
    }
  });

  const PLANS = ['basic', 'plus', 'premium'];
  const planSets = [['basic'], ['plus'], ['basic', 'plus'], ['plus', 'premium']];
  it.each(planSets.flatMap((a) => planSets.map((b) => [a, b] as const)))('plan in %j suppressing plan in %j', (a, b) => {
    const condition = (plans: readonly string[]) => (plans.length === 1 ? `plan == "${plans[0]}"` : `plan in [${plans.map((p) => `"${p}"`).join(', ')}]`);
    const source = world(condition(a), condition(b), false);
    const overlap = PLANS.some((p) => a.includes(p) && b.includes(p));
    expect(suppressionWarnings(source)).toEqual(overlap ? [] : EXPECTED(source));
  });

  it('makes no claim on conditions it cannot decide (a CONTAINS on each side, unrelated)', () => {
    const source = world('amount > 10', 'amount < 5', false).replace('amount: int(0..100)', 'amount: int(0..100)\n supplied note: string').replace('when amount < 5', 'when note CONTAINS "x"');
    expect(suppressionWarnings(source)).toEqual([]);
  });
});
