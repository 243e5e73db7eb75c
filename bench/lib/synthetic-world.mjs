/**
 * The synthetic rules (synthetic-rules.mjs) as an adec world: actions of `rulesPerAction`
 * rules each, every rule's region as its `applies_when`, its conditions as its `when`.
 * Deterministic: the same arguments always give the same text, so runs are comparable.
 */
import { syntheticRules } from './synthetic-rules.mjs';

const HEADER = `world {
  org     "bench"
  domain  "synthetic"
  version "1.0.0"
}

context {
  supplied tier:   "bronze" | "silver" | "gold" | "platinum"
  supplied region: "us" | "eu" | "apac" | "latam"
  supplied amount: float(0..1000000)
  supplied age:    int(0..130)
  supplied tags:   list<string> = []
  supplied note:   string = ""
  supplied score:  int?
}
`;

/** One condition in the adec language. */
function adecCondition(condition) {
  switch (condition.kind) {
    case 'equals': return `${condition.attribute} == "${condition.value}"`;
    case 'range': return `${condition.attribute} >= ${condition.low} and ${condition.attribute} < ${condition.high}`;
    case 'member': return `"${condition.value}" in ${condition.attribute}`;
    case 'contains': return `${condition.attribute} CONTAINS "${condition.value}"`;
    case 'aboveOrDefault': return `(${condition.attribute} ?? ${condition.fallback}) > ${condition.bound}`;
    case 'atLeast': return `${condition.attribute} >= ${condition.bound}`;
  }
}

function adecRule(rule) {
  return `  rule ${rule.id} {
    outcome      ${rule.outcome}
    severity     ${rule.severity}
    applies_when region == "${rule.region}"
    when         ${rule.conditions.map(adecCondition).join(' and ')}
    reason       "amount {amount} for a {tier} customer"
  }`;
}

/** The action name of the `index`-th action of a synthetic world. */
export const syntheticActionName = (index) => `action_${String(index).padStart(4, '0')}`;

/** @returns {{ files: Record<string, string>, rules: number, actions: number }} */
export function syntheticWorld(ruleCount, { rulesPerAction = 50, seed = 42 } = {}) {
  const rules = syntheticRules(ruleCount, { seed });
  const files = { 'world.adec': HEADER };
  const actions = Math.ceil(ruleCount / rulesPerAction);
  for (let a = 0; a < actions; a++) {
    const name = syntheticActionName(a);
    const own = rules.slice(a * rulesPerAction, (a + 1) * rulesPerAction);
    files[`${name}.adec`] = `action ${name} {
  aggregate winner_takes_all

${own.map(adecRule).join('\n\n')}

  on RED { next_human_owner "risk-escalations" }
}
`;
  }
  return { files, rules: ruleCount, actions };
}
