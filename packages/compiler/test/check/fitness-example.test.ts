import { describe, expect, it } from 'vitest';
import { HEADER, checkOk } from './helpers.js';

/** The skill and scenario examples of LANGUAGE.md, with the fallback skill they name. */
export const FITNESS = `${HEADER}
skill fitness_session_rationale {
  version  "1.0.0"
  type     llm
  prompt   "Write a brief, encouraging rationale for {action_metadata.session_name}. Under 100 words."
  timeout  300ms  hard_limit 500ms
  fallback decision_rationale_template
  action_metadata { session_name: string, session_type: string, duration_minutes: int }

  output {
    rationale:          string(20..200)
    encouragement:      string(..100)?
    display_parameters: { tone: "supportive" | "energetic" | "calm", highlight_recovery: bool }?
  }

  invariant "FIT-001" "Rationale must mention the session name or type":
    payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type]
  invariant "FIT-002" "Must not mention specific fatigue numbers":
    payload.rationale NOT MATCHES "\\d+(\\.\\d+)?\\s*(fatigue|tired)"
  invariant "FIT-003" "Must not promise specific outcomes":
    payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"]
  invariant "FIT-004" "Encouragement stays short":
    payload.encouragement IS NULL or payload.encouragement LENGTH < 100

  prohibit "FIT-PROHIB-001" "(?i)(injury|pain|hurt|damage)" "Medical safety - do not reference injury"
}

skill decision_rationale_template {
  version "1.0.0"
  type    deterministic
  output  { rationale: string(..200) }
  template default { rationale: "Today's plan was chosen for you." }
}

scenario fitness_daily_session {
  version "1.0.0"
  signals {
    sessions_last_7d: int = 0
    rest_days_last_7d: int = 0
    consecutive_high_intensity: int = 0
  }
  state {
    engagement_level: float(0..1) = clamp(sessions_last_7d / 5, 0, 1)
  }
  action_type workout_session {
    intensity: "low" | "moderate" | "high"
    duration_minutes: int
    session_type: string
    session_name: string
    skill fitness_session_rationale
  }
  action_type rest_day { skill decision_rationale_template }

  guardrail "GR-REST-MIN" "At least 1 rest day per 7-day window" {
    when rest_days_last_7d < 1
    force rest_day
  }
  guardrail "GR-INTENSITY-CAP" "No more than 2 high-intensity sessions in a row" {
    when  consecutive_high_intensity >= 2
    block action.intensity == "high"
  }

  objective completion weight 0.6 = if action.intensity == "high" then 1 - engagement_level else 0.8
  objective momentum   weight 0.4 = engagement_level
  execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }
  tie_break action.duration_minutes asc, action_id asc
  default_mode skill_enhanced
}

test "rest is forced after a week without rest" {
  scenario fitness_daily_session
  signals  { rest_days_last_7d: 0 }
  actions  [ { action_id: "w1", type: "workout_session", session_name: "HIIT", session_type: "hiit", intensity: "high", duration_minutes: 30 }, { action_id: "r1", type: "rest_day" } ]
  expect   selected "r1"
}
`;

describe('the fitness skill and scenario of LANGUAGE.md', () => {
  it('checks clean', () => {
    checkOk(FITNESS);
  });

  it('produces the skill contract', () => {
    const [llm, template] = checkOk(FITNESS).skills;
    expect(llm).toMatchObject({ id: 'fitness_session_rationale', type: 'llm', timeoutMs: 300, hardLimitMs: 500, fallback: 'decision_rationale_template' });
    expect(llm!.invariants.map((i) => [i.id, i.source])).toEqual([
      ['FIT-001', 'payload.rationale CONTAINS_ANY [action_metadata.session_name, action_metadata.session_type]'],
      ['FIT-002', 'payload.rationale NOT MATCHES "\\d+(\\.\\d+)?\\s*(fatigue|tired)"'],
      ['FIT-003', 'payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"]'],
      ['FIT-004', 'payload.encouragement IS NULL or payload.encouragement LENGTH < 100'],
    ]);
    expect(llm!.invariants[0]!.check).toMatchObject({ kind: 'contains', mode: 'substring', any: true, negated: false });
    expect(llm!.invariants[1]!.check).toMatchObject({ kind: 'matches', negated: true, source: '\\d+(\\.\\d+)?\\s*(fatigue|tired)', flags: '' });
    expect(llm!.prohibitions).toEqual([
      expect.objectContaining({ id: 'FIT-PROHIB-001', pattern: '(?i)(injury|pain|hurt|damage)', source: '(injury|pain|hurt|damage)', flags: 'i' }),
    ]);
    expect(template).toMatchObject({ id: 'decision_rationale_template', type: 'deterministic', timeoutMs: 20, hardLimitMs: 50 });
    expect(template!.templates.map((t) => [t.name, t.fields.map((f) => f.name)])).toEqual([['default', ['rationale']]]);
  });

  it('narrows an optional payload field after IS NULL or', () => {
    const invariant = checkOk(FITNESS).skills[0]!.invariants[3]!;
    expect(invariant.check).toMatchObject({
      kind: 'logical',
      right: { kind: 'length', operand: { kind: 'field', name: 'encouragement', type: { kind: 'string', length: { max: 100 } } } },
    });
  });

  it('produces the scenario with the union type of `action`', () => {
    const scenario = checkOk(FITNESS).scenarios[0]!;
    expect(scenario.signals).toEqual([
      { name: 'sessions_last_7d', type: { kind: 'int' }, defaultValue: 0 },
      { name: 'rest_days_last_7d', type: { kind: 'int' }, defaultValue: 0 },
      { name: 'consecutive_high_intensity', type: { kind: 'int' }, defaultValue: 0 },
    ]);
    expect(scenario.state[0]).toMatchObject({ name: 'engagement_level', derivation: { kind: 'call', name: 'clamp', type: { kind: 'float' } } });
    expect(scenario.guardrails.map((g) => [g.id, g.effect.kind])).toEqual([
      ['GR-REST-MIN', 'force'],
      ['GR-INTENSITY-CAP', 'block'],
    ]);
    expect(scenario.objectives.map((o) => [o.name, o.weight, o.score.type.kind])).toEqual([
      ['completion', 0.6, 'float'],
      ['momentum', 0.4, 'float'],
    ]);
    expect(scenario.executionRisk).toEqual({ weight: 0.1, factors: [{ name: 'skill_unavailable', value: 0.3 }, { name: 'offline_mode', value: 0.2 }] });
    expect(scenario.tieBreaks.map((t) => [t.key.type, t.direction])).toEqual([
      [{ kind: 'optional', inner: { kind: 'int' } }, 'asc'],
      [{ kind: 'string' }, 'asc'],
    ]);
    expect(scenario.defaultMode).toBe('skill_enhanced');
  });

  it('checks the selection test', () => {
    expect(checkOk(FITNESS).tests[0]).toMatchObject({
      kind: 'selection',
      scenario: 'fitness_daily_session',
      signals: { rest_days_last_7d: 0 },
      actions: [{ action_id: 'w1', type: 'workout_session', session_name: 'HIIT', session_type: 'hiit', intensity: 'high', duration_minutes: 30 }, { action_id: 'r1', type: 'rest_day' }],
      expect: { selected: 'r1' },
    });
  });
});
