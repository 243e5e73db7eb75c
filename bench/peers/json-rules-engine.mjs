/**
 * json-rules-engine: every synthetic rule as one engine rule whose `all` conditions read the
 * context's fields as facts and whose event carries the rule id. It is the most widely used
 * JavaScript rules engine, so it stands for "rules as JSON, interpreted in-process".
 *
 * The engine and its rules are built once; a request is one `engine.run(context)`, which is the
 * library's only way to evaluate (it builds a fresh almanac of facts per run, and is asynchronous
 * throughout, so `matched` returns a Promise).
 */
import { Engine } from 'json-rules-engine';

/**
 * Operators the built-ins lack. The built-in `contains` accepts arrays only (its fact validator
 * is Array.isArray), so substring needs its own operator; `aboveOrDefault` carries the fallback
 * and the bound in the condition's value so that it is exactly `(fact ?? fallback) > bound`.
 */
const OPERATORS = {
  includesText: (fact, word) => typeof fact === 'string' && fact.includes(word),
  aboveOrDefault: (fact, { fallback, bound }) => (fact ?? fallback) > bound,
};

function engineConditions(condition) {
  const fact = condition.attribute;
  switch (condition.kind) {
    case 'equals': return [{ fact, operator: 'equal', value: condition.value }];
    case 'range': return [
      { fact, operator: 'greaterThanInclusive', value: condition.low },
      { fact, operator: 'lessThan', value: condition.high },
    ];
    case 'member': return [{ fact, operator: 'contains', value: condition.value }];
    case 'contains': return [{ fact, operator: 'includesText', value: condition.value }];
    case 'aboveOrDefault': return [{ fact, operator: 'aboveOrDefault', value: { fallback: condition.fallback, bound: condition.bound } }];
    case 'atLeast': return [{ fact, operator: 'greaterThanInclusive', value: condition.bound }];
  }
}

function engineRule(rule) {
  return {
    name: rule.id,
    conditions: { all: [{ fact: 'region', operator: 'equal', value: rule.region }, ...rule.conditions.flatMap(engineConditions)] },
    event: { type: rule.id },
  };
}

export function prepareJsonRulesEngine(rules) {
  const engine = new Engine(rules.map(engineRule));
  for (const [name, test] of Object.entries(OPERATORS)) engine.addOperator(name, test);
  // An absent optional attribute must reach `aboveOrDefault` as undefined so the fallback applies.
  // Declaring it as an engine fact whose value is undefined does that exactly: a request that has
  // the attribute overrides it with its own value. The alternative, `allowUndefinedFacts`, would
  // also turn a misspelt fact anywhere into a silent non-match instead of an error.
  const optional = new Set(rules.flatMap((rule) => rule.conditions.filter((c) => c.kind === 'aboveOrDefault').map((c) => c.attribute)));
  for (const attribute of optional) engine.addFact(attribute, undefined);
  return {
    name: 'json-rules-engine',
    async matched(context) {
      const { events } = await engine.run(context);
      return events.map((event) => event.type);
    },
  };
}
