// The examples of LANGUAGE.md (copied to fixtures/), parsed into the AST shapes of ast.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, render, shape } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('world, context and action (benefits.adec)', () => {
  const { file, diagnostics } = parse(fixture('benefits.adec'));

  it('parses without diagnostics', () => expect(diagnostics).toEqual([]));

  it('reads the world header', () => {
    expect(shape(file.declarations[0])).toEqual({
      kind: 'WorldHeader',
      settings: [
        { kind: 'WorldSetting', key: { kind: 'Identifier', name: 'org' }, value: { kind: 'StringLiteral', value: 'acme' } },
        { kind: 'WorldSetting', key: { kind: 'Identifier', name: 'domain' }, value: { kind: 'StringLiteral', value: 'hr.benefits' } },
        { kind: 'WorldSetting', key: { kind: 'Identifier', name: 'version' }, value: { kind: 'StringLiteral', value: '1.4.0' } },
      ],
    });
  });

  it('reads context sources, types, optional types and defaults', () => {
    const context = file.declarations[1];
    if (context?.kind !== 'ContextBlock') throw new Error('no context');
    expect(context.attributes.map((a) => [a.source, a.name.name, a.type.kind])).toEqual([
      ['supplied', 'relationship', 'EnumType'],
      ['supplied', 'dependent_age', 'NamedType'],
      ['supplied', 'full_time_student', 'OptionalType'],
      ['supplied', 'documents', 'ListType'],
      ['system', 'request_time', 'NamedType'],
      ['computed', 'over_age', 'NamedType'],
    ]);
    expect(shape(context.attributes[0]!.type)).toEqual({
      kind: 'EnumType',
      members: ['child', 'spouse', 'domestic_partner'].map((value) => ({ kind: 'StringLiteral', value })),
    });
    expect(shape(context.attributes[2]!.type)).toEqual({
      kind: 'OptionalType',
      inner: { kind: 'NamedType', name: { kind: 'Identifier', name: 'bool' } },
    });
    expect(shape(context.attributes[3])).toMatchObject({
      type: { kind: 'ListType', element: { kind: 'NamedType', name: { name: 'string' } } },
      value: { kind: 'ListExpr', items: [] },
    });
    expect(render(context.attributes[5]!.value!)).toBe('(dependent_age >= 26)');
  });

  it('reads the action: aggregation, rules with every clause, work_frame templates', () => {
    const action = file.declarations[2];
    if (action?.kind !== 'ActionDecl') throw new Error('no action');
    expect(action.name.name).toBe('add_dependent');
    expect(shape(action.aggregations)).toEqual([
      { kind: 'AggregationClause', mode: { kind: 'Identifier', name: 'winner_takes_all' } },
    ]);
    expect(action.rules.map((r) => r.id.name)).toEqual(['child_under_26', 'student_extension', 'ineligible_over_age']);
    const [outcome, severity, appliesWhen, when, reason] = action.rules[1]!.clauses;
    expect(shape(outcome)).toEqual({ kind: 'OutcomeClause', value: { kind: 'Word', text: 'YELLOW' } });
    expect(shape(severity)).toEqual({ kind: 'SeverityClause', value: { kind: 'Word', text: 't2' } });
    expect(appliesWhen?.kind === 'AppliesWhenClause' && render(appliesWhen.condition)).toBe('(relationship == "child")');
    expect(when?.kind === 'WhenClause' && render(when.condition)).toBe('(over_age and (full_time_student ?? false))');
    expect(shape(reason)).toEqual({
      kind: 'ReasonClause',
      template: {
        kind: 'TemplateString',
        parts: [
          { kind: 'TemplateText', text: 'Dependent is ' },
          { kind: 'NameExpr', name: 'dependent_age' },
          { kind: 'TemplateText', text: '; student status needs proof' },
        ],
      },
    });
    const last = action.rules[2]!.clauses[2];
    expect(last?.kind === 'WhenClause' && render(last.condition)).toBe(
      '(((relationship == "child") and over_age) and (not (full_time_student ?? false)))',
    );
    expect(shape(action.workFrames)).toEqual([
      {
        kind: 'WorkFrameTemplateDecl',
        status: { kind: 'Word', text: 'YELLOW' },
        fields: [
          { kind: 'WorkFrameFieldDecl', name: { kind: 'Identifier', name: 'next_action' }, value: { kind: 'StringLiteral', value: 'gather_evidence_and_retry' } },
          {
            kind: 'WorkFrameFieldDecl',
            name: { kind: 'Identifier', name: 'required_output' },
            value: { kind: 'StringListLiteral', items: [{ kind: 'StringLiteral', value: 'enrollment_verification' }] },
          },
          { kind: 'WorkFrameFieldDecl', name: { kind: 'Identifier', name: 'next_human_owner' }, value: { kind: 'StringLiteral', value: 'benefits-review' } },
        ],
      },
      {
        kind: 'WorkFrameTemplateDecl',
        status: { kind: 'Word', text: 'RED' },
        fields: [
          { kind: 'WorkFrameFieldDecl', name: { kind: 'Identifier', name: 'next_human_owner' }, value: { kind: 'StringLiteral', value: 'benefits-escalations' } },
        ],
      },
    ]);
  });

  it('gives every node a span that covers its text', () => {
    const text = fixture('benefits.adec');
    const action = file.declarations[2]!;
    expect(text.slice(action.span.offset, action.span.endOffset)).toMatch(/^action add_dependent \{[\s\S]*\}$/);
    expect(action.span).toMatchObject({ file: 'test.adec', line: 16, column: 1 });
  });
});

