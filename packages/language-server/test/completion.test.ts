/**
 * Completion in every kind of place, on the example worlds with one line typed into them
 * (in process, on the server's completion function; protocol.test.ts covers the same
 * through LSP): what is offered is what the language allows there.
 */
import { checkSources } from '@adec/compiler';
import { describe, expect, test } from 'vitest';
import { completions } from '../src/features/completion.js';
import { buildWorldIndex } from '../src/symbols/world-index.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';

/** The labels offered after typing `typed` on a new line after the line holding `anchor`. */
function offered(world: string, file: string, anchor: string, typed: string): string[] {
  const sources = loadWorldFromDir(world);
  const source = sources.files.find((f) => f.path.endsWith(`/${file}`));
  if (source === undefined) throw new Error(`${file} is not in ${world}`);
  const anchorAt = source.text.indexOf(anchor);
  if (anchorAt < 0) throw new Error(`\`${anchor}\` is not in ${file}`);
  const lineEnd = source.text.indexOf('\n', anchorAt);
  const text = `${source.text.slice(0, lineEnd)}\n${typed}${source.text.slice(lineEnd)}`;
  const files = sources.files.map((f) => (f === source ? { ...f, text } : f));
  const index = buildWorldIndex(checkSources({ root: sources.root, files }).files, new Map(files.map((f) => [f.path, f.text])));
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return completions({ text, offset: lineEnd + 1 + typed.length, index, rangeBefore: () => range }).map((i) => i.label);
}

const benefits = (file: string, anchor: string, typed: string) => offered('examples/benefits', file, anchor, typed);
const fitness = (file: string, anchor: string, typed: string) => offered('examples/fitness', file, anchor, typed);

describe('clauses and spellings', () => {
  test('the clause keywords of the enclosing block', () => {
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    app')).toEqual(expect.arrayContaining(['applies_when', 'outcome', 'suppresses']));
    expect(benefits('submit_claim.adec', 'on GREEN-SKIP {', '    next')).toEqual(['mode', 'next_action', 'allowed_actions', 'forbidden_actions', 'required_output', 'next_human_owner']);
    expect(fitness('fitness_daily_session.adec', 'default_mode skill_enhanced', '  tie')).toEqual(expect.arrayContaining(['tie_break', 'guardrail', 'objective']));
    expect(fitness('tests.adec', 'scenario fitness_daily_session', '  exp')).toEqual(expect.arrayContaining(['expect', 'signals', 'actions']));
    expect(benefits('world.adec', 'name    "benefits"', '  tim')).toEqual(['org', 'domain', 'version', 'name', 'timeout']);
  });

  test('outcomes, statuses, severities, modes and types where they are expected', () => {
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    outcome GREEN-')).toEqual(['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED']);
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    severity ')).toEqual(['t1', 't2', 't3']);
    expect(benefits('submit_claim.adec', 'aggregate winner_takes_all', '  aggregate ')).toEqual(['winner_takes_all', 'vote_of_n', 'weighted_sum_threshold']);
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  expect ')).toEqual(['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED', 'selected', 'NO_ELIGIBLE_ACTIONS', 'skill']);
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  expect skill ')).toEqual(['output', 'validation']);
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  expect skill validation ')).toEqual(['passed', 'failed']);
    expect(benefits('submit_claim.adec', 'supplied clinical_notes', '    supplied notes: list<')).toEqual(['bool', 'int', 'float', 'string', 'timestamp', 'duration', 'list']);
    expect(benefits('context.adec', 'system   request_time', '  system ')).toEqual(['request_time', 'request_id', 'authenticated_caller']);
  });
});

