/**
 * The reference for ADEC5003: never-decides.ts as it was before the fast path (compiled
 * closures, block skipping, memoized answers), evaluating every assignment with the plain
 * interpreter (evaluate.ts). compile.test.ts checks the fast `checkNeverDecides` reports
 * exactly what this does, budgets included.
 */
import { diagnostic, type Diagnostic, type Span } from '@adec/diagnostics';
import { BOOL, type CheckedAction, type CheckedExpr, type CheckedRule, type RuleOutcome, type SeverityTier } from '../../src/model/index.js';
import { referenceConstantValue as constantValue } from './reference-constant-conditions.js';
import { evaluate, type Value } from '../../src/analyze/evaluate.js';
import { buildModel, NO_DEFINITIONS, type Definitions, type FiniteModel } from '../../src/analyze/finite-model.js';

/** Assignments evaluated by R ⇒ S checks in one action before it stops comparing. */
const MAX_ASSIGNMENTS_PER_ACTION = 2_000_000;
/** Joint models built for R ⇒ S checks in one action before it stops comparing. */
const MAX_PAIR_MODELS_PER_ACTION = 20_000;
/** Assignments kept per rule on which it is true, to refute R ⇒ S cheaply. */
const WITNESSES_PER_RULE = 8;

const TIER_RANK: Readonly<Record<SeverityTier, number>> = { t1: 3, t2: 2, t3: 1 };
const RESTRICTIVENESS: Readonly<Record<RuleOutcome, number>> = { RED: 3, YELLOW: 2, 'GREEN-SKIP': 1, GREEN: 0 };

interface RuleFacts {
  readonly rule: CheckedRule;
  readonly index: number;
  readonly condition: CheckedExpr;
  /** `undefined` when the rule's own model is too large to analyse. */
  readonly model?: FiniteModel;
  readonly neverTrue: boolean;
  readonly alwaysTrue: boolean;
  /** Assignments (by variable key) on which the rule's condition is true. */
  readonly witnesses: readonly ReadonlyMap<string, Value>[];
}

interface NeverDecidesOptions {
  readonly maxAssignmentsPerAction?: number;
  readonly maxPairModelsPerAction?: number;
}

interface Budget {
  assignments: number;
  pairModels: number;
}

export function referenceCheckNeverDecides(
  action: CheckedAction,
  definitions: Definitions = NO_DEFINITIONS,
  options: NeverDecidesOptions = {},
): Diagnostic[] {
  const facts = action.rules.map((rule, index) => ruleFacts(rule, index, definitions));
  const suppressed = new Set(action.rules.flatMap((rule) => rule.suppresses));
  const winnerTakesAll = action.aggregation.mode === 'winner_takes_all';
  const budget: Budget = {
    assignments: options.maxAssignmentsPerAction ?? MAX_ASSIGNMENTS_PER_ACTION,
    pairModels: options.maxPairModelsPerAction ?? MAX_PAIR_MODELS_PER_ACTION,
  };

  // Rules that can shadow others: never suppressed, with an analysable condition, ranked.
  const shadows = facts
    .filter((f) => !suppressed.has(f.rule.id) && f.model !== undefined && !f.neverTrue)
    .sort((a, b) => rank(b.rule) - rank(a.rule) || a.index - b.index);
  const byAtom = indexByAtom(shadows);

  const diagnostics: Diagnostic[] = [];
  for (const r of facts) {
    if (r.model === undefined) continue;
    if (r.neverTrue) {
      if (!conditionPartIsFalse(r.rule, definitions)) {
        diagnostics.push(diagnostic('ADEC5003', r.rule.span, { rule: r.rule.id, reason: 'its condition is never true' }));
      }
      continue;
    }
    if (r.rule.suppresses.length > 0) continue;
    const related = new Set(r.model.keys.flatMap((key) => byAtom.get(key) ?? []));
    for (const s of shadows) {
      const reason = outranks(s.rule, r.rule, winnerTakesAll);
      if (reason === undefined || s === r) continue;
      if (!s.alwaysTrue && !related.has(s)) continue;
      if (!s.alwaysTrue && (refuted(r, s) || !implies(r.condition, s.condition, definitions, budget))) continue;
      diagnostics.push(
        diagnostic(
          'ADEC5003',
          r.rule.span,
          { rule: r.rule.id, reason },
          { notes: [`rule \`${s.rule.id}\` is declared at ${location(s.rule.span)}`] },
        ),
      );
      break;
    }
  }
  return diagnostics;
}

