/**
 * Hand-built checked worlds for codegen and manifest tests: the LANGUAGE.md examples
 * (`add_dependent`, the fitness scenario and skills) as the checker would hand them over.
 */
import type { Span } from '@adec/diagnostics';
import {
  BOOL,
  FLOAT,
  INT,
  STRING,
  TIMESTAMP,
  type BuiltinName,
  type CheckedAction,
  type CheckedExpr,
  type CheckedRule,
  type CheckedScenario,
  type CheckedSkill,
  type CheckedTemplate,
  type CheckedWorld,
  type ContextAttribute,
  type RecordField,
  type RefRoot,
  type Type,
} from '../../src/model/index.js';

export const WORLD_DIR = 'examples/benefits';

let nextOffset = 0;
/** A span at `line:column` of a file in the example world. */
export function span(line: number, column = 3, file = 'rules.adec', length = 10): Span {
  const offset = nextOffset;
  nextOffset += 100;
  return { file: `${WORLD_DIR}/${file}`, offset, endOffset: offset + length, line, column, endLine: line, endColumn: column + length };
}

const at = span(1, 1);

// ---- expression builders ---------------------------------------------------------------

export const enumOf = (...members: string[]): Type => ({ kind: 'enum', members });
export const optional = (inner: Type): Type => ({ kind: 'optional', inner });
export const listOf = (element: Type): Type => ({ kind: 'list', element });

export const lit = (value: boolean | number | string | null, type?: Type): CheckedExpr => ({
  kind: 'literal',
  value,
  type: type ?? (value === null ? { kind: 'null' } : typeof value === 'boolean' ? BOOL : typeof value === 'number' ? (Number.isInteger(value) ? INT : FLOAT) : STRING),
  span: at,
});
export const ref = (name: string, type: Type, root: RefRoot = 'context'): CheckedExpr => ({ kind: 'ref', root, name, type, span: at });
export const field = (object: CheckedExpr, name: string, type: Type, isOptional = false): CheckedExpr => ({
  kind: 'field',
  object,
  name,
  type,
  optional: isOptional,
  span: at,
});
export const not = (operand: CheckedExpr): CheckedExpr => ({ kind: 'not', operand, type: BOOL, span: at });
export const and = (left: CheckedExpr, right: CheckedExpr): CheckedExpr => ({ kind: 'logical', operator: 'and', left, right, type: BOOL, span: at });
export const or = (left: CheckedExpr, right: CheckedExpr): CheckedExpr => ({ kind: 'logical', operator: 'or', left, right, type: BOOL, span: at });
export const cmp = (operator: '==' | '!=' | '<' | '<=' | '>' | '>=', left: CheckedExpr, right: CheckedExpr): CheckedExpr => ({
  kind: 'compare',
  operator,
  left,
  right,
  type: BOOL,
  span: at,
});
export const arith = (operator: '+' | '-' | '*' | '/' | '%', left: CheckedExpr, right: CheckedExpr, type: Type = FLOAT): CheckedExpr => ({
  kind: 'arithmetic',
  operator,
  left,
  right,
  type,
  span: at,
});
export const coalesce = (left: CheckedExpr, right: CheckedExpr): CheckedExpr => ({ kind: 'coalesce', left, right, type: right.type, span: at });
export const call = (name: BuiltinName, type: Type, ...args: CheckedExpr[]): CheckedExpr => ({
  kind: 'call',
  name,
  args,
  type,
  span: at,
});
export const list = (element: Type, ...items: CheckedExpr[]): CheckedExpr => ({ kind: 'list', items, type: listOf(element), span: at });
export const ifElse = (condition: CheckedExpr, consequent: CheckedExpr, alternate: CheckedExpr): CheckedExpr => ({
  kind: 'if',
  condition,
  consequent,
  alternate,
  type: consequent.type,
  span: at,
});
export const contains = (
  subject: CheckedExpr,
  needle: CheckedExpr,
  options: { mode?: 'substring' | 'element'; any?: boolean; negated?: boolean } = {},
): CheckedExpr => ({
  kind: 'contains',
  mode: options.mode ?? 'substring',
  any: options.any ?? false,
  negated: options.negated ?? false,
  subject,
  needle,
  type: BOOL,
  span: at,
});
export const matches = (subject: CheckedExpr, source: string, flags = '', negated = false): CheckedExpr => ({
  kind: 'matches',
  negated,
  subject,
  source,
  flags,
  type: BOOL,
  span: at,
});
export const isNull = (operand: CheckedExpr, negated = false): CheckedExpr => ({ kind: 'isNull', negated, operand, type: BOOL, span: at });
export const inList = (element: CheckedExpr, listExpr: CheckedExpr): CheckedExpr => ({ kind: 'in', element, list: listExpr, type: BOOL, span: at });
export const lengthCmp = (operator: '==' | '!=' | '<' | '<=' | '>' | '>=', operand: CheckedExpr, limit: CheckedExpr): CheckedExpr => ({
  kind: 'length',
  operator,
  operand,
  limit,
  type: BOOL,
  span: at,
});
export const template = (...parts: (string | CheckedExpr)[]): CheckedTemplate => ({ parts, span: at });

