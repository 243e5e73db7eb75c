/**
 * A world with a declaration or a word of every kind the language has, each name a parameter:
 * compiler-robustness.test.ts names each kind after the properties every JavaScript object has
 * (`constructor`, `toString`, `__proto__`, …), declared or referenced without a declaration.
 * No name table of the compiler may answer for them with what `Object.prototype` holds.
 */
import type { WorldSources } from '@adec/compiler';

/** The names of the kinds of things a world names or spells, with their everyday values. */
export const DEFAULT_NAMES = {
  // Declarations: the world declares the name, and everything that refers to it uses it.
  attribute: 'amount',
  enumMember: 'premium',
  recordField: 'city',
  action: 'review',
  computedAttribute: 'large',
  rule: 'big',
  skill: 'explain',
  actionMetadataField: 'title',
  outputField: 'text',
  invariant: 'INV-A',
  prohibition: 'PRO-A',
  skillTemplate: 'experienced',
  scenario: 'daily',
  signal: 'sessions',
  state: 'engagement',
  actionType: 'workout',
  actionTypeField: 'kind',
  guardrail: 'GR-A',
  objective: 'completion',
  riskFactor: 'offline_mode',
  test: 'a large amount',
  // Words the language spells out from a closed set, and names it only looks up.
  typeName: 'int',
  outcome: 'YELLOW',
  severity: 't2',
  aggregation: 'winner_takes_all',
  worldSetting: 'name',
  workFrameStatus: 'YELLOW',
  workFrameField: 'next_action',
  expectedStatus: 'YELLOW',
  skillType: 'deterministic',
  defaultMode: 'skill_enhanced',
  durationUnit: 'ms',
  function: 'abs',
} as const;

export type NameKind = keyof typeof DEFAULT_NAMES;

/** What happens when a kind is given one of the names every object has. */
export type Expectation =
  /** An ordinary name: the world checks without an error. */
  | { readonly declared: 'ok' }
  /** The language reserves the name for this kind: ADEC2015, and nothing else. */
  | { readonly declared: 'reserved' }
  /** Not a word of the closed set (or not a known function/type): this one error. */
  | { readonly declared: 'error'; readonly code: string };

export const EXPECTATIONS: Readonly<Record<NameKind, Expectation>> = {
  attribute: { declared: 'reserved' },
  enumMember: { declared: 'ok' },
  recordField: { declared: 'reserved' },
  action: { declared: 'ok' },
  computedAttribute: { declared: 'reserved' },
  rule: { declared: 'ok' },
  skill: { declared: 'ok' },
  actionMetadataField: { declared: 'reserved' },
  outputField: { declared: 'reserved' },
  invariant: { declared: 'ok' },
  prohibition: { declared: 'ok' },
  skillTemplate: { declared: 'ok' },
  scenario: { declared: 'ok' },
  signal: { declared: 'reserved' },
  state: { declared: 'reserved' },
  actionType: { declared: 'ok' },
  actionTypeField: { declared: 'reserved' },
  guardrail: { declared: 'ok' },
  objective: { declared: 'ok' },
  riskFactor: { declared: 'ok' },
  test: { declared: 'ok' },
  typeName: { declared: 'error', code: 'ADEC2009' },
  outcome: { declared: 'error', code: 'ADEC4005' },
  severity: { declared: 'error', code: 'ADEC4006' },
  aggregation: { declared: 'error', code: 'ADEC4010' },
  worldSetting: { declared: 'error', code: 'ADEC2002' },
  workFrameStatus: { declared: 'error', code: 'ADEC4015' },
  workFrameField: { declared: 'error', code: 'ADEC2013' },
  expectedStatus: { declared: 'error', code: 'ADEC4015' },
  skillType: { declared: 'error', code: 'ADEC4025' },
  defaultMode: { declared: 'error', code: 'ADEC4024' },
  durationUnit: { declared: 'error', code: 'ADEC1005' },
  function: { declared: 'error', code: 'ADEC2008' },
};

/**
 * For the declarations: the diagnostic a reference gets when the name is not declared (the
 * world keeps its everyday declaration and one reference uses the other name).
 */
export const UNDECLARED_REFERENCE: Partial<Readonly<Record<NameKind, string>>> = {
  attribute: 'ADEC2001',
  enumMember: 'ADEC3006',
  recordField: 'ADEC2002',
  action: 'ADEC2006',
  computedAttribute: 'ADEC2001',
  rule: 'ADEC2003',
  skill: 'ADEC2004',
  actionMetadataField: 'ADEC2002',
  outputField: 'ADEC2012',
  scenario: 'ADEC2007',
  signal: 'ADEC2001',
  state: 'ADEC2001',
  actionType: 'ADEC2005',
  actionTypeField: 'ADEC2002',
};