function ruleFacts(rule: CheckedRule, index: number, definitions: Definitions): RuleFacts {
  const condition = effectiveCondition(rule);
  const model = buildModel([condition], definitions);
  if (model === undefined) return { rule, index, condition, neverTrue: false, alwaysTrue: false, witnesses: [] };
  let neverTrue = true;
  let alwaysTrue = true;
  const witnesses: Map<string, Value>[] = [];
  model.forEachAssignment((env, current) => {
    const value = evaluate(condition, env);
    if (value !== false) neverTrue = false;
    if (value !== true) alwaysTrue = false;
    if (value === true && witnesses.length < WITNESSES_PER_RULE) witnesses.push(current());
    return (neverTrue || alwaysTrue) || witnesses.length < WITNESSES_PER_RULE;
  });
  return { rule, index, condition, model, neverTrue, alwaysTrue, witnesses };
}

/** `applies_when and when`: the rule matches exactly when this is true. */
function effectiveCondition(rule: CheckedRule): CheckedExpr {
  if (rule.appliesWhen === undefined) return rule.when;
  return { kind: 'logical', operator: 'and', left: rule.appliesWhen, right: rule.when, type: BOOL, span: rule.span };
}

function conditionPartIsFalse(rule: CheckedRule, definitions: Definitions): boolean {
  return (
    constantValue(rule.when, definitions) === false ||
    (rule.appliesWhen !== undefined && constantValue(rule.appliesWhen, definitions) === false)
  );
}

function rank(rule: CheckedRule): number {
  return TIER_RANK[rule.severity] * 10 + RESTRICTIVENESS[rule.outcome];
}

/** Why `s`, when matched together with `r`, always wins over it; `undefined` if it does not. */
function outranks(s: CheckedRule, r: CheckedRule, winnerTakesAll: boolean): string | undefined {
  if (s.severity === 't1' && r.severity !== 't1') return `whenever it matches, T1 rule \`${s.id}\` also matches and wins`;
  if (!winnerTakesAll) return undefined;
  if (TIER_RANK[s.severity] > TIER_RANK[r.severity]) {
    return `whenever it matches, rule \`${s.id}\` of the higher severity ${s.severity} also matches and wins`;
  }
  if (s.severity === r.severity && RESTRICTIVENESS[s.outcome] > RESTRICTIVENESS[r.outcome]) {
    return `whenever it matches, rule \`${s.id}\` of the same tier with the more restrictive outcome ${s.outcome} also matches`;
  }
  return undefined;
}

function indexByAtom(rules: readonly RuleFacts[]): Map<string, RuleFacts[]> {
  const index = new Map<string, RuleFacts[]>();
  for (const facts of rules) {
    for (const key of facts.model!.keys) index.set(key, [...(index.get(key) ?? []), facts]);
  }
  return index;
}

/**
 * A quick proof that R ⇏ S: an assignment on which R is true and S is false. S's attributes
 * that R's witness does not assign are unknown, and an unknown never refutes.
 */
function refuted(r: RuleFacts, s: RuleFacts): boolean {
  return r.witnesses.some((witness) => evaluate(s.condition, s.model!.keyedEnvironment(witness)) === false);
}

/** R ⇒ S on the joint finite model; `false` when unknown (too large, or out of budget). */
function implies(r: CheckedExpr, s: CheckedExpr, definitions: Definitions, budget: Budget): boolean {
  if (budget.assignments <= 0 || budget.pairModels <= 0) return false;
  budget.pairModels--;
  const model = buildModel([r, s], definitions);
  if (model === undefined) return false;
  let holds = true;
  let evaluated = 0;
  model.forEachAssignment((env) => {
    evaluated++;
    if (evaluate(r, env) === false) return true;
    holds = evaluate(s, env) === true;
    return holds;
  });
  budget.assignments -= evaluated;
  return holds;
}

function location(span: Span): string {
  return `${span.file}:${span.line}:${span.column}`;
}