describe('skill (fitness-skill.adec)', () => {
  const { file, diagnostics } = parse(fixture('fitness-skill.adec'));
  const skill = file.declarations[0];
  if (skill?.kind !== 'SkillDecl') throw new Error('no skill');

  it('parses without diagnostics', () => expect(diagnostics).toEqual([]));

  it('reads every member in order', () => {
    expect(skill.id.name).toBe('fitness_session_rationale');
    expect(skill.members.map((m) => m.kind)).toEqual([
      'SkillVersion',
      'SkillType',
      'SkillPrompt',
      'SkillTimeout',
      'SkillFallback',
      'SkillOutput',
      'InvariantDecl',
      'InvariantDecl',
      'InvariantDecl',
      'ProhibitDecl',
    ]);
    expect(shape(skill.members[3])).toEqual({
      kind: 'SkillTimeout',
      timeout: { kind: 'DurationLiteral', milliseconds: 300, text: '300ms' },
      hardLimit: { kind: 'DurationLiteral', milliseconds: 500, text: '500ms' },
    });
    expect(shape(skill.members[4])).toEqual({ kind: 'SkillFallback', skill: { kind: 'Identifier', name: 'decision_rationale_template' } });
    expect(shape(skill.members[9])).toEqual({
      kind: 'ProhibitDecl',
      id: { kind: 'StringLiteral', value: 'FIT-PROHIB-001' },
      pattern: { kind: 'StringLiteral', value: '(?i)(injury|pain|hurt|damage)' },
      reason: { kind: 'StringLiteral', value: 'Medical safety - do not reference injury' },
    });
  });

  it('reads the output schema with ranges, optional and record types', () => {
    expect(shape(skill.members[5])).toEqual({
      kind: 'SkillOutput',
      fields: [
        {
          kind: 'FieldDecl',
          name: { kind: 'Identifier', name: 'rationale' },
          type: {
            kind: 'NamedType',
            name: { kind: 'Identifier', name: 'string' },
            range: { min: { kind: 'NumberLiteral', value: 20, isInteger: true }, max: { kind: 'NumberLiteral', value: 200, isInteger: true } },
          },
        },
        {
          kind: 'FieldDecl',
          name: { kind: 'Identifier', name: 'encouragement' },
          type: {
            kind: 'OptionalType',
            inner: { kind: 'NamedType', name: { kind: 'Identifier', name: 'string' }, range: { max: { kind: 'NumberLiteral', value: 100, isInteger: true } } },
          },
        },
        {
          kind: 'FieldDecl',
          name: { kind: 'Identifier', name: 'display_parameters' },
          type: {
            kind: 'OptionalType',
            inner: {
              kind: 'RecordType',
              fields: [
                {
                  kind: 'FieldDecl',
                  name: { kind: 'Identifier', name: 'tone' },
                  type: { kind: 'EnumType', members: ['supportive', 'energetic', 'calm'].map((value) => ({ kind: 'StringLiteral', value })) },
                },
                { kind: 'FieldDecl', name: { kind: 'Identifier', name: 'highlight_recovery' }, type: { kind: 'NamedType', name: { kind: 'Identifier', name: 'bool' } } },
              ],
            },
          },
        },
      ],
    });
  });

  it('reads the invariants with their SEC checks', () => {
    const invariants = skill.members.filter((m) => m.kind === 'InvariantDecl');
    expect(invariants.map((i) => [i.id.value, render(i.check)])).toEqual([
      ['FIT-001', '(payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type])'],
      ['FIT-002', '(payload.rationale NOT MATCHES "\\\\d+(\\\\.\\\\d+)?\\\\s*(fatigue|tired)")'],
      ['FIT-003', '(payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"])'],
    ]);
  });

  it('reads the other skill members: description, action_metadata, user_state, templates', () => {
    const text = `skill decision_rationale_template {
  type deterministic
  description "Fills a template"
  action_metadata { session_name: string, session_type: string }
  user_state { engagement_level: float }
  output { rationale: string }
  template high_engagement when user_state.engagement_level > 0.7 { rationale: "Great run! {action_metadata.session_name} is next." }
  template default { rationale: "We selected {action_metadata.session_name}.", encouragement: "Keep going" }
}`;
    const result = parse(text);
    expect(result.diagnostics).toEqual([]);
    const decl = result.file.declarations[0];
    if (decl?.kind !== 'SkillDecl') throw new Error('no skill');
    expect(decl.members.map((m) => m.kind)).toEqual([
      'SkillType',
      'SkillDescription',
      'SkillActionMetadata',
      'SkillUserState',
      'SkillOutput',
      'SkillTemplateDecl',
      'SkillTemplateDecl',
    ]);
    expect(shape(decl.members[5])).toMatchObject({
      name: { name: 'high_engagement' },
      when: { kind: 'BinaryExpr', operator: '>' },
      fields: [
        {
          name: { name: 'rationale' },
          template: {
            parts: [
              { kind: 'TemplateText', text: 'Great run! ' },
              { kind: 'MemberExpr', object: { name: 'action_metadata' }, property: { name: 'session_name' } },
              { kind: 'TemplateText', text: ' is next.' },
            ],
          },
        },
      ],
    });
    expect(decl.members[6]).not.toHaveProperty('when');
  });
});

