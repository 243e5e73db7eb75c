/**
 * The analysis phase: warnings over a checked world (ADEC5001–5004, ADEC5010–5011). It runs only on a
 * world without errors and reports nothing the checker reports; the caller sorts.
 */
import type { Diagnostic } from '@adec/diagnostics';
import type {
  CheckedAction,
  CheckedExpr,
  CheckedScenario,
  CheckedSkill,
  CheckedTemplate,
  CheckedWorld,
} from '../model/index.js';
import { checkConstantConditions } from './constant-conditions.js';
import { checkDisjointSuppressions, type SuppressionSpans } from './disjoint-suppressions.js';
import { definitionKey, NO_DEFINITIONS, type Definitions } from './finite-model.js';
import { checkNeverDecides } from './never-decides.js';
import { checkPatterns, checkProhibitions } from './pattern-warnings.js';
import { checkUnexplainedOutcomes } from './unexplained-outcomes.js';

/** What the checker knows of the source that a checked world no longer holds. */
export interface AnalyzedSources {
  /** Where a rule names a rule it suppresses: ADEC5011 is reported there, else at the rule. */
  readonly suppressionAt?: SuppressionSpans;
}

export function analyzeWorld(world: CheckedWorld, sources: AnalyzedSources = {}): Diagnostic[] {
  const report = new DiagnosticSet();
  for (const action of world.actions) analyzeAction(action, report, sources.suppressionAt ?? (() => undefined));
  for (const skill of world.skills) analyzeSkill(skill, report);
  for (const scenario of world.scenarios) analyzeScenario(scenario, report);
  return report.diagnostics;
}

function analyzeAction(action: CheckedAction, report: DiagnosticSet, suppressionAt: SuppressionSpans): void {
  const definitions: Definitions = new Map(
    action.context.flatMap((attribute) =>
      attribute.derivation ? [[definitionKey('context', attribute.name), attribute.derivation] as const] : [],
    ),
  );
  const roots: CheckedExpr[] = [];
  for (const attribute of action.context) {
    if (attribute.derivation === undefined) continue;
    roots.push(attribute.derivation);
    if (attribute.derivation.type.kind === 'bool') report.add(checkConstantConditions([attribute.derivation], definitions));
  }
  for (const rule of action.rules) {
    const conditions = rule.appliesWhen === undefined ? [rule.when] : [rule.appliesWhen, rule.when];
    roots.push(...conditions);
    report.add(checkConstantConditions(conditions, definitions));
    roots.push(...templateExpressions(rule.reason));
  }
  report.add(checkNeverDecides(action, definitions));
  report.add(checkUnexplainedOutcomes(action));
  report.add(checkDisjointSuppressions(action, definitions, suppressionAt));
  report.add(checkPatterns(roots));
}

function analyzeSkill(skill: CheckedSkill, report: DiagnosticSet): void {
  const roots: CheckedExpr[] = [...templateExpressions(skill.prompt)];
  for (const invariant of skill.invariants) {
    roots.push(invariant.check);
    report.add(checkConstantConditions([invariant.check], NO_DEFINITIONS));
  }
  for (const template of skill.templates) {
    if (template.when !== undefined) {
      roots.push(template.when);
      report.add(checkConstantConditions([template.when], NO_DEFINITIONS));
    }
    for (const field of template.fields) roots.push(...templateExpressions(field.template));
  }
  report.add(checkPatterns(roots));
  report.add(checkProhibitions(skill.prohibitions));
}

function analyzeScenario(scenario: CheckedScenario, report: DiagnosticSet): void {
  const definitions: Definitions = new Map(
    scenario.state.map((state) => [definitionKey('state', state.name), state.derivation] as const),
  );
  const roots: CheckedExpr[] = [];
  for (const state of scenario.state) {
    roots.push(state.derivation);
    if (state.derivation.type.kind === 'bool') report.add(checkConstantConditions([state.derivation], definitions));
  }
  for (const guardrail of scenario.guardrails) {
    roots.push(guardrail.when);
    report.add(checkConstantConditions([guardrail.when], definitions));
    const { effect } = guardrail;
    if (effect.kind === 'block') {
      roots.push(effect.predicate);
      report.add(checkConstantConditions([effect.predicate], definitions));
    } else if (effect.kind === 'cap') {
      roots.push(effect.limit);
    }
  }
  roots.push(...scenario.objectives.map((objective) => objective.score), ...scenario.tieBreaks.map((t) => t.key));
  report.add(checkPatterns(roots));
}

function templateExpressions(template: CheckedTemplate | undefined): CheckedExpr[] {
  return (template?.parts ?? []).filter((part): part is CheckedExpr => typeof part !== 'string');
}

/**
 * Diagnostics without repeats: the world's shared context appears in every action's
 * context, and its computed attributes must be reported once.
 */
class DiagnosticSet {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      const key = `${d.code}|${d.span.file}|${d.span.offset}|${d.span.endOffset}|${d.message}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.diagnostics.push(d);
    }
  }
}
