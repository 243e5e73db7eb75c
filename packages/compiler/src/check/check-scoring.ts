/**
 * Scoring (docs/spec/selection.md §3.4): weighted objectives whose weights sum to 1, and the
 * execution-risk penalty with its factors, every weight within [0, 1].
 */
import type { Identifier, ObjectiveDecl, ScenarioMember } from '@adec/grammar';
import type { Span } from '@adec/diagnostics';
import { formatType, type CheckedScenario } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { createExprChecker } from './check-expr.js';
import { NOTHING_NARROWED } from './narrowing.js';
import type { ExprScope } from './scope.js';
import { isError, isNumeric } from './type-relations.js';

/** Floating-point slack when summing weights such as 0.1 + 0.2 + 0.7. */
const WEIGHT_SUM_TOLERANCE = 1e-9;

function isUnitWeight(value: number): boolean {
  return value >= 0 && value <= 1;
}

export function checkObjectives(decls: readonly ObjectiveDecl[], scenario: Identifier, scope: ExprScope, sink: DiagnosticSink): CheckedScenario['objectives'] {
  const seen = new Map<string, Span>();
  const allWeightsValid = decls.every((decl) => isUnitWeight(decl.weight.value));
  const objectives = decls.map((decl) => {
    const name = decl.name.name;
    sink.recorder?.declare('objective', name, decl.name.span);
    const first = seen.get(name);
    if (first !== undefined) sink.report('ADEC2010', decl.name.span, { kind: 'objective', name }, { notes: [firstDeclaredAt(first)] });
    else seen.set(name, decl.name.span);
    if (!isUnitWeight(decl.weight.value)) {
      sink.report('ADEC4012', decl.weight.span, { value: decl.weight.value, name });
    }
    const checker = createExprChecker(scope, sink);
    const score = checker.check(decl.score, NOTHING_NARROWED);
    const type = checker.presentType(score, decl.score);
    if (!isError(type) && !isNumeric(type)) {
      sink.report('ADEC3011', decl.score.span, { name, found: formatType(type) }, { label: `this is ${formatType(type)}` });
    }
    return { name, weight: decl.weight.value, score };
  });
  const sum = objectives.reduce((total, o) => total + o.weight, 0);
  if (objectives.length > 0 && allWeightsValid && Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
    sink.report('ADEC4013', scenario.span, { scenario: scenario.name, sum: Number(sum.toFixed(10)) });
  }
  return objectives;
}

export function checkExecutionRisk(decl: Extract<ScenarioMember, { kind: 'ExecutionRiskDecl' }>, sink: DiagnosticSink): NonNullable<CheckedScenario['executionRisk']> {
  if (!isUnitWeight(decl.weight.value)) sink.report('ADEC4012', decl.weight.span, { value: decl.weight.value, name: 'execution_risk' });
  const seen = new Map<string, Span>();
  const factors = decl.factors.map((factor) => {
    const name = factor.name.name;
    const first = seen.get(name);
    if (first !== undefined) sink.report('ADEC2010', factor.name.span, { kind: 'execution risk factor', name }, { notes: [firstDeclaredAt(first)] });
    else seen.set(name, factor.name.span);
    if (!isUnitWeight(factor.value.value)) sink.report('ADEC4012', factor.value.span, { value: factor.value.value, name });
    return { name, value: factor.value.value };
  });
  return { weight: decl.weight.value, factors };
}
