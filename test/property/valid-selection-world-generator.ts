/**
 * A generator of valid selection worlds: a scenario (signals, derived state, two action types
 * mapped to a skill, guardrails with each effect, weighted objectives, execution risk,
 * tie-breaks) and a deterministic skill (invariants in the SEC check language, prohibitions,
 * templates). The selection half of the code-generation property test.
 */
import fc from 'fast-check';

const signalCondition = fc.oneof(
  fc.integer({ min: 0, max: 10 }).map((n) => `visits < ${n}`),
  fc.integer({ min: 0, max: 7 }).map((n) => `streak >= ${n}`),
  fc.constantFrom('premium', 'not premium', 'mood == "tired"', 'engagement > 0.5', 'visits > 2 and mood == "ok"'),
);

const actionCondition = fc.constantFrom(
  'action.level == "high"',
  'action.minutes > 45',
  'action.level in ["mid", "high"] and action.minutes >= 20',
  'action.name CONTAINS "run"',
  'action.action_id == "a1"',
  'action.type == "rest"',
);

const guardrail = fc.oneof(
  fc.tuple(signalCondition, actionCondition).map(([when, block]) => `{ when ${when} block ${block} }`),
  signalCondition.map((when) => `{ when ${when} force rest }`),
  fc.tuple(signalCondition, fc.constantFrom('30', 'streak * 10', 'clamp(visits * 5, 10, 60)')).map(([when, limit]) => `{ when ${when} cap action.minutes ${limit} }`),
);

const score = fc.constantFrom(
  'engagement',
  'if action.level == "high" then 1 - engagement else 0.5',
  'action.minutes / 60',
  'clamp(streak / 7, 0, 1)',
  'if premium then 0.9 else 0.1',
);

const WEIGHTS = [['1'], ['0.5', '0.5'], ['0.6', '0.4'], ['0.2', '0.3', '0.5']] as const;

const invariant = fc.constantFrom(
  'payload.rationale CONTAINS action_metadata.name',
  'payload.rationale NOT CONTAINS_ANY ["guarantee", "will definitely", "proven to"]',
  "payload.rationale NOT MATCHES '\\d+(\\.\\d+)?\\s*(fatigue|tired)'",
  'payload.rationale LENGTH < 200',
  'payload.tone IS NULL or payload.tone EQUALS "calm"',
  'IF user_state.engagement > 0.5 THEN payload.rationale NOT CONTAINS "start"',
  'payload.rationale CONTAINS_ANY [action_metadata.name, "session"]',
  'decision_context.selected_action IS NOT NULL and action_metadata.minutes >= 0',
);

const templateWhen = fc.option(
  fc.constantFrom('user_state.engagement > 0.7', 'action_metadata.level == "low"', 'action_metadata.minutes < 30 or user_state.engagement < 0.1'),
  { nil: undefined },
);

export function validSelectionWorld(): fc.Arbitrary<string> {
  return fc
    .record({
      guardrails: fc.array(guardrail, { maxLength: 3 }),
      weights: fc.constantFrom(...WEIGHTS),
      scores: fc.array(score, { minLength: 3, maxLength: 3 }),
      risk: fc.boolean(),
      direction: fc.constantFrom('asc', 'desc'),
      mode: fc.constantFrom('skill_enhanced', 'deterministic_only'),
      invariants: fc.uniqueArray(invariant, { minLength: 1, maxLength: 4 }),
      when: templateWhen,
    })
    .map(
      (w) => `world { org "acme" domain "selection" version "1.0.0" }

skill narrator {
  version "1.0.0"
  type    deterministic
  action_metadata { name: string(..60), level: "low" | "mid" | "high", minutes: int }
  user_state      { engagement: float }
  output          { rationale: string(..200), tone: "calm" | "bright"? }
${w.invariants.map((check, i) => `  invariant "N-${i}" "generated check ${i}": ${check}`).join('\n')}
  prohibit "N-P1" "(?i)(injury|pain|hurt)" "medical safety"
${w.when === undefined ? '' : `  template special when ${w.when} { rationale: "A {action_metadata.level} session: {action_metadata.name}", tone: "calm" }\n`}  template default { rationale: "We picked {action_metadata.name} for {action_metadata.minutes} minutes" }
}

scenario pick {
  version "1.0.0"
  signals { visits: int = 0, streak: int = 0, premium: bool = false, mood: "ok" | "tired" = "ok" }
  state   { engagement: float(0..1) = clamp(visits / 10, 0, 1) }
  action_type session { name: string(..60), level: "low" | "mid" | "high", minutes: int, skill narrator }
  action_type rest    { name: string(..60), level: "low" | "mid" | "high", minutes: int, skill narrator }
${w.guardrails.map((g, i) => `  guardrail "G-${i}" "generated guardrail ${i}" ${g}`).join('\n')}
${w.weights.map((weight, i) => `  objective o${i} weight ${weight} = ${w.scores[i]}`).join('\n')}
${w.risk ? '  execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }\n' : ''}  tie_break action.minutes ${w.direction}, action_id asc
  default_mode ${w.mode}
}
`,
    );
}

/** Signals as the engine passes them (defaults applied) and candidate actions. */
export function selectionInput(): fc.Arbitrary<{ signals: Record<string, unknown>; actions: Record<string, unknown>[] }> {
  const action = fc.record({
    action_id: fc.constantFrom('a1', 'a2', 'a3'),
    action_type: fc.constantFrom('session', 'rest'),
    name: fc.constantFrom('tempo run', 'yoga', 'walk'),
    level: fc.constantFrom('low', 'mid', 'high'),
    minutes: fc.integer({ min: 5, max: 90 }),
  });
  return fc.record({
    signals: fc.record({
      visits: fc.integer({ min: 0, max: 20 }),
      streak: fc.integer({ min: 0, max: 10 }),
      premium: fc.boolean(),
      mood: fc.constantFrom('ok', 'tired'),
    }),
    actions: fc.array(action, { minLength: 1, maxLength: 3 }),
  });
}
