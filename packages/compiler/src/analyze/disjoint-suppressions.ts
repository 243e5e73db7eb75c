/**
 * ADEC5011: a rule suppresses a rule it can never match together with. A suppression removes
 * its target from the matched set only when both rules matched (docs/spec/adjudication.md §4),
 * so when the finite model proves `R and S` never true, the suppression never takes effect:
 * the author expected the two to overlap, and one of the conditions says something else.
 *
 * Reported only when `R and S` is false on every assignment of their joint model (the same
 * over-approximation as ADEC5003, so the warning is always true); not when either rule alone
 * can never match (ADEC5002 or ADEC5003 says so), nor when the model is too large or the
 * conditions too costly to decide (no claim).
 */
import { diagnostic, type Diagnostic, type Span } from '@adec/diagnostics';
import { BOOL, type CheckedAction, type CheckedExpr, type CheckedRule } from '../model/index.js';
import { constantValue } from './constant-conditions.js';
import { evaluationCost, type Definitions } from './finite-model.js';
import { effectiveCondition, MAX_COMPARED_CONDITION_NODES } from './never-decides.js';

/** Where rule `rule` names `target` in its `suppresses` (the checker knows; a built world may not). */
export type SuppressionSpans = (rule: string, target: string) => Span | undefined;

export function checkDisjointSuppressions(action: CheckedAction, definitions: Definitions, spanOf: SuppressionSpans): Diagnostic[] {
  const byId = new Map(action.rules.map((rule) => [rule.id, rule]));
  const diagnostics: Diagnostic[] = [];
  for (const rule of action.rules) {
    for (const targetId of rule.suppresses) {
      const target = byId.get(targetId);
      if (target === undefined || !provablyDisjoint(rule, target, definitions)) continue;
      diagnostics.push(
        diagnostic(
          'ADEC5011',
          spanOf(rule.id, targetId) ?? rule.span,
          { rule: rule.id, target: targetId },
          {
            notes: [`rule \`${targetId}\` is declared at ${target.span.file}:${target.span.line}:${target.span.column}`],
            help: `a suppression removes \`${targetId}\` only when both rules match: check the conditions of the two rules, or remove the suppression`,
          },
        ),
      );
    }
  }
  return diagnostics;
}

/** Whether the finite model proves the two rules never match together, each matching sometimes. */
function provablyDisjoint(rule: CheckedRule, target: CheckedRule, definitions: Definitions): boolean {
  const conditions = [effectiveCondition(rule), effectiveCondition(target)];
  if (conditions.some((c) => evaluationCost(c, definitions, MAX_COMPARED_CONDITION_NODES + 1) > MAX_COMPARED_CONDITION_NODES)) return false;
  if (conditions.some((c) => constantValue(c, definitions) === false)) return false;
  const both: CheckedExpr = { kind: 'logical', operator: 'and', left: conditions[0]!, right: conditions[1]!, type: BOOL, span: rule.span };
  return constantValue(both, definitions) === false;
}
