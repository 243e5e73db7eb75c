/**
 * The fitness example through the engine: the five golden cases of examples/fitness/tests.adec
 * (expected results computed by hand from the documented semantics), and the trace each stage
 * leaves behind.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { loadModule, type LoadedModule } from '@adec/runtime';
import { SELECTION_EXTENSION, type CandidateAction, type SelectionRequest } from '@adec/engine';
import { asTestBundle, buildFixture } from '../../../test/support/runtime.js';
import { loadWorld, selectOk } from './selection-fixtures.js';

const SCENARIO = 'fitness_daily_session';
const HIIT: CandidateAction = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN: CandidateAction = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const YOGA: CandidateAction = { action_id: 'yoga-30', type: 'workout_session', session_name: 'Morning Yoga', session_type: 'yoga', intensity: 'low', duration_minutes: 30 };
const REST: CandidateAction = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

let module: LoadedModule;
beforeAll(async () => {
  module = await loadWorld('examples/fitness');
});

describe('the golden cases of examples/fitness', () => {
  test('a week without rest forces the rest day', async () => {
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 6, rest_days_last_7d: 0, consecutive_high_intensity: 1 }, actions: [HIIT, YOGA, REST] });
    expect(selection.selected_action).toBe('rest');
    expect(selection.stages.evaluate_guardrails.rejected).toEqual([
      { action_id: 'hiit-20', violated_guardrails: ['GR-REST-MIN'] },
      { action_id: 'yoga-30', violated_guardrails: ['GR-REST-MIN'] },
    ]);
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'only_eligible' });
  });

  test('a new user is offered the hard session: 0.6 × 1 beats 0.6 × 0.8', async () => {
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 0, rest_days_last_7d: 3, consecutive_high_intensity: 0 }, actions: [HIIT, RUN] });
    expect(selection.selected_action).toBe('hiit-20');
    expect(selection.stages.score_and_rank.ranking.map((r) => [r.action_id, r.final_score])).toEqual([
      ['hiit-20', 0.6],
      ['run-40', 0.48],
    ]);
  });

  test('an engaged user keeps a steady pace: equal scores, the shorter session first', async () => {
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 5, rest_days_last_7d: 2, consecutive_high_intensity: 0 }, actions: [HIIT, RUN, YOGA] });
    expect(selection.selected_action).toBe('yoga-30');
    const ranking = selection.stages.score_and_rank.ranking;
    expect(ranking.map((r) => [r.action_id, r.final_score, r.tie_break_keys])).toEqual([
      ['yoga-30', 0.88, [30, 'yoga-30']],
      ['run-40', 0.88, [40, 'run-40']],
      ['hiit-20', 0.4, [20, 'hiit-20']],
    ]);
    expect(ranking.map((r) => r.ahead_of_next)).toEqual([{ by: 'tie_break', index: 0 }, { by: 'score' }, null]);
  });

  test('the intensity cap blocks a third hard session in a row', async () => {
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 }, actions: [HIIT, RUN] });
    expect(selection.selected_action).toBe('run-40');
    const cap = selection.stages.evaluate_guardrails.guardrails.find((g) => g.id === 'GR-INTENSITY-CAP');
    expect(cap).toMatchObject({ fired: true, effect: 'block', affected_actions: ['hiit-20'], reason_code: 'GR-INTENSITY-CAP' });
  });

  test('only hard sessions after two hard days leaves nothing eligible', async () => {
    const spin = { ...HIIT, action_id: 'spin-45', duration_minutes: 45 };
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 4, rest_days_last_7d: 1, consecutive_high_intensity: 3 }, actions: [HIIT, spin] });
    expect(selection).toMatchObject({ status: 'NO_ELIGIBLE_ACTIONS', selected_action: null });
    expect(selection.stages.score_and_rank).toMatchObject({ scores: [], ranking: [], selection_basis: null });
  });
});

describe('the stage trace', () => {
  test('records the derived state and which signals took their default', async () => {
    const selection = await selectOk(module, { scenario: SCENARIO, signals: { sessions_last_7d: 2 }, actions: [RUN] });
    expect(selection.stages.derive_state).toEqual({
      signals: { sessions_last_7d: 2, rest_days_last_7d: 0, consecutive_high_intensity: 0 },
      defaults_applied: ['rest_days_last_7d', 'consecutive_high_intensity'],
      state: { engagement_level: 0.4 },
      failed_state: [],
    });
    expect(selection.module).toMatchObject({ world: 'fitness', version: '1.0.0', module_hash: module.moduleHash });
  });

  test('breaks each score down into objectives and the execution-risk penalty', async () => {
    const selection = await selectOk(module, {
      scenario: SCENARIO,
      signals: { sessions_last_7d: 5, rest_days_last_7d: 2 },
      actions: [YOGA],
      conditions: ['offline_mode'],
    });
    const [score] = selection.stages.score_and_rank.scores;
    expect(score).toEqual({
      action_id: 'yoga-30',
      type: 'workout_session',
      objectives: [
        { name: 'completion', weight: 0.6, raw: 0.8, contribution: 0.6 * 0.8 },
        { name: 'momentum', weight: 0.4, raw: 1, contribution: 0.4 },
      ],
      objective_total: 0.6 * 0.8 + 0.4,
      // A workout's skill is an LLM skill, and offline_mode takes the model away.
      execution_risk_factors: ['offline_mode'],
      execution_risk_penalty: 0.1 * 0.2,
      final_score: 0.86,
    });
  });
});

test('a module isolated in a supervised process selects exactly as one in this process', async () => {
  const bundle = asTestBundle(await buildFixture('examples/fitness'));
  const loaded = await loadModule(
    { manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle },
    { isolation: 'process', extensions: [SELECTION_EXTENSION] },
  );
  if (!loaded.ok) throw new Error(loaded.message);
  try {
    const request: SelectionRequest = { scenario: SCENARIO, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, actions: [HIIT, RUN, YOGA, REST], conditions: ['offline_mode'] };
    const inProcess = await selectOk(module, request);
    const isolated = await selectOk(loaded.module, request);
    // Everything but how long each stage took.
    expect({ ...isolated, timings: null }).toEqual({ ...inProcess, timings: null });
    expect(Object.values(isolated.timings).every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
  } finally {
    await loaded.module.evaluator.dispose();
  }
});