describe('names', () => {
  test('the names an expression sees: the action\'s context in a rule, signals and state in a scenario, the SEC envelope in a skill', () => {
    const inRule = benefits('submit_claim.adec', 'rule filed_too_late {', '    when ');
    expect(inRule).toEqual(expect.arrayContaining(['claim_amount', 'request_time', 'employee_status', 'len', 'CONTAINS']));
    expect(inRule).not.toContain('current_plan');
    expect(fitness('fitness_daily_session.adec', 'objective momentum', '  objective x weight 0.1 = ')).toEqual(expect.arrayContaining(['sessions_last_7d', 'engagement_level', 'action', 'action_id', 'clamp']));
    const invariant = fitness('skills/fitness_session_rationale.adec', 'invariant "FIT-003"', '    ');
    expect(invariant).toEqual(expect.arrayContaining(['payload', 'action_metadata', 'user_state', 'decision_context']));
    // Interpolations see the names of their clause; a template produces the payload, so it cannot read it.
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    reason "late {claim_')).toEqual(expect.arrayContaining(['claim_id', 'claim_amount']));
    expect(fitness('skills/decision_rationale_template.adec', 'template default {', '    rationale: "{')).not.toContain('payload');
  });

  test('fields after a dot, through records and the SEC envelope', () => {
    expect(fitness('fitness_daily_session.adec', 'objective momentum', '  objective x weight 0.1 = action.')).toEqual(['action_id', 'type', 'session_name', 'session_type', 'intensity', 'duration_minutes']);
    expect(fitness('skills/fitness_session_rationale.adec', 'invariant "FIT-003"', '    payload.display_parameters.')).toEqual(['tone', 'highlight_recovery']);
    expect(fitness('skills/fitness_session_rationale.adec', 'invariant "FIT-003"', '    decision_context.')).toEqual(['decision_id', 'selected_action', 'action_metadata']);
    expect(fitness('skills/decision_rationale_template.adec', 'template default {', '    rationale: "{user_state.')).toEqual(['engagement_level', 'sessions_last_7d', 'consecutive_high_intensity']);
  });

  test('rules, skills, action types, actions and scenarios where a declaration is named', () => {
    expect(benefits('add_dependent.adec', 'rule dependent_already_covered {', '    suppresses student_extension, ')).toEqual(expect.arrayContaining(['missing_birth_certificate', 'child_under_26']));
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  expect RED by ')).toContain('no_qualifying_event');
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  action ')).toEqual(['add_dependent', 'change_plan', 'submit_claim']);
    expect(fitness('skills/fitness_session_rationale.adec', 'timeout     300ms', '  fallback ')).toEqual(['decision_rationale_template', 'fitness_session_rationale']);
    expect(fitness('fitness_daily_session.adec', 'when  rest_days_last_7d < 1', '    force ')).toEqual(['workout_session', 'rest_day']);
    expect(fitness('tests.adec', 'scenario fitness_daily_session', '  scenario ')).toEqual(['fitness_daily_session']);
  });

  test('a template lists the skill\'s output fields', () => {
    expect(fitness('skills/decision_rationale_template.adec', 'template default {', '    ')).toEqual(['rationale']);
  });
});

describe('enum members', () => {
  test('compared with an enum, in a list for `in`, inside the quotes or before them', () => {
    expect(benefits('add_dependent.adec', 'rule child_under_26 {', '    when relationship == ')).toEqual(expect.arrayContaining(['"child"', '"domestic_partner"']));
    expect(benefits('add_dependent.adec', 'rule child_under_26 {', '    when relationship != "ch')).toEqual(['child', 'stepchild', 'spouse', 'domestic_partner']);
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    when provider_network in ["in_network", ')).toEqual(expect.arrayContaining(['"in_network"', '"out_of_network"']));
    expect(fitness('skills/fitness_session_rationale.adec', 'invariant "FIT-003"', '    payload.display_parameters.tone == "')).toEqual(['supportive', 'energetic', 'calm']);
    expect(fitness('fitness_daily_session.adec', 'objective momentum', '  tie_break action.type == "')).toEqual(['workout_session', 'rest_day']);
  });

  test('in tests: the values of an attribute, a signal or a candidate field, the keys a record may have', () => {
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  context { current_plan: ')).toEqual(['"bronze"', '"silver"', '"gold"']);
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  context { current_plan: "bronze", ')).toEqual(['employee_status', 'current_plan', 'requested_plan', 'life_event', 'life_event_date', 'open_enrollment', 'open_claims']);
    expect(benefits('change_plan.tests.adec', 'test "open enrollment allows', '  system { ')).toEqual(['request_time', 'request_id', 'authenticated_caller']);
    expect(fitness('tests.adec', 'test "a week without rest', '  signals { ')).toEqual(['sessions_last_7d', 'rest_days_last_7d', 'consecutive_high_intensity']);
    expect(fitness('tests.adec', 'test "a week without rest', '  actions [ { action_id: "x", type: "')).toEqual(['workout_session', 'rest_day']);
    expect(fitness('tests.adec', 'test "a week without rest', '  actions [ { action_id: "x", type: "workout_session", intensity: ')).toEqual(['"low"', '"moderate"', '"high"']);
  });
});

test('blocks named like Object.prototype members are blocks like any other', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    expect(benefits('world.adec', 'name    "benefits"', `  ${name} {\n    `)).toEqual([]);
    expect(benefits('submit_claim.adec', 'rule filed_too_late {', `    when ${name}.`)).toEqual([]);
  }
});

test('nothing in a comment', () => {
  expect(benefits('submit_claim.adec', 'rule filed_too_late {', '    // when ')).toEqual([]);
});
