/**
 * `adec explain`: why a decision came out as it did, rule by rule. For every rule of the action,
 * matched or not: its result, and for each condition the decision evaluated (`applies_when`,
 * then `when`) the sub-condition that decided it and the values it read. The conditions are
 * re-evaluated from the values the decision's trace recorded (compiler explainCondition), so
 * the decision itself is made exactly as a host makes it; where a re-evaluation does not give
 * the recorded result, the explanation says so rather than contradict the decision.
 */
import { explainCondition, type CheckedAction, type CheckedRule, type ConditionExplanation, type JsonValue } from '@adec/compiler';
import type { Decision, PredicateResult, PredicateTrace } from '@adec/runtime';
import { computedForm } from './trace-values.js';

export interface DecisionExplanation {
  readonly action: string;
  readonly decision: Decision;
  /** Every rule of the action, in evaluation order (declaration order when no rule ran). */
  readonly rules: readonly RuleExplanation[];
}

export interface RuleExplanation {
  readonly rule: CheckedRule;
  /** Null when no rule ran (the context was refused, or the host did not evaluate the action). */
  readonly result: PredicateResult | null;
  readonly reason: string | null;
  readonly suppressedBy: string | null;
  /** What failed, for an errored rule. */
  readonly error: string | null;
  /** The values the rule read, as the trace recorded them. */
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly appliesWhen: ConditionExplanation | null;
  readonly when: ConditionExplanation | null;
  /** False when re-evaluating the conditions does not give the recorded result. */
  readonly agrees: boolean;
}

export function explainDecision(action: CheckedAction, decision: Decision): DecisionExplanation {
  const metadata = decision.decision_metadata;
  const traces = new Map(metadata.predicate_traces.map((trace) => [trace.rule_id, trace]));
  const byId = new Map(action.rules.map((rule) => [rule.id, rule]));
  const order = metadata.predicate_traces.length > 0 ? metadata.predicate_traces.map((trace) => byId.get(trace.rule_id)!) : action.rules;
  const rules = order.map((rule) => explainRule(action, rule, traces.get(rule.id), decision));
  return { action: action.name, decision, rules };
}

function explainRule(action: CheckedAction, rule: CheckedRule, trace: PredicateTrace | undefined, decision: Decision): RuleExplanation {
  const metadata = decision.decision_metadata;
  const matched = metadata.matched_rule_outcomes.find((m) => m.rule_id === rule.id);
  const error = metadata.errored_predicates.find((e) => e.rule_id === rule.id);
  const base = { rule, result: trace?.result ?? null, reason: matched?.reason ?? null, suppressedBy: matched?.suppressed_by ?? null, error: error?.message ?? null, inputs: trace?.inputs ?? {} };
  if (trace === undefined || trace.result === 'errored') return { ...base, appliesWhen: null, when: null, agrees: true };
  const types = new Map(action.context.map((attribute) => [attribute.name, attribute.type]));
  const attribute = (name: string): JsonValue | undefined => (Object.hasOwn(trace.inputs, name) ? computedForm(trace.inputs[name], types.get(name)!) : undefined);
  const appliesWhen = rule.appliesWhen === undefined ? null : explainCondition(rule.appliesWhen, attribute);
  // The decision evaluates `when` only where the rule applies.
  const when = trace.result === 'not_applicable' ? null : explainCondition(rule.when, attribute);
  return { ...base, appliesWhen, when, agrees: reevaluated(appliesWhen, when) === trace.result };
}

/** The result the re-evaluated conditions give. */
function reevaluated(appliesWhen: ConditionExplanation | null, when: ConditionExplanation | null): PredicateResult | undefined {
  if (appliesWhen !== null && appliesWhen.value === false) return 'not_applicable';
  if (when?.value === true && (appliesWhen === null || appliesWhen.value === true)) return 'matched';
  return when?.value === false ? 'unmatched' : undefined;
}
