/**
 * `adec explain <world> --action A --context file|-`: one decision of a world's sources, and
 * why, rule by rule: each rule's result, and under it the sub-condition that decided each of its
 * conditions with the values it read (durations as a person reads them). The re-evaluation from
 * the trace agrees with the sandbox on every rule of every test of the benefits example.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { decide } from '@adec/runtime';
import { loadBuiltModule } from '../src/built-module.js';
import { explainDecision } from '../src/explain/explain-decision.js';
import { runCli, tempWorkspace } from './run-cli.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';

const LAUNCHER = fileURLToPath(new URL('../bin/adec.js', import.meta.url));

const WORLD = `world {
  org     "acme"
  domain  "shop.returns"
  version "1.0.0"
}

action return_item {
  context {
    supplied ordered_at: timestamp
    supplied opened:     bool
    supplied grace:      duration = 2h
    system   request_time: timestamp
    computed since_order: duration = request_time - ordered_at
  }

  rule past_window {
    outcome  RED
    severity t2
    when     since_order > 30d + grace and not opened
    reason   "Ordered {since_order} ago"
  }

  rule opened_item {
    outcome      YELLOW
    severity     t2
    applies_when since_order <= 30d
    when         opened or (since_order > 14d and grace < 1h)
    reason       "Opened items are checked before a refund"
  }
}
`;

describe('adec explain', () => {
  test('explains every rule, with the deciding sub-condition and the values it read (the real launcher)', () => {
    const cwd = tempWorkspace({ 'shop/world.adec': WORLD, 'late.json': JSON.stringify({ ordered_at: '2026-01-20T06:30:00Z', opened: false }) });
    const run = spawnSync(process.execPath, [LAUNCHER, 'explain', 'shop', '--action', 'return_item', '--context', 'late.json', '--request-time', '2026-03-01T09:00:00Z'], { cwd, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        'return_item: RED by past_window (RULE_MATCH, winner_takes_all)',
        '',
        '✓ past_window  RED t2  matched: "Ordered 40 days 2 hours 30 minutes ago"',
        '    when since_order > 30d + grace and not opened  → true, every part held:',
        '      since_order > 30d + grace  → true    (since_order = 40 days 2 hours 30 minutes, grace = 2 hours)',
        '      not opened  → true    (opened = false)',
        '',
        '– opened_item  YELLOW t2  not applicable',
        '    applies_when since_order <= 30d  → false    (since_order = 40 days 2 hours 30 minutes)',
        '',
      ].join('\n'),
    );
  });

  test('an unmatched rule names its first false part; an `or` its first true part', async () => {
    const cwd = tempWorkspace({ 'shop/world.adec': WORLD, 'recent.json': JSON.stringify({ ordered_at: '2026-02-10T09:00:00Z', opened: false, grace: '30m' }) });
    const run = await runCli(['explain', 'shop', '--action', 'return_item', '--context', 'recent.json', '--request-time', '2026-03-01T09:00:00Z'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        '✗ past_window  RED t2  unmatched',
        '    when since_order > 30d + grace and not opened  → false, because of:',
        '      since_order > 30d + grace  → false    (since_order = 19 days, grace = 30 minutes)',
        '',
        '✓ opened_item  YELLOW t2  matched: "Opened items are checked before a refund"',
        '    applies_when since_order <= 30d  → true    (since_order = 19 days)',
        '    when opened or (since_order > 14d and grace < 1h)  → true, because of:',
        '      since_order > 14d and grace < 1h  → true, every part held:',
        '        since_order > 14d  → true    (since_order = 19 days)',
        '        grace < 1h  → true    (grace = 30 minutes)',
      ].join('\n'),
    );
  });

  test('--format json holds each condition, how it was decided, the recorded inputs and the decision', async () => {
    const cwd = tempWorkspace({ 'shop/world.adec': WORLD, 'late.json': JSON.stringify({ ordered_at: '2026-01-20T06:30:00Z', opened: false }) });
    const run = await runCli(['explain', 'shop', '--action', 'return_item', '--context', 'late.json', '--request-time', '2026-03-01T09:00:00Z', '--format', 'json'], cwd);
    expect(run.code).toBe(0);
    const explanation = JSON.parse(run.stdout) as { rules: unknown[] };
    expect(explanation).toMatchObject({ action: 'return_item', status: 'RED', winning_rule: 'past_window', basis: 'RULE_MATCH', decision: { status: 'RED' } });
    expect(explanation.rules[1]).toEqual({
      rule_id: 'opened_item',
      outcome: 'YELLOW',
      severity: 't2',
      result: 'not_applicable',
      reason: null,
      suppressed_by: null,
      error: null,
      applies_when: { condition: 'since_order <= 30d', value: false, decided: 'leaf', inputs: { since_order: 'P40DT2H30M' }, parts: [] },
      when: null,
      agrees: true,
    });
  });

  test('a refused context: no rule was evaluated, and the missing evidence is named', async () => {
    const cwd = tempWorkspace({ 'shop/world.adec': WORLD, 'empty.json': '{}' });
    const run = await runCli(['explain', 'shop', '--action', 'return_item', '--context', 'empty.json'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^return_item: YELLOW \(CONTEXT_INVALID, winner_takes_all\)\nno rule was evaluated\n {2}context: opened: `opened` is required\n {2}context: ordered_at: `ordered_at` is required\n {2}missing evidence: opened, ordered_at\n\n {2}past_window {2}RED t2 {2}not evaluated\n/);
  });

  test('an unknown action, or a world with errors, exits 1', async () => {
    const cwd = tempWorkspace({ 'shop/world.adec': WORLD, 'bad/world.adec': WORLD.replace('not opened', 'not openned'), 'late.json': '{}' });
    const unknown = await runCli(['explain', 'shop', '--action', 'return', '--context', 'late.json'], cwd);
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'adec explain: the world has no action `return` (actions: return_item)\n' });
    const broken = await runCli(['explain', 'bad', '--action', 'return_item', '--context', 'late.json'], cwd);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('error ADEC2001: unknown name `openned`');
  });

  test('re-evaluating from the trace agrees with the sandbox on every rule of every benefits test', async () => {
    const built = await buildWorld(loadWorldFromDir('examples/benefits'));
    if (built.world === undefined || built.artifacts === undefined) throw new Error('examples/benefits does not build');
    const loaded = await loadBuiltModule(built.artifacts);
    if (!loaded.ok) throw new Error(loaded.message);
    try {
      let explained = 0;
      for (const t of built.world.tests) {
        if (t.kind !== 'adjudication') continue;
        const result = await decide(loaded.module, { action: t.action, context: t.context }, { requestTime: Date.parse(typeof t.system['request_time'] === 'string' ? t.system['request_time'] : '2026-01-01T00:00:00Z') });
        if (!result.ok) throw new Error(result.error.message);
        const action = built.world.actions.find((a) => a.name === t.action)!;
        for (const rule of explainDecision(action, result.decision).rules) {
          expect(rule.agrees, `${t.name}: ${rule.rule.id}`).toBe(true);
          explained++;
        }
      }
      expect(explained).toBeGreaterThan(100);
    } finally {
      await loaded.module.evaluator.dispose();
    }
  });
});

test('the launcher reads the context from standard input with `-`', () => {
  const cwd = tempWorkspace({ 'shop/world.adec': WORLD });
  const run = spawnSync(process.execPath, [LAUNCHER, 'explain', 'shop', '--action', 'return_item', '--context', '-', '--format', 'json'], {
    cwd,
    encoding: 'utf8',
    input: JSON.stringify({ ordered_at: '2026-01-01T00:00:00Z', opened: true }),
  });
  expect(run.status).toBe(0);
  expect((JSON.parse(run.stdout) as { rules: { rule_id: string }[] }).rules.map((r) => r.rule_id)).toEqual(['past_window', 'opened_item']);
});
