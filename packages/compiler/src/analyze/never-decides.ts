/**
 * ADEC5003: a rule that can never decide its action's outcome (docs/spec/adjudication.md §4: T1 is the hard
 * floor; in winner_takes_all the highest tier wins and, within a tier, the most
 * restrictive outcome RED > YELLOW > GREEN-SKIP > GREEN).
 *
 * A rule R can never decide when
 * (a) its effective condition (`applies_when and when`) is never true; or
 * (b) some rule S of the same action outranks R and matches whenever R matches
 *     (R ⇒ S: no assignment of the finite model over both conditions makes R true and S
 *     not true), and nothing can take S out of the matched set: no rule lists S in
 *     `suppresses`. S outranks R when S is T1 and R is not (every aggregation mode), or,
 *     in winner_takes_all, when S has a higher tier, or the same tier and a more
 *     restrictive outcome.
 *
 * Deliberately not reported:
 * - (a) when `when` or `applies_when` alone is always false: ADEC5002 already says so;
 * - (b) for a rule that suppresses other rules: even when its outcome never wins, taking
 *   a rule out of the matched set can change the decision, so the rule is not dead;
 * - cases that rely on S's predicate failing: an errored or timed-out S does not match
 *   (docs/spec/adjudication.md §4.4), and R could then decide. The warning assumes predicates evaluate.
 *
 * Cost. The R ⇒ S check is pairwise. Only pairs that can be related are compared: S must
 * outrank R, and R and S must share an atom (an attribute or an opaque condition; without
 * one, R ⇒ S only if R is never true, case (a), or S is always true, which is checked once
 * per rule). Before building the joint model of a pair, up to WITNESSES_PER_RULE assignments
 * making R true (kept from R's own model) are tried on S: S false on one of them refutes
 * R ⇒ S at the cost of one evaluation. Pairs whose joint model exceeds MAX_ASSIGNMENTS are
 * skipped, and an action stops comparing pairs once MAX_PAIR_MODELS_PER_ACTION joint models
 * were built or MAX_ASSIGNMENTS_PER_ACTION assignments evaluated: what was not compared is
 * not reported.
 *
 * Evaluation. Conditions run compiled (compile.ts) over slot arrays; enumerations skip
 * blocks of assignments on which a conjunct of R is false (`FiniteModel.forEachValue`),
 * counting the skipped assignments against the budget as if evaluated, so budgets run out
 * exactly where a one-by-one enumeration would. Witnesses are stored by atom number
 * (`projectWitnesses`), so a refutation is array indexing and one evaluation. The results
 * equal those of test/analyze/reference-never-decides.ts (the interpreter-based version),
 * checked by test/analyze/compile.test.ts.
 */
import { diagnostic, type Diagnostic, type Span } from '@adec/diagnostics';
import { BOOL, type CheckedAction, type CheckedExpr, type CheckedRule, type RuleOutcome, type SeverityTier } from '../model/index.js';
import { constantValue } from './constant-conditions.js';
import type { Evaluator } from './compile.js';
import { UNKNOWN, type Value } from './evaluate.js';
import { buildModel, evaluationCost, NO_DEFINITIONS, type Definitions, type FiniteModel } from './finite-model.js';

/** Assignments evaluated by R ⇒ S checks in one action before it stops comparing. */
export const MAX_ASSIGNMENTS_PER_ACTION = 2_000_000;
/** Joint models built for R ⇒ S checks in one action before it stops comparing. */
export const MAX_PAIR_MODELS_PER_ACTION = 20_000;
/**
 * Rules whose condition costs more than this many nodes to evaluate (derivations it reads
 * included) are not compared, no claim either way: each comparison evaluates them on
 * thousands of assignments.
 */
export const MAX_COMPARED_CONDITION_NODES = 2_000;
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
  /** The condition compiled on `model`. */
  readonly evaluate?: Evaluator;
  /** Slot of `model` → atom number (per action, see `projectWitnesses`). */
  atoms?: readonly number[];
  /** `witnesses`, by atom number (`UNKNOWN` for atoms `model` does not have). */
  projected?: readonly (readonly Value[])[];
  readonly neverTrue: boolean;
  readonly alwaysTrue: boolean;
  /** Assignments (slots of `model`) on which the rule's condition is true. */
  readonly witnesses: readonly (readonly Value[])[];
}

export interface NeverDecidesOptions {
  readonly maxAssignmentsPerAction?: number;
  readonly maxPairModelsPerAction?: number;
}

interface Budget {
  assignments: number;
  pairModels: number;
}