// ---- the add_dependent action (LANGUAGE.md) ---------------------------------------------

export const RELATIONSHIP = enumOf('child', 'spouse', 'domestic_partner');

const relationship = ref('relationship', RELATIONSHIP);
const dependentAge = ref('dependent_age', INT);
const fullTimeStudent = ref('full_time_student', optional(BOOL));
const overAge = ref('over_age', BOOL);

export const BENEFITS_CONTEXT: readonly ContextAttribute[] = [
  { name: 'relationship', source: 'supplied', type: RELATIONSHIP, span: span(8, 3, 'context.adec') },
  { name: 'dependent_age', source: 'supplied', type: { kind: 'int', range: { min: 0, max: 130 } }, span: span(9, 3, 'context.adec') },
  { name: 'full_time_student', source: 'supplied', type: optional(BOOL), span: span(10, 3, 'context.adec') },
  { name: 'documents', source: 'supplied', type: listOf(STRING), defaultValue: [], span: span(11, 3, 'context.adec') },
  { name: 'request_time', source: 'system', type: TIMESTAMP, span: span(12, 3, 'context.adec') },
  {
    name: 'over_age',
    source: 'computed',
    type: BOOL,
    derivation: cmp('>=', dependentAge, lit(26)),
    span: span(13, 3, 'context.adec'),
  },
];

function rule(partial: Omit<CheckedRule, 'action' | 'suppresses'> & Partial<Pick<CheckedRule, 'suppresses'>>): CheckedRule {
  return { action: 'add_dependent', suppresses: [], ...partial };
}

export const CHILD_UNDER_26 = rule({
  id: 'child_under_26',
  outcome: 'GREEN',
  severity: 't2',
  appliesWhen: cmp('==', relationship, lit('child', RELATIONSHIP)),
  when: not(overAge),
  reason: template('Children under 26 qualify'),
  reads: ['over_age', 'relationship'],
  span: span(4, 3),
});

export const STUDENT_EXTENSION = rule({
  id: 'student_extension',
  outcome: 'YELLOW',
  severity: 't2',
  appliesWhen: cmp('==', relationship, lit('child', RELATIONSHIP)),
  when: and(overAge, coalesce(fullTimeStudent, lit(false))),
  reason: template('Dependent is ', dependentAge, '; student status needs proof'),
  reads: ['dependent_age', 'full_time_student', 'over_age', 'relationship'],
  span: span(12, 3),
});

export const INELIGIBLE_OVER_AGE = rule({
  id: 'ineligible_over_age',
  outcome: 'RED',
  severity: 't1',
  when: and(and(cmp('==', relationship, lit('child', RELATIONSHIP)), overAge), not(coalesce(fullTimeStudent, lit(false)))),
  reason: template('Children aged 26 or more are not eligible'),
  reads: ['full_time_student', 'over_age', 'relationship'],
  span: span(20, 3),
});

export const ADD_DEPENDENT: CheckedAction = {
  name: 'add_dependent',
  context: BENEFITS_CONTEXT,
  aggregation: { mode: 'winner_takes_all' },
  rules: [CHILD_UNDER_26, STUDENT_EXTENSION, INELIGIBLE_OVER_AGE],
  workFrames: {
    YELLOW: { next_action: 'gather_evidence_and_retry', required_output: ['enrollment_verification'], next_human_owner: 'benefits-review' },
    RED: { next_human_owner: 'benefits-escalations' },
  },
  span: span(1, 1),
};

