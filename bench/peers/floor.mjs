/**
 * The floor: the same predicates as plain JavaScript functions, compiled once and run outside
 * any sandbox, with no context validation, no traces and no metadata. Nothing that decides these
 * rules can be cheaper, so adec's cost is reported as a multiple of it.
 */
import { evaluationOrder } from './winner-takes-all.mjs';

const str = JSON.stringify;

function jsCondition(condition) {
  const value = `context.${condition.attribute}`;
  switch (condition.kind) {
    case 'equals': return `${value} === ${str(condition.value)}`;
    case 'range': return `${value} >= ${condition.low} && ${value} < ${condition.high}`;
    case 'member': return `(${value} ?? []).includes(${str(condition.value)})`;
    case 'contains': return `(${value} ?? '').includes(${str(condition.value)})`;
    case 'aboveOrDefault': return `(${value} ?? ${condition.fallback}) > ${condition.bound}`;
    case 'atLeast': return `${value} >= ${condition.bound}`;
  }
}

/** Each rule's id and the body of its predicate over `context`, in evaluation order. */
export function predicateSources(rules) {
  return evaluationOrder(rules).ordered.map((rule) => ({ id: rule.id, body: `return context.region === ${str(rule.region)} && ${rule.conditions.map(jsCondition).join(' && ')};` }));
}

/** The rules as one function per rule, generated as source so V8 sees ordinary code. */
export function prepareFloor(rules) {
  const predicates = predicateSources(rules).map(({ id, body }) => ({
    id,
    // Generated source, as a hand-written rule would be: the floor is unsandboxed by definition.
    holds: new Function('context', body),
  }));
  return {
    name: 'plain JavaScript (floor)',
    matched(context) {
      const ids = [];
      for (const predicate of predicates) if (predicate.holds(context)) ids.push(predicate.id);
      return ids;
    },
  };
}
