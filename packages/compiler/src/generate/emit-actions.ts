/**
 * The adjudication half of the module ABI: `_ACTIONS`, the rule registries and `_COMPUTED`.
 * Rules are listed in evaluation order (t1, t2, t3; declaration order within a tier) so the
 * module reads in the order the runtime runs it.
 */
import {
  RULE_OUTCOMES,
  SEVERITY_TIERS,
  type Aggregation,
  type CheckedAction,
  type CheckedRule,
  type CheckedWorld,
  type ContextAttribute,
  type JsonValue,
  type Type,
  type WorkFrameTemplate,
} from '../model/index.js';
import { entry, jsonCode, objectCode, type Code, type CodeEntry } from './code-literal.js';
import type { ExprEmitter, ExprScope } from './emit-expr.js';
import type { ModuleTypeNames } from './module-types.js';
import { stringLiteral } from './naming.js';
import { sourceLine } from './source-location.js';
import { tsType } from './ts-type.js';

const CONTEXT_SCOPE: ExprScope = { context: 'ctx' };

/** Rules of an action in evaluation order: by severity tier, then declaration order. */
export function rulesInEvaluationOrder(action: CheckedAction): readonly CheckedRule[] {
  return SEVERITY_TIERS.flatMap((tier) => action.rules.filter((r) => r.severity === tier));
}

export interface ActionSections {
  readonly actions: Code;
  readonly ruleFunctions: Code;
  readonly ruleAppliesWhen: Code;
  readonly ruleOutcome: Code;
  readonly ruleSeverity: Code;
  readonly ruleSuppresses: Code;
  readonly ruleReads: Code;
  readonly computed: Code;
}

export function emitActionSections(
  world: CheckedWorld,
  names: ModuleTypeNames,
  emitter: ExprEmitter,
  sources: readonly string[],
): ActionSections {
  const functions: CodeEntry[] = [];
  const appliesWhen: CodeEntry[] = [];
  const outcome: CodeEntry[] = [];
  const severity: CodeEntry[] = [];
  const suppresses: CodeEntry[] = [];
  const reads: CodeEntry[] = [];
  for (const action of world.actions) {
    const contextType = names.actionContext.get(action.name) ?? 'never';
    for (const rule of rulesInEvaluationOrder(action)) {
      const where = `${sourceLine(rule.span, sources)} - rule ${rule.id} (${rule.outcome}, ${rule.severity})`;
      functions.push({ key: rule.id, value: ruleFunction(rule, contextType, emitter), comment: where });
      if (rule.appliesWhen !== undefined) {
        const code = `(ctx: ${contextType}): boolean => ${emitter.emit(rule.appliesWhen, CONTEXT_SCOPE)}`;
        appliesWhen.push({ key: rule.id, value: code, comment: sourceLine(rule.appliesWhen.span, sources) });
      }
      outcome.push({ key: rule.id, value: stringLiteral(rule.outcome) });
      severity.push({ key: rule.id, value: stringLiteral(rule.severity) });
      if (rule.suppresses.length > 0) suppresses.push({ key: rule.id, value: jsonCode(rule.suppresses) });
      reads.push({ key: rule.id, value: jsonCode(rule.reads) });
    }
  }
  return {
    actions: objectCode(world.actions.map((a) => ({ key: a.name, value: actionData(a, world.predicateTimeoutMs) }))),
    ruleFunctions: objectCode(functions),
    ruleAppliesWhen: objectCode(appliesWhen),
    ruleOutcome: objectCode(outcome),
    ruleSeverity: objectCode(severity),
    ruleSuppresses: objectCode(suppresses),
    ruleReads: objectCode(reads),
    computed: objectCode(world.actions.map((a) => ({ key: a.name, value: computedFunctions(a, names, emitter, sources) }))),
  };
}

function actionData(action: CheckedAction, predicateTimeoutMs: number): Code {
  const rules = rulesInEvaluationOrder(action);
  const names = (source: ContextAttribute['source']) => jsonCode(action.context.filter((a) => a.source === source).map((a) => a.name));
  return objectCode([
    entry('rules', jsonCode(rules.map((r) => r.id))),
    entry('aggregation', aggregationData(action.aggregation, rules)),
    entry('work_frames', workFrames(action)),
    entry('computed', names('computed')),
    entry('supplied', names('supplied')),
    entry('system', names('system')),
    entry('reads', jsonCode(actionReads(action))),
    entry('durations', durationShapes(action)),
    entry('predicate_timeout_ms', String(predicateTimeoutMs)),
    entry(
      'rule_timeout_ms',
      objectCode(rules.flatMap((r) => (r.timeoutMs === undefined ? [] : [{ key: r.id, value: String(r.timeoutMs) }]))),
    ),
  ]);
}

/**
 * Where the action's attributes hold durations (`true` for a duration, `{ items }` for a list's
 * elements, `{ fields }` for a record's), so a decision's trace can show them as durations
 * (ISO 8601) rather than the milliseconds the module computes with. Absent when none does, so
 * a world without durations builds exactly as before.
 */
