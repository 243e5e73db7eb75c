/** ADEC4011 for a `vote_of_n` quorum larger than the number of rules that can vote (t2, t3). */
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