export function checkNeverDecides(
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
  const scratch = projectWitnesses(facts);

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
    const related = new Set<RuleFacts>();
    for (const key of r.model.keys) for (const f of byAtom.get(key) ?? []) related.add(f);
    for (const s of shadows) {
      if (s === r || !outranks(s.rule, r.rule, winnerTakesAll)) continue;
      if (!s.alwaysTrue && !related.has(s)) continue;
      if (!s.alwaysTrue && (refuted(r, s, scratch) || !implies(r.condition, s.condition, definitions, budget))) continue;
      const reason = outrankingReason(s.rule, r.rule);
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
  const tooLarge = evaluationCost(condition, definitions, MAX_COMPARED_CONDITION_NODES + 1) > MAX_COMPARED_CONDITION_NODES;
  const model = tooLarge ? undefined : buildModel([condition], definitions);
  if (model === undefined) return { rule, index, condition, neverTrue: false, alwaysTrue: false, witnesses: [] };
  let neverTrue = true;
  let alwaysTrue = true;
  const witnesses: Value[][] = [];
  model.forEachValue(condition, (slots, value) => {
    if (value !== false) neverTrue = false;
    if (value !== true) alwaysTrue = false;
    if (value === true && witnesses.length < WITNESSES_PER_RULE) witnesses.push(slots.slice());
    return (neverTrue || alwaysTrue) || witnesses.length < WITNESSES_PER_RULE;
  });
  return { rule, index, condition, model, evaluate: model.compile(condition), neverTrue, alwaysTrue, witnesses };
}

/** `applies_when and when`: the rule matches exactly when this is true. */
export function effectiveCondition(rule: CheckedRule): CheckedExpr {
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

/** Whether `s`, when matched together with `r`, always wins over it. */
function outranks(s: CheckedRule, r: CheckedRule, winnerTakesAll: boolean): boolean {
  if (s.severity === 't1' && r.severity !== 't1') return true;
  if (!winnerTakesAll) return false;
  const sTier = TIER_RANK[s.severity];
  const rTier = TIER_RANK[r.severity];
  return sTier > rTier || (sTier === rTier && RESTRICTIVENESS[s.outcome] > RESTRICTIVENESS[r.outcome]);
}

/** Why `s` outranks `r` (only asked when `outranks(s, r, …)`). */
function outrankingReason(s: CheckedRule, r: CheckedRule): string {
  if (s.severity === 't1' && r.severity !== 't1') return `whenever it matches, T1 rule \`${s.id}\` also matches and wins`;
  if (TIER_RANK[s.severity] > TIER_RANK[r.severity]) {
    return `whenever it matches, rule \`${s.id}\` of the higher severity ${s.severity} also matches and wins`;
  }
  return `whenever it matches, rule \`${s.id}\` of the same tier with the more restrictive outcome ${s.outcome} also matches`;
}

function indexByAtom(rules: readonly RuleFacts[]): Map<string, RuleFacts[]> {
  const index = new Map<string, RuleFacts[]>();
  for (const facts of rules) {
    for (const key of facts.model!.keys) {
      const list = index.get(key);
      if (list === undefined) index.set(key, [facts]);
      else list.push(facts);
    }
  }
  return index;
}

/**
 * A quick proof that R ⇏ S: an assignment on which R is true and S is false. S's attributes
 * that R's witness does not assign are unknown, and an unknown never refutes.
 */
function refuted(r: RuleFacts, s: RuleFacts, scratch: Value[]): boolean {
  const atoms = s.atoms!;
  for (const witness of r.projected!) {
    for (let i = 0; i < atoms.length; i++) scratch[i] = witness[atoms[i]!]!;
    if (s.evaluate!(scratch) === false) return true;
  }
  return false;
}

/**
 * Numbers the action's atoms (variable keys), gives each rule its slot → atom table and its
 * witnesses by atom, so that `refuted` needs no look-up by key; returns a scratch array
 * long enough for any rule's slots.
 */
function projectWitnesses(facts: RuleFacts[]): Value[] {
  const numbers = new Map<string, number>();
  let longest = 0;
  for (const f of facts) {
    if (f.model === undefined) continue;
    f.atoms = f.model.keys.map((key) => {
      let n = numbers.get(key);
      if (n === undefined) numbers.set(key, (n = numbers.size));
      return n;
    });
    longest = Math.max(longest, f.atoms.length);
  }
  for (const f of facts) {
    if (f.model === undefined) continue;
    f.projected = f.witnesses.map((witness) => {
      const projected = new Array<Value>(numbers.size).fill(UNKNOWN);
      f.atoms!.forEach((atom, slot) => (projected[atom] = witness[slot]!));
      return projected;
    });
  }
  return new Array<Value>(longest).fill(UNKNOWN);
}

/** R ⇒ S on the joint finite model; `false` when unknown (too large, or out of budget). */
function implies(r: CheckedExpr, s: CheckedExpr, definitions: Definitions, budget: Budget): boolean {
  if (budget.assignments <= 0 || budget.pairModels <= 0) return false;
  budget.pairModels--;
  const result = jointImplication(r, s, definitions);
  if (result === undefined) return false;
  budget.assignments -= result.evaluated;
  return result.holds;
}

/**
 * Whether R ⇒ S holds on the joint finite model of R and S (`undefined`: too large), and
 * how many assignments were evaluated to find out (the enumeration stops at the first
 * assignment with R not false and S not true).
 */
export function jointImplication(
  r: CheckedExpr,
  s: CheckedExpr,
  definitions: Definitions = NO_DEFINITIONS,
): { readonly holds: boolean; readonly evaluated: number } | undefined {
  const model = buildModel([r, s], definitions);
  if (model === undefined) return undefined;
  const evaluateS = model.compile(s);
  let holds = true;
  let evaluated = 0;
  model.forEachValue(r, (slots, value, count) => {
    evaluated += count;
    if (value === false) return true;
    holds = evaluateS(slots) === true;
    return holds;
  });
  return { holds, evaluated };
}

function location(span: Span): string {
  return `${span.file}:${span.line}:${span.column}`;
}
