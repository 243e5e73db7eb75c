/**
 * Stage 4 on the lab world: objectives (Σ weight × score) over state derived in dependency
 * order, the execution-risk penalty, and every path of the tie-break order.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import type { CandidateAction, SelectionRequest } from '@adec/engine';
import { call, LAB_WORLD, loadWorld, pause, selectOk, task } from './selection-fixtures.js';

let module: LoadedModule;
beforeAll(async () => {
  module = await loadWorld(LAB_WORLD);
});

const lab = (actions: CandidateAction[], more: Partial<SelectionRequest> = {}) => selectOk(module, { scenario: 'lab', actions, ...more });

describe('objectives', () => {
  test('a score is the sum of weight × objective, over state derived in dependency order', async () => {
    // base = urgency × 2 = 0.5; boost (declared first, derived second) = base + 1 when busy.
    const selection = await lab([task('t1', 1, 'high')], { signals: { urgency: 0.25, mood: 'busy' } });
    expect(selection.stages.derive_state.state).toEqual({ base: 0.5, boost: 1.5 });
    const [score] = selection.stages.score_and_rank.scores;
    expect(score!.objectives).toEqual([
      { name: 'value', weight: 0.7, raw: 1.5, contribution: 0.7 * 1.5 },
      { name: 'ease', weight: 0.3, raw: 1, contribution: 0.3 },
    ]);
    expect(score!.final_score).toBe(1.35);
  });
});

describe('execution risk', () => {
  const actions = [task('t-high', 1, 'high'), call('c1', 30)];

  test('costs nothing when no condition is reported', async () => {
    const risk = (await lab(actions)).stages.score_and_rank.execution_risk;
    expect(risk).toEqual({ weight: 0.5, factors: { offline_mode: 0.4, skill_unavailable: 0.2, low_battery: 0.2 }, applied_factors: [], ignored_conditions: [] });
    expect((await lab(actions)).stages.score_and_rank.scores.map((s) => [s.execution_risk_factors, s.execution_risk_penalty])).toEqual([
      [[], 0],
      [[], 0],
    ]);
  });

  test('subtracts weight × the reported factors a candidate is exposed to; conditions that take the model away spare candidates without an LLM skill', async () => {
    const selection = await lab(actions, { conditions: ['skill_unavailable', 'offline_mode', 'offline_mode', 'low_battery', 'network_flaky'] });
    const stage = selection.stages.score_and_rank;
    expect(stage.execution_risk).toMatchObject({ applied_factors: ['offline_mode', 'skill_unavailable', 'low_battery'], ignored_conditions: ['network_flaky'] });
    // The lab's action types map to no skill: only low_battery, which is not about the model, applies.
    expect(stage.scores.map((s) => [s.action_id, s.execution_risk_factors, s.execution_risk_penalty, s.final_score])).toEqual([
      ['t-high', ['low_battery'], 0.1, 0.9],
      ['c1', ['low_battery'], 0.1, 0.4],
    ]);
    expect(selection.selected_action).toBe('t-high');
  });
});

describe('ranking and tie-breaks', () => {
  test('a higher score ranks first', async () => {
    const selection = await lab([task('low', 1, 'low'), task('high', 9, 'high')]);
    expect(selection.selected_action).toBe('high');
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'score' });
  });

  test('equal scores: the first tie-break key decides (effort ascending)', async () => {
    const selection = await lab([task('slow', 5, 'low'), task('quick', 2, 'low')]);
    expect(selection.selected_action).toBe('quick');
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'tie_break', index: 0 });
  });

  test('equal on the first key: the second decides (label descending)', async () => {
    const selection = await lab([task('a', 2, 'low', 'alpha'), task('b', 2, 'low', 'beta')]);
    expect(selection.selected_action).toBe('b');
    expect(selection.stages.score_and_rank.ranking.map((r) => r.tie_break_keys)).toEqual([
      [2, 'beta'],
      [2, 'alpha'],
    ]);
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'tie_break', index: 1 });
  });

  test('an absent key sorts last in ascending order', async () => {
    const selection = await lab([pause('p1'), task('t1', 9, 'low')]);
    expect(selection.selected_action).toBe('t1');
    expect(selection.stages.score_and_rank.ranking.map((r) => r.tie_break_keys)).toEqual([
      [9, 't1'],
      [null, null],
    ]);
  });

  test('an absent key sorts last in descending order too', async () => {
    const selection = await lab([pause('p1'), call('c1', 0, 'a')]);
    expect(selection.selected_action).toBe('c1');
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'tie_break', index: 1 });
  });

  test('equal on score and every key: action_id ascending', async () => {
    const selection = await lab([pause('p2'), pause('p10'), pause('p1')]);
    expect(selection.stages.score_and_rank.ranking.map((r) => [r.rank, r.action_id, r.ahead_of_next])).toEqual([
      [1, 'p1', { by: 'action_id' }],
      [2, 'p10', { by: 'action_id' }],
      [3, 'p2', null],
    ]);
  });

  test('scores equal up to floating-point noise tie, and the tie-breaks decide', async () => {
    // 0.7 × 0.2 + 0.3 = 0.43999999999999995 and 0.35 + 0.3 × (1 − 42/60) = 0.44.
    const selection = await lab([call('c42', 42), task('t-high', 5, 'high')], { signals: { urgency: 0.1 } });
    expect(selection.stages.score_and_rank.scores.map((s) => s.objective_total)).toEqual([0.44, 0.43999999999999995]);
    expect(selection.selected_action).toBe('t-high');
    expect(selection.stages.score_and_rank.selection_basis).toEqual({ by: 'tie_break', index: 0 });
  });

  test('the selection and its trace do not depend on the order of the candidates', async () => {
    const actions = [task('t1', 2, 'low', 'x'), task('t2', 2, 'low', 'y'), call('c1', 0), pause('p1'), pause('p0'), task('t3', 1, 'high')];
    const first = await lab(actions, { signals: { block_high: true } });
    const again = await lab(actions, { signals: { block_high: true } });
    // Byte for byte, but for how long each stage took.
    expect(JSON.stringify({ ...again, timings: null })).toBe(JSON.stringify({ ...first, timings: null }));
    const reversed = await lab([...actions].reverse(), { signals: { block_high: true } });
    expect(reversed.stages.score_and_rank.ranking).toEqual(first.stages.score_and_rank.ranking);
    expect(first.selected_action).toBe('t2');
  });
});
