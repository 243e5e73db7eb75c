/**
 * An action's aggregation mode (ARCHITECTURE.md "Composition root", step 5): how matched
 * rules combine into one status. winner_takes_all is the default and takes no parameter.
 */
import type { AggregationClause } from '@adec/grammar';
import type { Aggregation } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
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