describe('scenario (fitness-scenario.adec)', () => {
  const { file, diagnostics } = parse(fixture('fitness-scenario.adec'));
  const scenario = file.declarations[0];
  if (scenario?.kind !== 'ScenarioDecl') throw new Error('no scenario');

  it('parses without diagnostics', () => expect(diagnostics).toEqual([]));

  it('reads every member in order', () => {
    expect(scenario.members.map((m) => m.kind)).toEqual([
      'ScenarioVersion',
      'SignalsBlock',
      'StateBlock',
      'ActionTypeDecl',
      'ActionTypeDecl',
      'GuardrailDecl',
      'GuardrailDecl',
      'ObjectiveDecl',
      'ObjectiveDecl',
      'ExecutionRiskDecl',
      'TieBreakDecl',
      'DefaultModeDecl',
    ]);
  });

  it('reads signals and state with defaults', () => {
    const [, signals, state] = scenario.members;
    expect(shape(signals)).toMatchObject({
      fields: [
        { name: { name: 'sessions_last_7d' }, type: { name: { name: 'int' } }, defaultValue: { kind: 'NumberLiteral', value: 0 } },
        { name: { name: 'rest_days_last_7d' } },
        { name: { name: 'consecutive_high_intensity' } },
      ],
    });
    if (state?.kind !== 'StateBlock') throw new Error('no state');
    expect(render(state.fields[0]!.defaultValue!)).toBe('clamp((sessions_last_7d / 5), 0, 1)');
    expect(shape(state.fields[0]!.type)).toMatchObject({ range: { min: { value: 0 }, max: { value: 1 } } });
  });

  it('reads action types with their skill mapping', () => {
    expect(shape(scenario.members[3])).toMatchObject({
      name: { name: 'workout_session' },
      fields: [{ name: { name: 'intensity' }, type: { kind: 'EnumType' } }, { name: { name: 'duration_minutes' } }, { name: { name: 'session_type' } }],
      skill: { name: 'fitness_session_rationale' },
    });
    expect(shape(scenario.members[4])).toEqual({
      kind: 'ActionTypeDecl',
      name: { kind: 'Identifier', name: 'rest_day' },
      fields: [],
      skill: { kind: 'Identifier', name: 'decision_rationale_template' },
    });
  });

  it('reads guardrails with each effect', () => {
    expect(shape(scenario.members[5])).toEqual({
      kind: 'GuardrailDecl',
      id: { kind: 'StringLiteral', value: 'GR-REST-MIN' },
      description: { kind: 'StringLiteral', value: 'At least 1 rest day per 7-day window' },
      when: {
        kind: 'BinaryExpr',
        operator: '<',
        left: { kind: 'NameExpr', name: 'rest_days_last_7d' },
        right: { kind: 'NumberLiteral', value: 1, isInteger: true },
      },
      effect: { kind: 'ForceEffect', actionType: { kind: 'Identifier', name: 'rest_day' } },
    });
    expect(shape(scenario.members[6])).toMatchObject({ effect: { kind: 'BlockEffect', predicate: { operator: '==' } } });
    const cap = parse('scenario s { guardrail "GR" "d" { when engagement_level < 0.2  cap action.duration_minutes 30 } }');
    expect(cap.diagnostics).toEqual([]);
    expect(shape(cap.file.declarations[0])).toMatchObject({
      members: [{ effect: { kind: 'CapEffect', field: { kind: 'MemberExpr', property: { name: 'duration_minutes' } }, limit: { value: 30 } } }],
    });
  });

  it('reads objectives, execution risk, tie-breaks and the default mode', () => {
    const objective = scenario.members[7];
    if (objective?.kind !== 'ObjectiveDecl') throw new Error('no objective');
    expect([objective.name.name, objective.weight.value, render(objective.score)]).toEqual([
      'completion',
      0.6,
      '(if (action.intensity == "high") then (1 - engagement_level) else 0.8)',
    ]);
    expect(shape(scenario.members[9])).toEqual({
      kind: 'ExecutionRiskDecl',
      weight: { kind: 'NumberLiteral', value: 0.1, isInteger: false },
      factors: [
        { name: { kind: 'Identifier', name: 'skill_unavailable' }, value: { kind: 'NumberLiteral', value: 0.3, isInteger: false } },
        { name: { kind: 'Identifier', name: 'offline_mode' }, value: { kind: 'NumberLiteral', value: 0.2, isInteger: false } },
      ],
    });
    expect(shape(scenario.members[10])).toMatchObject({
      keys: [
        { kind: 'TieBreakKey', key: { kind: 'MemberExpr' }, direction: 'asc' },
        { kind: 'TieBreakKey', key: { kind: 'NameExpr', name: 'action_id' }, direction: 'asc' },
      ],
    });
    expect(shape(scenario.members[11])).toEqual({ kind: 'DefaultModeDecl', mode: { kind: 'Word', text: 'skill_enhanced' } });
  });
});