// ---- the fitness scenario and skills (LANGUAGE.md, docs/spec/skill-contract.md) ------------------------------

const INTENSITY = enumOf('low', 'moderate', 'high');
const signal = (name: string) => ref(name, INT, 'signal');
const engagement = ref('engagement_level', { kind: 'float', range: { min: 0, max: 1 } }, 'state');
const action = ref('action', { kind: 'record', fields: [] }, 'action');
const actionIntensity = field(action, 'intensity', INTENSITY);

export const FITNESS_SCENARIO: CheckedScenario = {
  id: 'fitness_daily_session',
  version: '1.0.0',
  signals: [
    { name: 'sessions_last_7d', type: INT, defaultValue: 0 },
    { name: 'rest_days_last_7d', type: INT, defaultValue: 0 },
    { name: 'consecutive_high_intensity', type: INT, defaultValue: 0 },
  ],
  state: [
    {
      name: 'engagement_level',
      type: { kind: 'float', range: { min: 0, max: 1 } },
      derivation: call('clamp', FLOAT, arith('/', signal('sessions_last_7d'), lit(5)), lit(0), lit(1)),
    },
  ],
  actionTypes: [
    {
      name: 'workout_session',
      fields: [
        { name: 'intensity', type: INTENSITY },
        { name: 'duration_minutes', type: INT },
        { name: 'session_type', type: STRING },
      ],
      skill: 'fitness_session_rationale',
    },
    { name: 'rest_day', fields: [], skill: 'decision_rationale_template' },
  ],
  guardrails: [
    {
      id: 'GR-REST-MIN',
      description: 'At least 1 rest day per 7-day window',
      when: cmp('<', signal('rest_days_last_7d'), lit(1)),
      effect: { kind: 'force', actionType: 'rest_day' },
    },
    {
      id: 'GR-INTENSITY-CAP',
      description: 'No more than 2 high-intensity sessions in a row',
      when: cmp('>=', signal('consecutive_high_intensity'), lit(2)),
      effect: { kind: 'block', predicate: cmp('==', coalesce(field(action, 'intensity', optional(INTENSITY)), lit(null)), lit('high', INTENSITY)) },
    },
  ],
  objectives: [
    {
      name: 'completion',
      weight: 0.6,
      score: ifElse(cmp('==', actionIntensity, lit('high', INTENSITY)), arith('-', lit(1), engagement), lit(0.8)),
    },
    { name: 'momentum', weight: 0.4, score: engagement },
  ],
  executionRisk: { weight: 0.1, factors: [{ name: 'skill_unavailable', value: 0.3 }, { name: 'offline_mode', value: 0.2 }] },
  tieBreaks: [
    { key: field(action, 'duration_minutes', optional(INT)), direction: 'asc' },
    { key: ref('action_id', STRING, 'action'), direction: 'asc' },
  ],
  defaultMode: 'skill_enhanced',
  span: span(1, 1, 'fitness.adec'),
};

const payload = (fields: readonly RecordField[]) => ref('payload', { kind: 'record', fields }, 'payload');
const metadata = (fields: readonly RecordField[]) => ref('action_metadata', { kind: 'record', fields }, 'action_metadata');

const FITNESS_OUTPUT: readonly RecordField[] = [
  { name: 'rationale', type: { kind: 'string', length: { min: 20, max: 200 } } },
  { name: 'encouragement', type: optional({ kind: 'string', length: { max: 100 } }) },
  {
    name: 'display_parameters',
    type: optional({
      kind: 'record',
      fields: [
        { name: 'tone', type: enumOf('supportive', 'energetic', 'calm') },
        { name: 'highlight_recovery', type: BOOL },
      ],
    }),
  },
];
const FITNESS_METADATA: readonly RecordField[] = [
  { name: 'session_name', type: STRING },
  { name: 'intensity', type: INTENSITY },
  { name: 'duration_minutes', type: INT },
  { name: 'session_type', type: STRING },
];
const rationale = field(payload(FITNESS_OUTPUT), 'rationale', STRING);

