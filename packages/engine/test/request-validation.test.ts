/**
 * Stage 1 for selection: an unknown scenario and every kind of invalid signal, action or
 * condition is an error value naming the problem (with its path), never a throw; valid wire
 * values are converted to the form the module computes with.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { select, type SelectionRequest } from '@adec/engine';
import { LAB_WORLD, loadWorld, pause, selectOk } from './selection-fixtures.js';

let module: LoadedModule;
beforeAll(async () => {
  module = await loadWorld(LAB_WORLD);
});

async function problemsOf(request: Partial<SelectionRequest> & Record<string, unknown>) {
  const result = await select(module, { scenario: 'lab', actions: [pause('p1')], ...request }, 1_000);
  if (result.ok) throw new Error('expected an invalid request');
  expect(result.error.code).toBe('INVALID_REQUEST');
  return result.error.problems;
}

test('an unknown scenario names the module and the scenarios it has', async () => {
  const result = await select(module, { scenario: 'labb', actions: [] });
  expect(result).toEqual({
    ok: false,
    error: { code: 'UNKNOWN_SCENARIO', message: 'module selection-lab@1.0.0 has no scenario `labb` (scenarios: lab)', problems: [] },
  });
});

describe('invalid signals', () => {
  test.each([
    ['bool', { block_high: 'yes' }, 'signals.block_high', 'expected true or false, found string "yes"'],
    ['int', { effort_cap: 2.5 }, 'signals.effort_cap', 'expected a whole number, found the number 2.5'],
    ['float range', { urgency: 2 }, 'signals.urgency', '2 is above the maximum 1'],
    ['enum', { mood: 'angry' }, 'signals.mood', 'expected one of "calm", "busy", found string "angry"'],
    ['string length', { owner: '' }, 'signals.owner', 'has 0 characters, fewer than the minimum 1'],
    ['timestamp', { since: 'yesterday' }, 'signals.since', 'expected an RFC 3339 timestamp such as "2026-03-01T09:00:00Z", found string "yesterday"'],
    ['impossible date', { since: '2026-02-31T00:00:00Z' }, 'signals.since', 'expected an RFC 3339 timestamp such as "2026-03-01T09:00:00Z", found string "2026-02-31T00:00:00Z"'],
    ['duration', { window: '5y' }, 'signals.window', 'expected a duration such as "30d", "18h", "500ms" or a whole number of ms, found string "5y"'],
    ['list item', { tags: ['ok', 7] }, 'signals.tags[1]', 'expected a string, found the number 7'],
    ['record field', { profile: { level: 9 } }, 'signals.profile.level', '9 is above the maximum 5'],
    ['missing record field', { profile: { name: 'x' } }, 'signals.profile.level', '`level` is required'],
    ['null for a required value', { urgency: null }, 'signals.urgency', 'expected a number, found null'],
    ['undeclared', { urgencyy: 0.5 }, 'signals.urgencyy', '`urgencyy` is not a signal of scenario `lab`'],
  ])('%s', async (_, signals, path, message) => {
    expect(await problemsOf({ signals })).toEqual([{ path, message }]);
  });

  test('every problem is reported, and the message summarizes them', async () => {
    const result = await select(module, { scenario: 'lab', signals: { urgency: -1, mood: 'x' }, actions: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe('invalid request for scenario `lab`: signals.urgency: -1 is below the minimum 0 (and 1 more problem)');
    expect(result.error.problems.map((p) => p.path)).toEqual(['signals.urgency', 'signals.mood']);
  });

  test('signals must be an object', async () => {
    expect(await problemsOf({ signals: [1] as never })).toEqual([{ path: 'signals', message: 'expected an object, found a list' }]);
  });
});

describe('valid signals', () => {
  test('are converted to module form, and absent ones take their default or null', async () => {
    const selection = await selectOk(module, {
      scenario: 'lab',
      signals: { since: '2026-03-01T10:00:00+01:00', window: '2h', budget: null, profile: { level: 2 } },
      actions: [pause('p1')],
    });
    const { signals, defaults_applied } = selection.stages.derive_state;
    expect(signals).toMatchObject({
      since: Date.UTC(2026, 2, 1, 9),
      window: 7_200_000,
      budget: null,
      profile: { level: 2, name: null },
      started: Date.UTC(2026, 0, 1),
      urgency: 0.5,
    });
    expect(defaults_applied).toEqual(['block_high', 'force_pause', 'force_call', 'effort_cap', 'urgency', 'mood', 'owner', 'tags', 'started']);
  });

  test('a duration may also be given as whole milliseconds', async () => {
    const selection = await selectOk(module, { scenario: 'lab', signals: { window: 1500 }, actions: [] });
    expect(selection.stages.derive_state.signals['window']).toBe(1500);
  });
});

describe('invalid actions and conditions', () => {
  test.each([
    ['not a list', { actions: 'p1' }, [{ path: 'actions', message: 'expected a list of actions, found string "p1"' }]],
    ['absent', { actions: undefined }, [{ path: 'actions', message: 'expected a list of actions, found nothing' }]],
    ['not an object', { actions: [7] }, [{ path: 'actions[0]', message: 'expected an action object such as { "action_id": "a1", "type": "…" }, found the number 7' }]],
    ['no action_id', { actions: [{ type: 'pause' }] }, [{ path: 'actions[0].action_id', message: 'expected a non-empty string, found nothing' }]],
    [
      'a duplicate action_id',
      { actions: [pause('p1'), pause('p1')] },
      [{ path: 'actions[1].action_id', message: 'duplicate action_id "p1", already used by actions[0]' }],
    ],
    [
      'an unknown action type',
      { actions: [{ action_id: 'x', type: 'nap' }] },
      [{ path: 'actions[0].type', message: 'expected an action type of scenario `lab` (task, call, pause), found string "nap"' }],
    ],
    [
      'a field its type does not declare',
      { actions: [{ action_id: 'c1', type: 'call', minutes: 5, label: 'x', effort: 3 }] },
      [{ path: 'actions[0].effort', message: '`effort` is not a field of action type `call`' }],
    ],
    [
      'a field value that does not fit its type',
      { actions: [{ action_id: 't1', type: 'task', effort: '3', priority: 'urgent', label: 'x' }] },
      [
        { path: 'actions[0].effort', message: 'expected a whole number, found string "3"' },
        { path: 'actions[0].priority', message: 'expected one of "low", "high", found string "urgent"' },
      ],
    ],
    [
      'a missing field of its type',
      { actions: [{ action_id: 'c1', type: 'call', label: 'x' }] },
      [{ path: 'actions[0].minutes', message: '`minutes` is required for action type `call`' }],
    ],
    ['conditions that are not names', { conditions: ['offline_mode', 1] }, [{ path: 'conditions', message: 'expected a list of condition names, found a list' }]],
  ])('%s', async (_, request, problems) => {
    expect(await problemsOf(request as Record<string, unknown>)).toEqual(problems);
  });
});
