/** ADEC4011 for a voting mode asking for more than its voters (t2, t3) can give: a `vote_of_n` quorum, a `weighted_sum_threshold`. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

/** An action aggregating with `vote_of_n n` over rules of the given tiers. */
function world(n: number, tiers: readonly string[]): string {
  const rules = tiers.map((tier, i) => `  rule r${i} { outcome RED severity ${tier} when x > ${i} }`).join('\n');
  return `${HEADER}context { supplied x: int }\naction a {\n  aggregate vote_of_n ${n}\n${rules}\n}\n`;
}

function quorumErrors(source: string) {
  return check(source)
    .diagnostics.filter((d) => d.code === 'ADEC4011')
    .map((d) => [d.span.line, d.span.column, d.message, d.help]);
}

describe('vote_of_n quorum (ADEC4011)', () => {
  it.each([
    [2, ['t2'], 'only 1 rule that can vote', 'ask for at most 1'],
    [3, ['t1', 't2', 't3'], 'only 2 rules that can vote', 'ask for at most 2'],
    [5, ['t3', 't3', 't2', 't2'], 'only 4 rules that can vote', 'ask for at most 4'],
    [1, ['t1'], 'no rule that can vote', 'add t2 or t3 rules, or aggregate with `winner_takes_all`'],
    [1, [], 'no rule that can vote', 'add t2 or t3 rules, or aggregate with `winner_takes_all`'],
  ])('vote_of_n %i over %j is refused at the quorum', (n, tiers, have, help) => {
    expect(quorumErrors(world(n, tiers))).toEqual([
      [4, 23, `aggregation \`vote_of_n\` needs ${n} votes, but action \`a\` has ${have} (its t2 and t3 rules)`, `no status can ever reach the quorum: ${help}`],
    ]);
  });

  it.each([
    [1, ['t2']],
    [2, ['t2', 't3']],
    [2, ['t1', 't2', 't2', 't3']],
  ])('vote_of_n %i over %j is accepted', (n, tiers) => {
    expect(quorumErrors(world(n, tiers))).toEqual([]);
  });

  it('says nothing while a rule has no valid severity (that is reported on its own)', () => {
    expect(quorumErrors(world(3, ['t2', 't9']))).toEqual([]);
  });
});

/** An action aggregating with `weighted_sum_threshold t` over rules of the given tiers and weights (undefined: the default 1). */
function weightedWorld(threshold: number, rules: readonly (readonly [string, number | undefined])[]): string {
  const body = rules.map(([tier, weight], i) => `  rule r${i} { outcome RED severity ${tier}${weight === undefined ? '' : ` weight ${weight}`} when x > ${i} }`).join('\n');
  return `${HEADER}context { supplied x: int }\naction a {\n  aggregate weighted_sum_threshold ${threshold}\n${body}\n}\n`;
}

describe('weighted_sum_threshold reach (ADEC4011)', () => {
  const weights = fc.array(fc.tuple(fc.constantFrom('t1', 't2', 't3'), fc.option(fc.integer({ min: 1, max: 100 }).map((w) => w / 100), { nil: undefined })), { maxLength: 8 });

  it('is refused exactly when the threshold is above what every voter together weighs (generated actions)', () => {
    fc.assert(
      fc.property(weights, fc.integer({ min: 1, max: 10_000 }).map((t) => t / 100), (rules, threshold) => {
        const reachable = rules.filter(([tier]) => tier !== 't1').reduce((sum, [, weight]) => sum + (weight ?? 1), 0);
        const errors = quorumErrors(weightedWorld(threshold, rules));
        expect(errors.length).toBe(threshold > reachable + 1e-9 ? 1 : 0);
        for (const [line, , message, help] of errors) {
          expect(line).toBe(4);
          expect(message).toMatch(/^aggregation `weighted_sum_threshold` needs a weight of [\d.]+, but action `a` has (rules that can vote weighing [\d.]+ in all \(its t2 and t3 rules, each weighing at most 1\)|no rule that can vote)$/);
          expect(help).toMatch(/^no status can ever reach the threshold: /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [70, [['t2', 0.9], ['t3', 0.8], ['t3', undefined]] as const, 'rules that can vote weighing 2.7 in all (its t2 and t3 rules, each weighing at most 1)', 'ask for at most 2.7; if 70 is a percentage, write 0.7'],
    [3, [['t2', 0.5], ['t3', 0.5]] as const, 'rules that can vote weighing 1 in all (its t2 and t3 rules, each weighing at most 1)', 'ask for at most 1'],
    [0.5, [['t1', undefined]] as const, 'no rule that can vote', 'add t2 or t3 rules, or aggregate with `winner_takes_all`'],
  ])('weighted_sum_threshold %d over %j names what the voters weigh', (threshold, rules, have, help) => {
    expect(quorumErrors(weightedWorld(threshold, rules))).toEqual([
      [4, 36, `aggregation \`weighted_sum_threshold\` needs a weight of ${threshold}, but action \`a\` has ${have}`, `no status can ever reach the threshold: ${help}`],
    ]);
  });

  it('accepts a threshold equal to the voters\' weight, however floats add it up', () => {
    expect(quorumErrors(weightedWorld(0.3, [['t2', 0.1], ['t3', 0.2]]))).toEqual([]);
    expect(quorumErrors(weightedWorld(0.6, [['t2', 0.1], ['t2', 0.2], ['t3', 0.3]]))).toEqual([]);
  });
});
