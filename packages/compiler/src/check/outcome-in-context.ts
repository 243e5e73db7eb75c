/**
 * Whether a test's context leaves any rule of an outcome able to match. RED and GREEN-SKIP come
 * only from a matched rule with that outcome (check-test.ts), so a test expecting one whose
 * given values make every such rule's `applies_when` or `when` false never passes.
 *
 * Decided with the analysis interpreter (analyze/evaluate.ts), three-valued: the values the test
 * gives are bound, everything else (defaults, computed and system values, timestamps and
 * durations, whose test form differs from the evaluated one) is unknown. A condition false under
 * that is false whatever the unknowns are, so a rule is reported only when it provably cannot
 * match; anything undecided counts as "can match".
 */
import type { CheckedExpr, JsonValue, RuleOutcome, Type } from '../model/index.js';
import { evaluate, type Environment } from '../analyze/index.js';
import type { RuleDraft } from './check-rule.js';
import type { ContextView } from './check-context.js';
import { unwrapOptional } from './type-relations.js';

/** Types whose test values are the values the interpreter computes with. */
const BOUND_KINDS: ReadonlySet<Type['kind']> = new Set(['int', 'float', 'bool', 'string', 'enum']);

/** A rule of the outcome that cannot match, and the part of it that the context makes false. */
export interface UnmatchableRule {
  readonly rule: RuleDraft;
  readonly part: 'applies_when' | 'when';
}

/**
 * The rules with `outcome`, each with the part that is false for `given`, when every one of them
 * is provably unmatchable; undefined when some rule of that outcome may match (or there is none).
 */
export function unmatchableRules(rules: readonly RuleDraft[], outcome: RuleOutcome, given: { readonly [key: string]: JsonValue }, view: ContextView): UnmatchableRule[] | undefined {
  const candidates = rules.filter((rule) => rule.outcome === outcome);
  if (candidates.length === 0) return undefined;
  const env = givenValues(given, view);
  const reasons: UnmatchableRule[] = [];
  for (const rule of candidates) {
    const part = falsePart(rule, env);
    if (part === undefined) return undefined;
    reasons.push({ rule, part });
  }
  return reasons;
}

function falsePart(rule: RuleDraft, env: Environment): UnmatchableRule['part'] | undefined {
  if (isFalse(rule.appliesWhen, env)) return 'applies_when';
  if (isFalse(rule.when, env)) return 'when';
  return undefined;
}

function isFalse(condition: CheckedExpr | undefined, env: Environment): boolean {
  return condition !== undefined && evaluate(condition, env) === false;
}

/** Binds each supplied attribute the test gives a value of a plain scalar type. */
function givenValues(given: { readonly [key: string]: JsonValue }, view: ContextView): Environment {
  const bound = new Map<string, JsonValue>();
  for (const [name, value] of Object.entries(given)) {
    const attribute = view.byName.get(name);
    if (attribute?.decl.source === 'supplied' && BOUND_KINDS.has(unwrapOptional(attribute.type).kind)) bound.set(name, value);
  }
  return {
    lookup: (expr) => (expr.kind === 'ref' && expr.root === 'context' && bound.has(expr.name) ? bound.get(expr.name) : undefined),
  };
}
