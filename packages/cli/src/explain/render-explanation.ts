/**
 * An explanation as `adec explain` prints it: the decision in one line, then every rule with a
 * mark (✓ matched, ✗ unmatched, – not applicable, ! errored), and under it each condition the
 * decision evaluated, down through the sub-conditions that decided it to the values they read;
 * or as one JSON object (`--format json`) holding the same and the decision.
 */
import type { ConditionExplanation, Type } from '@adec/compiler';
import type { Span } from '@adec/diagnostics';
import type { DecisionExplanation, RuleExplanation } from './explain-decision.js';
import { readableValue } from './trace-values.js';

/** The source text under a span. */
export type SourceText = (span: Span) => string;

const MARKS = { matched: '✓', unmatched: '✗', not_applicable: '–', errored: '!' } as const;
const HOW: Readonly<Record<ConditionExplanation['decided'], (value: unknown) => string>> = {
  leaf: () => '',
  every_part: (value) => (value === true ? ', every part held:' : value === false ? ', no part held:' : ':'),
  first_part: () => ', because of:',
  negation: () => ', because:',
  branch: () => ', by its condition and the branch taken:',
};

export function renderExplanation(explanation: DecisionExplanation, text: SourceText, types: ReadonlyMap<string, Type>): string {
  const { decision } = explanation;
  const aggregation = decision.decision_metadata.aggregation_outcome;
  const by = aggregation.winning_rule === null ? '' : ` by ${aggregation.winning_rule}`;
  const floor = aggregation.error_floor_applied ? `, raised by the error floor from ${aggregation.status}` : '';
  const lines = [`${explanation.action}: ${decision.status}${by} (${aggregation.basis}, ${aggregation.mode}${floor})`];
  if (decision.decision_metadata.predicate_traces.length === 0) {
    lines.push('no rule was evaluated', ...decision.decision_metadata.context_errors.map((e) => `  context: ${e.path}: ${e.message}`));
    if (decision.work_frame.missing_evidence.length > 0) lines.push(`  missing evidence: ${decision.work_frame.missing_evidence.join(', ')}`);
  }
  for (const rule of explanation.rules) lines.push('', ...renderRule(rule, text, types));
  return `${lines.join('\n')}\n`;
}

function renderRule(rule: RuleExplanation, text: SourceText, types: ReadonlyMap<string, Type>): string[] {
  const { id, outcome, severity } = rule.rule;
  const result = rule.result === null ? 'not evaluated' : rule.result.replace('_', ' ');
  const suppressed = rule.suppressedBy === null ? '' : `, suppressed by ${rule.suppressedBy}`;
  const reason = rule.reason === null ? '' : `: ${JSON.stringify(rule.reason)}`;
  const lines = [`${rule.result === null ? ' ' : MARKS[rule.result]} ${id}  ${outcome} ${severity}  ${result}${suppressed}${reason}`];
  if (rule.error !== null) lines.push(`    ${rule.error}`);
  if (rule.appliesWhen !== null) lines.push(...renderCondition('applies_when ', rule.appliesWhen, 2, rule, text, types));
  if (rule.when !== null) lines.push(...renderCondition('when ', rule.when, 2, rule, text, types));
  if (rule.reasonFault !== null) lines.push(...renderCondition('reason {', rule.reasonFault, 2, rule, text, types, '}'));
  if (!rule.agrees) lines.push('    note: re-evaluating these conditions from the trace does not give the recorded result; the recorded result stands');
  return lines;
}

function renderCondition(label: string, condition: ConditionExplanation, depth: number, rule: RuleExplanation, text: SourceText, types: ReadonlyMap<string, Type>, close = ''): string[] {
  // A division by 0 has no value: the predicate failed there (docs/language-guide.md §3).
  const zero = condition.zeroDivisor;
  const value = zero !== undefined ? `fails: the divisor \`${oneLine(text(zero))}\` is 0` : condition.value === undefined ? 'unknown' : JSON.stringify(condition.value);
  const reads = condition.reads.map((name) => `${name} = ${Object.hasOwn(rule.inputs, name) ? readableValue(rule.inputs[name], types.get(name)!) : 'unknown'}`);
  const saw = reads.length === 0 ? '' : `    (${reads.join(', ')})`;
  const head = `${'  '.repeat(depth)}${label}${oneLine(text(condition.span))}${close}  → ${value}${HOW[condition.decided](condition.value)}${saw}`;
  return [head, ...condition.parts.flatMap((part) => renderCondition('', part, depth + 1, rule, text, types))];
}

/** A condition written over several lines, on one. */
function oneLine(source: string): string {
  return source.replace(/\s+/g, ' ').trim();
}

/** The `--format json` form: the explanation with each condition's source text and the values its leaves read. */
export function explanationJson(explanation: DecisionExplanation, text: SourceText) {
  const aggregation = explanation.decision.decision_metadata.aggregation_outcome;
  return {
    action: explanation.action,
    status: explanation.decision.status,
    winning_rule: aggregation.winning_rule,
    basis: aggregation.basis,
    rules: explanation.rules.map((rule) => ({
      rule_id: rule.rule.id,
      outcome: rule.rule.outcome,
      severity: rule.rule.severity,
      result: rule.result,
      reason: rule.reason,
      suppressed_by: rule.suppressedBy,
      error: rule.error,
      applies_when: rule.appliesWhen === null ? null : conditionJson(rule.appliesWhen, rule, text),
      when: rule.when === null ? null : conditionJson(rule.when, rule, text),
      ...(rule.reasonFault !== null && { reason_fault: conditionJson(rule.reasonFault, rule, text) }),
      agrees: rule.agrees,
    })),
    decision: explanation.decision,
  };
}

interface ConditionJson {
  readonly condition: string;
  readonly value: unknown;
  readonly decided: ConditionExplanation['decided'];
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly parts: readonly ConditionJson[];
  /** The divisor that was 0 where it failed (a division by 0 has no value). */
  readonly zero_divisor?: string;
}

function conditionJson(condition: ConditionExplanation, rule: RuleExplanation, text: SourceText): ConditionJson {
  return {
    condition: oneLine(text(condition.span)),
    value: condition.value ?? null,
    decided: condition.decided,
    inputs: Object.fromEntries(condition.reads.map((name) => [name, rule.inputs[name] ?? null])),
    parts: condition.parts.map((part) => conditionJson(part, rule, text)),
    ...(condition.zeroDivisor !== undefined && { zero_divisor: oneLine(text(condition.zeroDivisor)) }),
  };
}
