/**
 * Module functions that throw or return unusable values, injected into the lab bundle through
 * the test-only path (the language cannot express them). Each becomes an entry of `errors`;
 * the cycle goes on: failed state throws when read, a guardrail that cannot be evaluated
 * applies (fail closed), a failed objective or tie-break key fails the ranking.
 */
import { describe, expect, test } from 'vitest';
import { loadModule } from '@adec/runtime';
import { select, type CandidateAction, type Selection } from '@adec/engine';
import { asTestBundle, buildFixture } from '../../../test/support/runtime.js';
import { call, LAB_WORLD, loadWorld, pause, selectOk, task } from './selection-fixtures.js';

const SCENARIO = 'm._SCENARIOS.lab';

async function selectInjected(javascript: string, actions: CandidateAction[], signals: Record<string, unknown> = {}): Promise<Selection> {
  return selectOk(await loadWorld(LAB_WORLD, javascript), { scenario: 'lab', signals, actions });
}

describe('stage 2', () => {
  const failingBase = `${SCENARIO}.state[0].derive = () => { throw new Error("no base"); };`;

  test('a failed derivation is recorded, and everything reading the value fails in turn', async () => {
    const selection = await selectInjected(failingBase, [task('t-low', 1, 'low')]);
    expect(selection.stages.derive_state).toMatchObject({ state: {}, failed_state: ['base', 'boost'] });
    expect(selection.errors).toEqual([
      { stage: 'derive_state', source: 'state base', action_id: null, message: 'Error: no base' },
      { stage: 'derive_state', source: 'state boost', action_id: null, message: 'Error: reads state `base`, whose derivation failed: Error: no base' },
    ]);
    // No objective of a low-priority task reads the failed state: it is still selected.
    expect(selection.selected_action).toBe('t-low');
  });

  test('an objective that reads failed state fails the ranking', async () => {
    const selection = await selectInjected(failingBase, [task('t-high', 1, 'high'), task('t-low', 1, 'low')]);
    expect(selection).toMatchObject({ status: 'SCORING_FAILED', selected_action: null });
    expect(selection.errors.at(-1)).toMatchObject({ stage: 'score_and_rank', source: 'objective value', action_id: 't-high' });
  });
});

describe('stage 3 fails closed', () => {
  test('a `when` that throws fires its guardrail', async () => {
    const selection = await selectInjected(`${SCENARIO}.guardrails[1].when = () => { throw new TypeError("broken"); };`, [task('t1', 1, 'low'), pause('p1')]);
    expect(selection.stages.evaluate_guardrails.guardrails[1]).toMatchObject({ id: 'GR-FORCE-PAUSE', fired: true, affected_actions: ['t1'] });
    expect(selection.errors).toEqual([{ stage: 'evaluate_guardrails', source: 'guardrail GR-FORCE-PAUSE when', action_id: null, message: 'TypeError: broken' }]);
    expect(selection.selected_action).toBe('p1');
  });

  test('a block predicate that throws for one candidate rejects that candidate only', async () => {
    const injected = `${SCENARIO}.guardrails[0].predicate = (env, action) => { if (action.action_id === "t2") throw new Error("cannot tell"); return false; };`;
    const selection = await selectInjected(injected, [task('t1', 1, 'high'), task('t2', 1, 'high')], { block_high: true });
    expect(selection.stages.evaluate_guardrails.rejected).toEqual([{ action_id: 't2', violated_guardrails: ['GR-BLOCK-HIGH'] }]);
    expect(selection.errors).toEqual([{ stage: 'evaluate_guardrails', source: 'guardrail GR-BLOCK-HIGH predicate', action_id: 't2', message: 'Error: cannot tell' }]);
  });

  test('a cap limit that is not a number rejects the candidates the cap applies to', async () => {
    const selection = await selectInjected(`${SCENARIO}.guardrails[3].limit = () => "ten";`, [task('t1', 1, 'low'), call('c1', 0)], { effort_cap: 50 });
    expect(selection.stages.evaluate_guardrails.eligible).toEqual(['c1']);
    expect(selection.errors).toEqual([{ stage: 'evaluate_guardrails', source: 'guardrail GR-CAP-EFFORT limit', action_id: 't1', message: 'returned "ten", not a finite number' }]);
  });

  test('an effect the engine does not know rejects every candidate', async () => {
    const selection = await selectInjected(`${SCENARIO}.guardrails[0].effect = "quarantine";`, [pause('p1')], { block_high: true });
    expect(selection.status).toBe('NO_ELIGIBLE_ACTIONS');
    expect(selection.errors[0]!.message).toBe('has the effect "quarantine", which this engine does not know');
  });
});

