/**
 * A RED or YELLOW rule without a `reason` leaves its decision unexplained to the agent (ADEC5010,
 * a warning at the rule); GREEN and GREEN-SKIP rules, and rules with a reason, are left alone.
 * Generated over every outcome, with and without a reason, written on one line or several, among
 * other rules and in any aggregation mode.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const OUTCOMES = ['RED', 'YELLOW', 'GREEN', 'GREEN-SKIP'] as const;
const AGGREGATIONS = ['', '  aggregate vote_of_n 1\n', '  aggregate weighted_sum_threshold 0.5\n'];

interface Rule {
  readonly id: string;
  readonly outcome: (typeof OUTCOMES)[number];
  readonly reason: boolean;
  readonly oneLine: boolean;
}

function ruleText({ id, outcome, reason, oneLine }: Rule, threshold: number): string {
  const clauses = [`outcome ${outcome}`, 'severity t2', `when amount > ${threshold}`, ...(reason ? [`reason "over {amount}"`] : [])];
  return oneLine ? `  rule ${id} { ${clauses.join(' ')} }\n` : `  rule ${id} {\n${clauses.map((c) => `    ${c}\n`).join('')}  }\n`;
}

function world(rules: readonly Rule[], aggregation: string): string {
  return `${HEADER}context { supplied amount: int(0..1000) }\naction refund {\n${aggregation}${rules.map((r, i) => ruleText(r, i * 100)).join('')}}\n`;
}

/** The line each rule starts on. */
const ruleLines = (source: string) => source.split('\n').flatMap((line, i) => (/^ {2}rule /.test(line) ? [i + 1] : []));

describe('RED and YELLOW rules without a reason (ADEC5010)', () => {
  const single = OUTCOMES.flatMap((outcome) => [false, true].flatMap((reason) => [false, true].map((oneLine): Rule => ({ id: 'r', outcome, reason, oneLine }))));
  // Pairs of rules, so that one rule's reason never hides or causes another's warning.
  const pairs = single.flatMap((a) => single.filter((_, i) => i % 3 === 0).map((b) => [a, { ...b, id: 's' }]));
  const cases = [...single.map((r) => [r]), ...pairs].flatMap((rules) => AGGREGATIONS.map((aggregation) => [rules, aggregation] as const));

  it(`warns at each RED or YELLOW rule that has no reason, and nowhere else (${cases.length} generated)`, () => {
    for (const [rules, aggregation] of cases) {
      const source = world(rules, aggregation);
      const lines = ruleLines(source);
      const expected = rules.flatMap((rule, i) =>
        !rule.reason && (rule.outcome === 'RED' || rule.outcome === 'YELLOW')
          ? [[lines[i], 3, `${rule.outcome} rule \`${rule.id}\` has no \`reason\`, so nothing explains its outcome to the agent`, `when it decides, the agent receives ${rule.outcome}, the work frame of ${rule.outcome} and \`reason: null\` beside \`${rule.id}\` in \`matched_rule_outcomes\``]]
          : [],
      );
      const warnings = check(source).diagnostics.filter((d) => d.code === 'ADEC5010');
      expect(warnings.map((d) => [d.span.line, d.span.column, d.message, ...(d.notes ?? [])]), source).toEqual(expected);
      expect(warnings.every((d) => d.severity === 'warning' && d.help?.startsWith('add `reason "…"`'))).toBe(true);
    }
  });

  it('waits for a world without errors, like the other analysis warnings', () => {
    const source = world([{ id: 'r', outcome: 'RED', reason: false, oneLine: false }], '').replace('amount > 0', 'amuont > 0');
    expect(check(source).diagnostics.map((d) => d.code).sort()).toEqual(['ADEC2001', 'ADEC5006']);
  });
});
