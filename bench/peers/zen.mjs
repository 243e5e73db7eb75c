/**
 * GoRules ZEN (zen-engine): the synthetic rules as one decision table, the shape ZEN is built
 * around. Each rule is a row, each context field a column holding a ZEN unary test (an empty cell
 * is "any"), and the `collect` hit policy returns every matching row, each giving its rule id.
 *
 * The decision is created once, so a request pays for evaluation only: moving the context into
 * the native engine, running the table and returning the collected rows. zen-engine 0.52 offers
 * no synchronous way to evaluate a decision, so `matched` returns a Promise.
 */
import { ZenEngine } from '@gorules/zen-engine';

const str = JSON.stringify;
const COLUMNS = ['region', 'tier', 'amount', 'tags', 'note', 'score', 'age'];
const RULE_COLUMN = 'rule';

/** The unary test for one condition; `$` is the column's value (null when the field is absent). */
function unaryTest(condition) {
  switch (condition.kind) {
    case 'equals': return str(condition.value);
    case 'range': return `[${condition.low}..${condition.high})`;
    case 'member': return `${str(condition.value)} in $`;
    case 'contains': return `contains($, ${str(condition.value)})`;
    case 'aboveOrDefault': return `($ ?? ${condition.fallback}) > ${condition.bound}`;
    case 'atLeast': return `>= ${condition.bound}`;
  }
}

/**
 * One row. ZEN skips a row when any of its cells fails, and a cell missing from the row object
 * fails, so every column gets a cell: '' (any) unless a condition fills it.
 */
function row(rule) {
  const cells = { _id: rule.id, ...Object.fromEntries(COLUMNS.map((field) => [field, ''])), [RULE_COLUMN]: str(rule.id) };
  cells.region = str(rule.region);
  for (const condition of rule.conditions) {
    // A cell holds one test: a second condition on a column, or an unknown column, cannot be expressed.
    if (cells[condition.attribute] !== '') throw new Error(`${rule.id}: no free column for "${condition.attribute}"`);
    cells[condition.attribute] = unaryTest(condition);
  }
  return cells;
}

/** The JDM graph: request → decision table → response. */
function decisionContent(rules) {
  const table = {
    hitPolicy: 'collect',
    inputs: COLUMNS.map((field) => ({ id: field, name: field, field })),
    outputs: [{ id: RULE_COLUMN, name: RULE_COLUMN, field: RULE_COLUMN }],
    rules: rules.map(row),
  };
  const position = { x: 0, y: 0 };
  return {
    nodes: [
      { id: 'request', type: 'inputNode', name: 'Request', position },
      { id: 'rules', type: 'decisionTableNode', name: 'Rules', position, content: table },
      { id: 'response', type: 'outputNode', name: 'Response', position },
    ],
    edges: [
      { id: 'request-rules', type: 'edge', sourceId: 'request', targetId: 'rules' },
      { id: 'rules-response', type: 'edge', sourceId: 'rules', targetId: 'response' },
    ],
  };
}

export async function prepareZen(rules) {
  const decision = new ZenEngine().createDecision(decisionContent(rules));
  // Graph errors (a missing node, a broken edge) surface here rather than on the first request.
  decision.validate();
  return {
    name: 'GoRules ZEN (zen-engine)',
    async matched(context) {
      const { result } = await decision.evaluate(context);
      return result.map((hit) => hit[RULE_COLUMN]);
    },
  };
}
