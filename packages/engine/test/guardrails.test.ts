/**
 * Stage 3 on the lab world (worlds/selection-lab): each guardrail effect, how effects combine,
 * and the reason codes every rejected candidate carries.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { call, LAB_WORLD, loadWorld, pause, selectOk, task } from './selection-fixtures.js';

let module: LoadedModule;
beforeAll(async () => {
  module = await loadWorld(LAB_WORLD);
});

const CANDIDATES = [task('t-high', 5, 'high'), task('t-low', 2, 'low'), call('c1', 0), pause('p1')];

async function guardrailsWith(signals: Record<string, unknown>, actions = CANDIDATES) {
  const selection = await selectOk(module, { scenario: 'lab', signals, actions });
  return { selection, stage: selection.stages.evaluate_guardrails };
}

describe('each effect', () => {
  test('a guardrail whose `when` does not hold affects nothing', async () => {
    const { stage } = await guardrailsWith({});
    expect(stage.guardrails.map((g) => [g.id, g.fired, g.affected_actions])).toEqual([
      ['GR-BLOCK-HIGH', false, []],
      ['GR-FORCE-PAUSE', false, []],
      ['GR-FORCE-CALL', false, []],
      ['GR-CAP-EFFORT', false, []],
    ]);
    expect(stage.eligible).toEqual(['t-high', 't-low', 'c1', 'p1']);
    expect(stage.rejected).toEqual([]);
  });

  test('block removes the candidates its predicate matches', async () => {
    const { selection, stage } = await guardrailsWith({ block_high: true });
    expect(stage.guardrails[0]).toEqual({
      id: 'GR-BLOCK-HIGH',
      description: 'No high-priority work when blocked',
      effect: 'block',
      fired: true,
      reason_code: 'GR-BLOCK-HIGH',
      affected_actions: ['t-high'],
      action_type: null,
      field: null,
    });
    expect(stage.rejected).toEqual([{ action_id: 't-high', violated_guardrails: ['GR-BLOCK-HIGH'] }]);
    expect(selection.selected_action).not.toBe('t-high');
  });

  test('force keeps only the candidates of the forced action type', async () => {
    const { selection, stage } = await guardrailsWith({ force_pause: true });
    expect(stage.guardrails[1]).toMatchObject({ fired: true, action_type: 'pause', affected_actions: ['t-high', 't-low', 'c1'] });
    expect(stage.eligible).toEqual(['p1']);
    expect(selection.selected_action).toBe('p1');
  });

  test('cap rejects candidates whose field exceeds the limit; equal passes, and candidates without the field pass', async () => {
    const actions = [task('over', 4, 'low'), task('at', 3, 'low'), call('c1', 0), pause('p1')];
    const { stage } = await guardrailsWith({ effort_cap: 3 }, actions);
    expect(stage.guardrails[3]).toMatchObject({ effect: 'cap', fired: true, field: 'effort', affected_actions: ['over'] });
    expect(stage.eligible).toEqual(['at', 'c1', 'p1']);
  });
});

describe('combining guardrails', () => {
  test('a candidate is rejected with the reason code of every guardrail it violates, in declaration order', async () => {
    const { stage } = await guardrailsWith({ block_high: true, effort_cap: 3 });
    expect(stage.rejected).toEqual([{ action_id: 't-high', violated_guardrails: ['GR-BLOCK-HIGH', 'GR-CAP-EFFORT'] }]);
  });

  test('two forces of different types intersect: nothing stays eligible', async () => {
    const { selection, stage } = await guardrailsWith({ force_pause: true, force_call: true });
    expect(selection).toMatchObject({ status: 'NO_ELIGIBLE_ACTIONS', selected_action: null });
    expect(stage.rejected).toEqual([
      { action_id: 't-high', violated_guardrails: ['GR-FORCE-PAUSE', 'GR-FORCE-CALL'] },
      { action_id: 't-low', violated_guardrails: ['GR-FORCE-PAUSE', 'GR-FORCE-CALL'] },
      { action_id: 'c1', violated_guardrails: ['GR-FORCE-PAUSE'] },
      { action_id: 'p1', violated_guardrails: ['GR-FORCE-CALL'] },
    ]);
  });

  test('guardrails filter independently: each rejects its own candidates, the rest stay eligible', async () => {
    const actions = [task('blocked', 1, 'high'), task('capped', 5, 'low'), task('kept', 2, 'low')];
    const { selection, stage } = await guardrailsWith({ block_high: true, effort_cap: 3 }, actions);
    expect(stage.rejected).toEqual([
      { action_id: 'blocked', violated_guardrails: ['GR-BLOCK-HIGH'] },
      { action_id: 'capped', violated_guardrails: ['GR-CAP-EFFORT'] },
    ]);
    expect(selection.selected_action).toBe('kept');
  });

  test('no candidates at all is NO_ELIGIBLE_ACTIONS, with the trace of every stage', async () => {
    const { selection } = await guardrailsWith({}, []);
    expect(selection.status).toBe('NO_ELIGIBLE_ACTIONS');
    expect(selection.stages.derive_state.state).toEqual({ base: 1, boost: 1 });
    expect(selection.stages.score_and_rank).toMatchObject({ scores: [], ranking: [], selection_basis: null });
  });
});
