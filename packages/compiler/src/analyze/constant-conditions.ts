/**
 * ADEC5001 / ADEC5002: conditions that are always true or always false, decided on the
 * finite model of the condition (finite-model.ts): true in every assignment → always true;
 * false in every assignment → always false. An assignment where the interpreter cannot
 * tell (`UNKNOWN`) counts as both, so it prevents either claim.
 *
 * A condition and its sub-conditions (operands of `and`, `or`, `not`, the parts of a
 * boolean `if`) are each judged on their own, and only the largest constant one is
 * reported: `x > 5 and x < 3` is reported once, at the `and`. A bare literal (`when true`)
 * is never reported: writing it is deliberate. Neither is `IS NULL` on a value that cannot be
 * absent: the checker reports that as ADEC5005.
 *
 * Cost: the condition is decided on its model with compiled closures, skipping blocks of
 * assignments on which a conjunct is false (finite-model.ts `forEachValue`). When it is not
 * constant, its sub-conditions are decided on the same model, all in one enumeration that
 * stops once each has been seen both true and false, instead of on a model each; a rule's
 * `applies_when` and `when` share one model the same way. Building the models was most of
 * the warnings analysis (8 per rule of a typical action). The answers are the same: a part's
 * constants and attributes are the whole's, so the whole's representatives cover every
 * region the part's own model would (finite-model.ts), provided computed attributes are
 * inlined in both. So the shared model is built with them inlined (`buildInlinedModel`);
 * when that does not fit, each condition and part gets a model of its own, as before.
 * Answers are not memoized by structure: keying 80,000 sub-conditions cost more than
 * deciding them (measured). test/analyze/reference-constant-conditions.ts keeps the plain
 * version, and test/analyze/compile.test.ts checks that both agree.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { CheckedExpr } from '../model/index.js';
import type { Evaluator } from './compile.js';
import type { Value } from './evaluate.js';
import { buildInlinedModel, buildModel, evaluationCost, expressionSize, NO_DEFINITIONS, type Definitions, type FiniteModel } from './finite-model.js';

/**
 * A condition with more nodes than this is judged as a whole only, not part by part: its
 * parts hold up to the square of its size in nodes (a chain `a or b or …` of n operands has
 * n parts of up to n operands each). No claim is made about the parts.
 */
export const MAX_NODES_JUDGED_BY_PART = 2_000;

/**
 * At most this many node evaluations (assignments × nodes, the derivations a model inlines
 * included: `evaluationCost`) to decide a condition, or the parts of one together; beyond, no
 * claim. A 10,000-operand chain over one attribute is decided; over twelve booleans it is not.
 */
export const MAX_NODE_EVALUATIONS = 40_000_000;

/** A condition that always has one value. */
export interface ConstantCondition {
  readonly expr: CheckedExpr;
  readonly value: boolean;
}

/** `true` / `false` when `condition` always has that value, else `undefined`. */
export function constantValue(condition: CheckedExpr, definitions: Definitions = NO_DEFINITIONS): boolean | undefined {
  const model = buildModel([condition], definitions);
  return model === undefined ? undefined : valueOnModel(model, condition, definitions);
}

function valueOnModel(model: FiniteModel, condition: CheckedExpr, definitions: Definitions): boolean | undefined {
  const affordable = Math.floor(MAX_NODE_EVALUATIONS / model.size);
  if (evaluationCost(condition, definitions, affordable + 1) > affordable) return undefined;
  let seenTrue = false;
  let seenFalse = false;
  model.forEachValue(condition, (_slots, value) => {
    if (value !== false) seenTrue = true;
    if (value !== true) seenFalse = true;
    return !(seenTrue && seenFalse);
  });
  return constancy(seenTrue, seenFalse);
}

/** The value a condition always has, from whether it was seen not false and seen not true. */
function constancy(seenTrue: boolean, seenFalse: boolean): boolean | undefined {
  return seenTrue === seenFalse ? undefined : seenTrue;
}

/**
 * The largest constant sub-conditions of each of `conditions` (a rule's `applies_when` and
 * `when`, say), with their value, decided on one model of them all when it fits.
 */
export function constantSubConditions(
  conditions: readonly CheckedExpr[],
  definitions: Definitions = NO_DEFINITIONS,
): ConstantCondition[] {
  const [only] = conditions;
  if (only === undefined) return [];
  const model = buildInlinedModel(conditions, definitions);
  if (model === undefined) {
    if (conditions.length > 1) return conditions.flatMap((condition) => constantSubConditions([condition], definitions));
    return judgedAlone(only, definitions);
  }
  const constant = new Map<CheckedExpr, boolean>();
  for (const condition of conditions) {
    const value = isJudged(condition) ? valueOnModel(model, condition, definitions) : undefined;
    if (value !== undefined) constant.set(condition, value);
  }
  const values = subConditionValues(
    model,
    conditions.filter((condition) => !constant.has(condition)),
    definitions,
  );
  return conditions.flatMap((condition) => {
    const value = constant.get(condition);
    if (value !== undefined) return [{ expr: condition, value }];
    return judgedByPart(condition) ? largestConstant(subConditions(condition), values) : [];
  });
}