function durationShapes(action: CheckedAction): Code | undefined {
  const shapes = action.context.flatMap((a) => {
    const shape = durationShape(a.type);
    return shape === undefined ? [] : [{ key: a.name, value: jsonCode(shape) }];
  });
  return shapes.length === 0 ? undefined : objectCode(shapes);
}

function durationShape(type: Type): JsonValue | undefined {
  switch (type.kind) {
    case 'duration':
      return true;
    case 'optional':
      return durationShape(type.inner);
    case 'list': {
      const items = durationShape(type.element);
      return items === undefined ? undefined : { items };
    }
    case 'record': {
      const fields = type.fields.flatMap((f) => {
        const shape = durationShape(f.type);
        return shape === undefined ? [] : [[f.name, shape] as const];
      });
      return fields.length === 0 ? undefined : { fields: Object.fromEntries(fields) };
    }
    default:
      return undefined;
  }
}

/**
 * Every attribute the action's rules and derivations read: only these cross into the sandbox,
 * so a request padded with attributes nothing reads costs the predicates nothing.
 */
function actionReads(action: CheckedAction): readonly string[] {
  const reads = new Set<string>();
  for (const rule of action.rules) for (const name of rule.reads) reads.add(name);
  for (const attribute of action.context) for (const name of attribute.reads ?? []) reads.add(name);
  return [...reads].sort();
}

function aggregationData(aggregation: Aggregation, rules: readonly CheckedRule[]): Code {
  const weighted = aggregation.mode === 'weighted_sum_threshold' || rules.some((r) => r.weight !== undefined);
  return objectCode([
    entry('mode', stringLiteral(aggregation.mode)),
    aggregation.mode === 'vote_of_n' ? entry('n', String(aggregation.n)) : undefined,
    aggregation.mode === 'weighted_sum_threshold' ? entry('threshold', String(aggregation.threshold)) : undefined,
    weighted ? entry('weights', objectCode(rules.map((r) => ({ key: r.id, value: String(r.weight ?? 1) })))) : undefined,
  ]);
}

const WORK_FRAME_FIELDS: readonly (keyof WorkFrameTemplate)[] = [
  'mode',
  'next_action',
  'allowed_actions',
  'forbidden_actions',
  'required_output',
  'next_human_owner',
];

function workFrames(action: CheckedAction): Code {
  const entries: CodeEntry[] = [];
  for (const status of RULE_OUTCOMES) {
    const template = action.workFrames[status];
    if (template === undefined) continue;
    const fields = WORK_FRAME_FIELDS.map((field) => {
      const value = template[field];
      return value === undefined ? undefined : entry(field, jsonCode(value));
    });
    entries.push({ key: status, value: objectCode(fields) });
  }
  return objectCode(entries);
}

/**
 * The results predicates share: a predicate that does not match, or matches without a reason,
 * allocates nothing (the decide path runs every predicate of an action). Frozen, so no
 * caller can change what the next call returns.
 */
export const SHARED_RULE_RESULTS = [
  '/** What a predicate returns when it does not match, and when it matches without a reason. */',
  'const NOT_MATCHED: RuleResult = Object.freeze({ matched: false });',
  'const MATCHED: RuleResult = Object.freeze({ matched: true });',
].join('\n');

/**
 * `(ctx) => (condition) satisfies boolean ? <match> : NOT_MATCHED`; a match carries the reason
 * rendered from the rule's template. `satisfies boolean` makes a generator bug that yields a
 * non-boolean condition fail the module's type check. (One expression rather than a block
 * with a local: the type check, run on every build, takes a quarter less time.)
 */
function ruleFunction(rule: CheckedRule, contextType: string, emitter: ExprEmitter): string {
  const condition = emitter.emit(rule.when, CONTEXT_SCOPE);
  const match = rule.reason === undefined ? 'MATCHED' : `{ matched: true, reason: ${emitter.emitTemplate(rule.reason, CONTEXT_SCOPE)} }`;
  return `(ctx: ${contextType}): RuleResult =>\n  (${condition}) satisfies boolean ? ${match} : NOT_MATCHED`;
}

function computedFunctions(action: CheckedAction, names: ModuleTypeNames, emitter: ExprEmitter, sources: readonly string[]): Code {
  const contextType = names.actionContext.get(action.name) ?? 'never';
  const entries: CodeEntry[] = [];
  for (const attribute of action.context) {
    if (attribute.source !== 'computed' || attribute.derivation === undefined) continue;
    const code = `(ctx: ${contextType}): ${tsType(attribute.type)} => ${emitter.emit(attribute.derivation, CONTEXT_SCOPE)}`;
    entries.push({ key: attribute.name, value: code, comment: sourceLine(attribute.span, sources) });
  }
  return objectCode(entries);
}