export const FITNESS_SKILL: CheckedSkill = {
  id: 'fitness_session_rationale',
  version: '1.0.0',
  type: 'llm',
  description: 'Encouraging rationale for a selected workout',
  prompt: template(
    'Write a brief, encouraging rationale for ',
    field(ref('action', { kind: 'record', fields: FITNESS_METADATA }, 'action'), 'session_name', STRING),
    '. Under 100 words.',
  ),
  timeoutMs: 300,
  hardLimitMs: 500,
  fallback: 'decision_rationale_template',
  actionMetadata: FITNESS_METADATA,
  userState: [{ name: 'fatigue', type: optional(FLOAT) }],
  output: FITNESS_OUTPUT,
  invariants: [
    {
      id: 'FIT-001',
      description: 'Rationale must mention the session name or type',
      check: contains(rationale, list(STRING, field(metadata(FITNESS_METADATA), 'session_name', STRING), field(metadata(FITNESS_METADATA), 'session_type', STRING)), { any: true }),
      source: 'payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type]',
      span: span(30, 3, 'skills.adec'),
    },
    {
      id: 'FIT-002',
      description: 'Must not mention specific fatigue numbers',
      check: matches(rationale, '\\d+(\\.\\d+)?\\s*(fatigue|tired)', '', true),
      source: 'payload.rationale NOT MATCHES "\\d+(\\.\\d+)?\\s*(fatigue|tired)"',
      span: span(32, 3, 'skills.adec'),
    },
    {
      id: 'FIT-003',
      description: 'Must not promise specific outcomes',
      check: contains(rationale, list(STRING, lit('guarantee'), lit('will definitely'), lit('proven to')), { any: true, negated: true }),
      source: 'payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"]',
      span: span(34, 3, 'skills.adec'),
    },
    {
      id: 'FIT-004',
      description: 'Encouragement stays short',
      check: or(
        isNull(field(payload(FITNESS_OUTPUT), 'encouragement', optional(STRING))),
        lengthCmp('<', field(payload(FITNESS_OUTPUT), 'encouragement', STRING), lit(100)),
      ),
      source: 'payload.encouragement IS NULL or payload.encouragement LENGTH < 100',
      span: span(36, 3, 'skills.adec'),
    },
  ],
  prohibitions: [
    {
      id: 'FIT-PROHIB-001',
      pattern: '(?i)(injury|pain|hurt|damage)',
      source: '(injury|pain|hurt|damage)',
      flags: 'i',
      reason: 'Medical safety - do not reference injury',
      span: span(38, 3, 'skills.adec'),
    },
  ],
  templates: [],
  span: span(20, 1, 'skills.adec'),
};

const TEMPLATE_METADATA: readonly RecordField[] = [{ name: 'action_name', type: STRING }];
const TEMPLATE_USER_STATE: readonly RecordField[] = [{ name: 'engagement_level', type: optional(FLOAT) }];
const actionName = field(metadata(TEMPLATE_METADATA), 'action_name', STRING);

export const TEMPLATE_SKILL: CheckedSkill = {
  id: 'decision_rationale_template',
  version: '1.0.0',
  type: 'deterministic',
  description: 'Generates rationale using parameterized templates',
  timeoutMs: 50,
  hardLimitMs: 100,
  actionMetadata: TEMPLATE_METADATA,
  userState: TEMPLATE_USER_STATE,
  output: [{ name: 'rationale', type: { kind: 'string', length: { max: 500 } } }],
  invariants: [],
  prohibitions: [],
  templates: [
    {
      name: 'high_engagement',
      when: cmp('>=', coalesce(field(ref('user_state', { kind: 'record', fields: TEMPLATE_USER_STATE }, 'user_state'), 'engagement_level', optional(FLOAT)), lit(0)), lit(0.7)),
      fields: [{ name: 'rationale', template: template('Great momentum! ', actionName, ' will help you maintain your streak.') }],
    },
    { name: 'default', fields: [{ name: 'rationale', template: template('We selected ', actionName, ' based on your recent activity.') }] },
  ],
  span: span(40, 1, 'skills.adec'),
};

export const SOURCES = ['context.adec', 'fitness.adec', 'rules.adec', 'skills.adec'];
export const PROVENANCE = { compilerVersion: '0.1.0', sources: SOURCES };

export const BENEFITS_WORLD: CheckedWorld = {
  header: { org: 'acme', domain: 'hr.benefits', world: 'benefits', version: '1.4.0' },
  predicateTimeoutMs: 5,
  actions: [ADD_DEPENDENT],
  skills: [FITNESS_SKILL, TEMPLATE_SKILL],
  scenarios: [FITNESS_SCENARIO],
  tests: [],
};