export type Names = { readonly [K in NameKind]: string };

/**
 * The world. `names` declares (and spells); `references` overrides only the places that
 * refer to a declaration, so a reference can name something the world does not declare.
 */
export function namesWorld(names: Partial<Names> = {}, references: Partial<Names> = {}): WorldSources {
  const n: Names = { ...DEFAULT_NAMES, ...names };
  const r = (kind: NameKind): string => references[kind] ?? n[kind];
  const files: Record<string, string> = {
    'world.adec': `world { org "acme" domain "names" version "1.0.0" ${n.worldSetting} "names" timeout 5${n.durationUnit} }\n`,
    'context.adec': [
      'context {',
      `  supplied ${n.attribute}: ${n.typeName} = 0`,
      `  supplied plan: "basic" | "${n.enumMember}" = "basic"`,
      `  supplied address: { ${n.recordField}: string, zip: string }`,
      '}',
      '',
    ].join('\n'),
    'action.adec': `action ${n.action} {
  aggregate ${n.aggregation}
  context {
    computed ${n.computedAttribute}: bool = ${r('attribute')} > 10
  }
  rule ${n.rule} {
    outcome  ${n.outcome}
    severity ${n.severity}
    when     ${r('computedAttribute')} and plan == "${r('enumMember')}" and address.${r('recordField')} == "x"
    reason   "large: {${r('attribute')}}"
  }
  rule already_done {
    outcome    GREEN-SKIP
    severity   t2
    when       ${n.function}(${r('attribute')}) > 1000
    reason     "done"
    suppresses ${r('rule')}
  }
  on ${n.workFrameStatus} { ${n.workFrameField} "escalate" }
}
`,
    'skill.adec': `skill ${n.skill} {
  version     "1.0.0"
  type        ${n.skillType}
  description "explains"
  action_metadata { ${n.actionMetadataField}: string(..40) }
  user_state { level: int }
  output { ${n.outputField}: string(1..80) }
  invariant "${n.invariant}" "names the title": payload.${r('outputField')} CONTAINS action_metadata.${r('actionMetadataField')}
  prohibit "${n.prohibition}" "(?i)secret" "no secrets"
  template ${n.skillTemplate} when user_state.level > 1 {
    ${n.outputField}: "Level {user_state.level}: {action_metadata.${r('actionMetadataField')}}"
  }
  template default {
    ${n.outputField}: "About {action_metadata.${r('actionMetadataField')}}"
  }
}
`,
    'scenario.adec': `scenario ${n.scenario} {
  version "1.0.0"
  signals {
    ${n.signal}: int = 0
    level: int = 0
  }
  state { ${n.state}: float(0..1) = clamp(${r('signal')} / 5, 0, 1) }
  action_type ${n.actionType} {
    ${n.actionTypeField}: string
    ${n.actionMetadataField}: string(..40)
    minutes: int
    skill ${r('skill')}
  }
  guardrail "${n.guardrail}" "too many sessions" {
    when  ${r('signal')} > 100
    force ${r('actionType')}
  }
  objective ${n.objective} weight 1.0 = ${r('state')}
  execution_risk weight 0.1 { skill_unavailable 0.3, ${n.riskFactor} 0.2 }
  tie_break action.minutes asc, action_id asc
  default_mode ${n.defaultMode}
}
`,
    'tests.adec': `test "${n.test}" {
  action  ${r('action')}
  context { ${r('attribute')}: 20, plan: "${r('enumMember')}", address: { ${r('recordField')}: "x", zip: "1" } }
  expect  ${n.expectedStatus} by ${r('rule')}
}
test "a workout is selected" {
  scenario ${r('scenario')}
  signals  { ${r('signal')}: 1 }
  actions  [ { action_id: "w1", type: "${r('actionType')}", ${r('actionTypeField')}: "run", ${r('actionMetadataField')}: "Run", minutes: 20 } ]
  expect   selected "w1"
}
`,
  };
  return { root: 'names', files: Object.entries(files).map(([path, text]) => ({ path: `names/${path}`, text })) };
}

/** Every declaration kind that takes any name, named `name` at once. */
export function everythingNamed(name: string): Partial<Names> {
  const kinds = (Object.keys(EXPECTATIONS) as NameKind[]).filter((kind) => EXPECTATIONS[kind].declared === 'ok');
  return Object.fromEntries(kinds.map((kind) => [kind, name]));
}
