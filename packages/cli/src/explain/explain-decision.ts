/**
 * `adec explain`: why a decision came out as it did, rule by rule. For every rule of the action,
 * matched or not: its result, and for each condition the decision evaluated (`applies_when`,
 * then `when`) the sub-condition that decided it and the values it read. The conditions are
 * re-evaluated from the values the decision's trace recorded (compiler explainCondition), so
 * the decision itself is made exactly as a host makes it; where a re-evaluation does not give
 * the recorded result, the explanation says so rather than contradict the decision. A rule that
 * failed with an exception is re-evaluated too: a division by 0 fails it (docs/language-guide.md
 * §3), and the explanation shows the divisor, in a condition or in the reason.
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
  /** For a rule that failed rendering its reason: the interpolation that divided by 0. */
  readonly reasonFault: ConditionExplanation | null;
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
  // A limit the machine hit (time, memory) is not in the logic: nothing to re-evaluate.
  const unexplained = { ...base, appliesWhen: null, when: null, reasonFault: null, agrees: true };
  if (trace === undefined || (trace.result === 'errored' && error?.kind !== 'exception')) return unexplained;
  const types = new Map(action.context.map((attribute) => [attribute.name, attribute.type]));
  const attribute = (name: string): JsonValue | undefined => (Object.hasOwn(trace.inputs, name) ? computedForm(trace.inputs[name], types.get(name)!) : undefined);
  const appliesWhen = rule.appliesWhen === undefined ? null : explainCondition(rule.appliesWhen, attribute);
  // The decision evaluates `when` only where the rule applies, and renders the reason only where it matched.
  const applies = appliesWhen === null || (appliesWhen.value !== false && appliesWhen.zeroDivisor === undefined);
  const when = trace.result === 'not_applicable' || !applies ? null : explainCondition(rule.when, attribute);
  const reasonFault = when?.value === true && trace.result === 'errored' ? firstZeroDivision(rule, attribute) : null;
  const result = reevaluated(appliesWhen, when, reasonFault);
  // An errored rule agrees unless re-evaluation says it could not have got that far: an exception
  // it cannot reproduce (reading a failed derivation, whose value the trace lacks) leaves it unknown.
  const agrees = trace.result === 'errored' ? result !== 'unmatched' && result !== 'not_applicable' : result === trace.result;
  return { ...base, appliesWhen, when, reasonFault, agrees };
}

/** The first interpolation of the rule's reason that divides by 0, re-evaluated. */
function firstZeroDivision(rule: CheckedRule, attribute: (name: string) => JsonValue | undefined): ConditionExplanation | null {
  for (const part of rule.reason?.parts ?? []) {
    if (typeof part === 'string') continue;
    const explained = explainCondition(part, attribute);
    if (explained.zeroDivisor !== undefined) return explained;
  }
  return null;
}

/** The result the re-evaluated conditions (and reason) give. */
function reevaluated(appliesWhen: ConditionExplanation | null, when: ConditionExplanation | null, reasonFault: ConditionExplanation | null): PredicateResult | undefined {
  if (appliesWhen?.zeroDivisor !== undefined || when?.zeroDivisor !== undefined || reasonFault !== null) return 'errored';
  if (appliesWhen !== null && appliesWhen.value === false) return 'not_applicable';
  if (when?.value === true && (appliesWhen === null || appliesWhen.value === true)) return 'matched';
  return when?.value === false ? 'unmatched' : undefined;
}