describe('tests (benefits-test.adec and selection tests)', () => {
  it('reads an adjudication test', () => {
    const { file, diagnostics } = parse(fixture('benefits-test.adec'));
    expect(diagnostics).toEqual([]);
    expect(shape(file.declarations[0])).toEqual({
      kind: 'TestDecl',
      name: { kind: 'StringLiteral', value: 'a 27-year-old non-student child is blocked' },
      members: [
        { kind: 'TestAction', action: { kind: 'Identifier', name: 'add_dependent' } },
        {
          kind: 'TestContext',
          value: {
            kind: 'ValueRecord',
            entries: [
              { key: { kind: 'Identifier', name: 'relationship' }, value: { kind: 'ValueScalar', value: 'child' } },
              { key: { kind: 'Identifier', name: 'dependent_age' }, value: { kind: 'ValueScalar', value: 27 } },
            ],
          },
        },
        { kind: 'TestExpectStatus', status: { kind: 'Word', text: 'RED' }, rule: { kind: 'Identifier', name: 'ineligible_over_age' } },
      ],
    });
  });

  it('reads a selection test and every expectation form', () => {
    const text = `
test "rest is forced" {
  scenario fitness_daily_session
  signals  { rest_days_last_7d: 0, flags: [true, false, null], ratio: -0.5 }
  system   { request_time: "2026-01-01T00:00:00Z" }
  actions  [ { action_id: "w1", type: "workout_session", intensity: "high" }, { action_id: "r1", type: "rest_day" } ]
  expect   selected "r1"
}
test "none" { scenario s  expect NO_ELIGIBLE_ACTIONS }
test "skip" { action a  expect GREEN-SKIP }`;
    const { file, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(shape(file.declarations[0])).toMatchObject({
      members: [
        { kind: 'TestScenario', scenario: { name: 'fitness_daily_session' } },
        {
          kind: 'TestSignals',
          value: {
            entries: [
              { value: { value: 0 } },
              { value: { kind: 'ValueList', items: [{ value: true }, { value: false }, { value: null }] } },
              { value: { value: -0.5 } },
            ],
          },
        },
        { kind: 'TestSystem' },
        { kind: 'TestActions', value: { kind: 'ValueList', items: [{ kind: 'ValueRecord' }, { kind: 'ValueRecord' }] } },
        { kind: 'TestExpectSelected', actionId: { value: 'r1' } },
      ],
    });
    expect(shape(file.declarations[1])).toMatchObject({ members: [{ kind: 'TestScenario' }, { kind: 'TestExpectNoEligible' }] });
    expect(shape(file.declarations[2])).toMatchObject({ members: [{ kind: 'TestAction' }, { kind: 'TestExpectStatus', status: { text: 'GREEN-SKIP' } }] });
    expect(file.declarations[2]).not.toHaveProperty('members.1.rule');
  });
});

describe('action-local context and aggregation parameters', () => {
  it('reads them', () => {
    const { file, diagnostics } = parse(`action a {
  aggregate vote_of_n 2
  context { supplied amount: float(0..10000) }
  rule r { outcome RED severity t3 when amount > 100 reason "too much" suppresses x, y timeout 10ms weight 0.5 }
}`);
    expect(diagnostics).toEqual([]);
    expect(shape(file.declarations[0])).toMatchObject({
      aggregations: [{ mode: { name: 'vote_of_n' }, parameter: { value: 2, isInteger: true } }],
      contexts: [{ attributes: [{ name: { name: 'amount' }, type: { range: { min: { value: 0 }, max: { value: 10000 } } } }] }],
      rules: [
        {
          clauses: [
            { kind: 'OutcomeClause' },
            { kind: 'SeverityClause' },
            { kind: 'WhenClause' },
            { kind: 'ReasonClause' },
            { kind: 'SuppressesClause', rules: [{ name: 'x' }, { name: 'y' }] },
            { kind: 'TimeoutClause', duration: { milliseconds: 10 } },
            { kind: 'WeightClause', weight: { value: 0.5 } },
          ],
        },
      ],
    });
  });
});