describe('stage 4 fails the ranking', () => {
  test.each([
    ['an objective that throws', `${SCENARIO}.objectives[1].score = () => { throw new RangeError("off the scale"); };`, 'objective ease', 'RangeError: off the scale'],
    ['an objective that is not a finite number', `${SCENARIO}.objectives[1].score = () => 0 / 0;`, 'objective ease', 'returned NaN, not a finite number'],
    ['a tie-break key that throws', `${SCENARIO}.tie_breaks[0].key = () => { throw new Error("no key"); };`, 'tie_break[0]', 'Error: no key'],
    ['a tie-break key that cannot be ordered', `${SCENARIO}.tie_breaks[1].key = () => ({ label: 1 });`, 'tie_break[1]', 'returned {"label":1}, which cannot be ordered'],
  ])('%s', async (_, injected, source, message) => {
    const selection = await selectInjected(injected, [pause('p1')]);
    expect(selection).toMatchObject({ status: 'SCORING_FAILED', selected_action: null });
    expect(selection.stages.score_and_rank.ranking).toEqual([]);
    expect(selection.errors).toEqual([{ stage: 'score_and_rank', source, action_id: 'p1', message }]);
  });

  test('the breakdown shows which objective failed', async () => {
    const selection = await selectInjected(`${SCENARIO}.objectives[0].score = () => { throw new Error("x"); };`, [pause('p1')]);
    expect(selection.stages.score_and_rank.scores[0]).toMatchObject({
      objectives: [
        { name: 'value', raw: null, contribution: null },
        { name: 'ease', raw: 1, contribution: 0.3 },
      ],
      objective_total: null,
      final_score: null,
    });
  });
});

describe('isolation', () => {
  test('a function cannot change the candidates or the state another function reads', async () => {
    const injected = `${SCENARIO}.objectives[0].score = (env, action) => { try { action.minutes = 60; env.base = 9; } catch {} return 0.5; };`;
    const selection = await selectInjected(injected, [call('c1', 0)]);
    expect(selection.errors).toEqual([]);
    expect(selection.stages.score_and_rank.scores[0]!.objectives[1]).toMatchObject({ name: 'ease', raw: 1 });
  });

  test('a function that never returns fails the selection with a time limit, and the module keeps selecting', async () => {
    const module = await loadWorld(LAB_WORLD, `${SCENARIO}.objectives[0].score = (env, action) => { if (action.action_id === "loop") for (;;) {} return 0.5; };`);
    const result = await select(module, { scenario: 'lab', actions: [pause('loop')] }, 20);
    expect(result).toEqual({
      ok: false,
      error: { code: 'SANDBOX_FAILURE', message: 'selection in scenario `lab` failed in the sandbox (timeout): exceeded its time limit of 20 ms', problems: [] },
    });
    expect((await selectOk(module, { scenario: 'lab', actions: [pause('p1')] })).selected_action).toBe('p1');
  });

  test('a module loaded without the selection extension is refused with an error value', async () => {
    const bundle = asTestBundle(await buildFixture(LAB_WORLD));
    const loaded = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation: 'in-process' });
    if (!loaded.ok) throw new Error(loaded.message);
    const result = await select(loaded.module, { scenario: 'lab', actions: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('MODULE_UNSUPPORTED');
    expect(result.error.message).toMatch(/^the module cannot describe its scenarios \(was it loaded with SELECTION_EXTENSION\?\): .*__adec_scenarios/);
  });
});
