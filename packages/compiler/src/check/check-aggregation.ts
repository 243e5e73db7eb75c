/**
 * An action's aggregation mode (ARCHITECTURE.md "Composition root", step 5): how matched
 * rules combine into one status. winner_takes_all is the default and takes no parameter.
 */
import type { AggregationClause } from '@adec/grammar';
import type { Aggregation } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import type { RuleDraft } from './check-rule.js';
import { didYouMeanName } from './suggestions.js';

const MODES = ['winner_takes_all', 'vote_of_n', 'weighted_sum_threshold'] as const;

export function checkAggregation(clauses: readonly AggregationClause[], action: string, sink: DiagnosticSink): Aggregation {
  const [clause, ...repeated] = clauses;
  for (const extra of repeated) {
    sink.report('ADEC4009', extra.span, { clause: 'aggregate', owner: `action \`${action}\`` }, clause ? { notes: [firstDeclaredAt(clause.span)] } : {});
  }
  return clause === undefined ? { mode: 'winner_takes_all' } : checkClause(clause, sink);
}

function checkClause(clause: AggregationClause, sink: DiagnosticSink): Aggregation {
  const mode = clause.mode.name;
  const parameter = clause.parameter;
  const problem = (text: string): Aggregation => {
    sink.report('ADEC4011', parameter?.span ?? clause.span, { mode, problem: text });
    return { mode: 'winner_takes_all' };
  };
  switch (mode) {
    case 'winner_takes_all':
      return parameter === undefined ? { mode } : problem('takes no parameter');
    case 'vote_of_n':
      if (parameter === undefined || !Number.isInteger(parameter.value) || parameter.value < 1) {
        return problem('needs the number of votes, a whole number of at least 1, e.g. `vote_of_n 2`');
      }
      return { mode, n: parameter.value };
    case 'weighted_sum_threshold':
      if (parameter === undefined || !(parameter.value > 0)) {
        return problem('needs a positive threshold, e.g. `weighted_sum_threshold 0.5`');
      }
      return { mode, threshold: parameter.value };
    default:
      if (mode !== '') sink.report('ADEC4010', clause.mode.span, { text: mode }, didYouMeanName(mode, MODES));
      return { mode: 'winner_takes_all' };
  }
}

/**
 * ADEC4011 when `vote_of_n n` asks for more votes than the action has voters (its t2 and t3
 * rules; a t1 rule decides alone and never votes): no status could ever reach the quorum, so
 * every vote would end in NO_QUORUM.
 */
export function checkQuorum(clauses: readonly AggregationClause[], aggregation: Aggregation, rules: readonly RuleDraft[], action: string, sink: DiagnosticSink): void {
  const parameter = clauses[0]?.parameter;
  if (aggregation.mode !== 'vote_of_n' || parameter === undefined || rules.some((r) => r.severity === undefined)) return;
  const voters = rules.filter((r) => r.severity !== 't1').length;
  if (aggregation.n <= voters) return;
  const have = voters === 1 ? 'only 1 rule that can vote' : voters === 0 ? 'no rule that can vote' : `only ${voters} rules that can vote`;
  sink.report(
    'ADEC4011',
    parameter.span,
    { mode: aggregation.mode, problem: `needs ${aggregation.n} votes, but action \`${action}\` has ${have} (its t2 and t3 rules)` },
    { help: voters === 0 ? 'no status can ever reach the quorum: add t2 or t3 rules, or aggregate with `winner_takes_all`' : `no status can ever reach the quorum: ask for at most ${voters}` },
  );
}
