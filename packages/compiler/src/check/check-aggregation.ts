/**
 * An action's aggregation mode (ARCHITECTURE.md "Composition root", step 5): how matched
 * rules combine into one status. winner_takes_all is the default and takes no parameter.
 */
import type { Span } from '@adec/diagnostics';
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
 * ADEC4011 when a voting mode asks for more than the action's voters (its t2 and t3 rules; a t1
 * rule decides alone and never votes) can ever give: `vote_of_n n` more votes than there are
 * voters, or `weighted_sum_threshold t` more weight than all of them weigh together (each rule
 * weighs at most 1; a threshold written as a percentage, 70 for 0.7, is the usual slip). No
 * status could ever reach it, so every decision would fall short (NO_QUORUM, BELOW_THRESHOLD).
 */
export function checkQuorum(clauses: readonly AggregationClause[], aggregation: Aggregation, rules: readonly RuleDraft[], action: string, sink: DiagnosticSink): void {
  const parameter = clauses[0]?.parameter;
  if (parameter === undefined || rules.some((r) => r.severity === undefined)) return;
  if (aggregation.mode === 'weighted_sum_threshold') {
    checkThreshold(aggregation.threshold, parameter.span, rules, action, sink);
    return;
  }
  if (aggregation.mode !== 'vote_of_n') return;
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

function checkThreshold(threshold: number, span: Span, rules: readonly RuleDraft[], action: string, sink: DiagnosticSink): void {
  const voters = rules.filter((r) => r.severity !== 't1');
  // Summed as the runtime sums them, in evaluation order; rounded for the message only.
  const reachable = voters.reduce((sum, rule) => sum + (rule.weight ?? 1), 0);
  // A hair of slack: the runtime sums in another order, and no float rounding may make a false error.
  if (threshold <= reachable + 1e-9) return;
  const weigh = voters.length === 0 ? 'has no rule that can vote' : `has rules that can vote weighing ${formatWeight(reachable)} in all (its t2 and t3 rules, each weighing at most 1)`;
  // 70 for 0.7: a percentage; 3 is more likely a miscount than 3%.
  const percentage = threshold >= 10 && threshold <= 100 && threshold / 100 <= reachable ? `; if ${formatWeight(threshold)} is a percentage, write ${formatWeight(threshold / 100)}` : '';
  sink.report(
    'ADEC4011',
    span,
    { mode: 'weighted_sum_threshold', problem: `needs a weight of ${formatWeight(threshold)}, but action \`${action}\` ${weigh}` },
    { help: voters.length === 0 ? 'no status can ever reach the threshold: add t2 or t3 rules, or aggregate with `winner_takes_all`' : `no status can ever reach the threshold: ask for at most ${formatWeight(reachable)}${percentage}` },
  );
}

/** A weight as an author would write it: at most 6 decimals, no float noise (0.1 + 0.2 is 0.3). */
function formatWeight(weight: number): string {
  return String(Number(weight.toFixed(6)));
}