/** Whether `condition` is small enough to judge its parts one by one. */
function judgedByPart(condition: CheckedExpr): boolean {
  return expressionSize(condition, MAX_NODES_JUDGED_BY_PART + 1) <= MAX_NODES_JUDGED_BY_PART;
}

/**
 * A condition whose model does not fit with its computed attributes inlined: decided on a
 * model of its own (which may treat them as attributes), then its parts, each as far as
 * their own models allow.
 */
function judgedAlone(condition: CheckedExpr, definitions: Definitions): ConstantCondition[] {
  if (isJudged(condition)) {
    const value = constantValue(condition, definitions);
    if (value !== undefined) return [{ expr: condition, value }];
  }
  if (!judgedByPart(condition)) return [];
  return subConditions(condition).flatMap((sub) => constantSubConditions([sub], definitions));
}

/** Reported when constant: not a bare literal, not an `IS NULL` the checker already reports. */
function isJudged(condition: CheckedExpr): boolean {
  return condition.kind !== 'literal' && !isRedundantNullCheck(condition);
}

function largestConstant(conditions: readonly CheckedExpr[], values: ReadonlyMap<CheckedExpr, boolean | undefined>): ConstantCondition[] {
  return conditions.flatMap((condition) => {
    const value = values.get(condition);
    if (value !== undefined) return [{ expr: condition, value }];
    return largestConstant(subConditions(condition), values);
  });
}

/**
 * The constant value, or undefined, of every judged sub-condition below `conditions`, all
 * decided in one enumeration of `model` (see the module comment).
 */
function subConditionValues(model: FiniteModel, conditions: readonly CheckedExpr[], definitions: Definitions): Map<CheckedExpr, boolean | undefined> {
  const nodes: CheckedExpr[] = [];
  const collect = (expr: CheckedExpr): void => {
    for (const sub of subConditions(expr)) {
      if (isJudged(sub)) nodes.push(sub);
      collect(sub);
    }
  };
  conditions.filter(judgedByPart).forEach(collect);
  // Each part is evaluated on its own: beyond the budget, no claim about any part.
  let affordable = Math.floor(MAX_NODE_EVALUATIONS / model.size);
  for (const node of nodes) {
    affordable -= evaluationCost(node, definitions, affordable + 1);
    if (affordable < 0) return new Map();
  }
  const evaluators: Evaluator[] = nodes.map((node) => model.compile(node));
  const seenTrue = new Array<boolean>(nodes.length).fill(false);
  const seenFalse = new Array<boolean>(nodes.length).fill(false);
  let open = nodes.length;
  if (open > 0) {
    model.forEachSlots((slots) => {
      for (let i = 0; i < evaluators.length; i++) {
        if (seenTrue[i] && seenFalse[i]) continue;
        const value: Value = evaluators[i]!(slots);
        if (value !== false) seenTrue[i] = true;
        if (value !== true) seenFalse[i] = true;
        if (seenTrue[i] && seenFalse[i]) open--;
      }
      return open > 0;
    });
  }
  return new Map(nodes.map((node, i) => [node, constancy(seenTrue[i]!, seenFalse[i]!)]));
}

/**
 * `x IS NULL` on a value that cannot be absent is constant, but the checker already says so
 * with a more helpful message (ADEC5005); one mistake is reported once.
 */
function isRedundantNullCheck(condition: CheckedExpr): boolean {
  if (condition.kind === 'not') return isRedundantNullCheck(condition.operand);
  return condition.kind === 'isNull' && !mayBeAbsent(condition.operand);
}

function mayBeAbsent(expr: CheckedExpr): boolean {
  if (expr.type.kind === 'optional' || expr.type.kind === 'null') return true;
  return expr.kind === 'field' && (expr.optional || mayBeAbsent(expr.object));
}

function subConditions(condition: CheckedExpr): readonly CheckedExpr[] {
  switch (condition.kind) {
    case 'logical':
      return [condition.left, condition.right];
    case 'not':
      return [condition.operand];
    case 'if':
      return condition.type.kind === 'bool'
        ? [condition.condition, condition.consequent, condition.alternate]
        : [condition.condition];
    default:
      return [];
  }
}

/** ADEC5001 / ADEC5002 for each of `conditions` and their sub-conditions. */
export function checkConstantConditions(conditions: readonly CheckedExpr[], definitions: Definitions = NO_DEFINITIONS): Diagnostic[] {
  return constantSubConditions(conditions, definitions).map(({ expr, value }) =>
    diagnostic(value ? 'ADEC5001' : 'ADEC5002', expr.span),
  );
}
