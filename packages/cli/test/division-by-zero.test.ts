/**
 * A division by 0 at run time (docs/language-guide.md §3), through a real build and real
 * decisions: the world checks, because a computed attribute declares a range without 0
 * (`diners: int(1..25)`), but the request makes it 0. Every rule that divides by it fails (in
 * its `when`, in its reason, with `%`, or by reading a derivation that divided), the decision is
 * never GREEN, nothing reads "Infinity" or "NaN", the trace records no null for a number, and
 * `adec explain` reproduces each failure at its divisor and agrees with the decision.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWorld, type CheckedAction } from '@adec/compiler';
import { decide, type Decision, type LoadedModule } from '@adec/runtime';
import { loadBuiltModule } from '../src/built-module.js';
import { explainDecision } from '../src/explain/explain-decision.js';
import { runCli, tempWorkspace } from './run-cli.js';

const WORLD = `world { org "acme" domain "shop.split" version "1.0.0" }

action split_bill {
  context {
    supplied amount: float(0..)
    supplied guests: int(0..20)
    supplied hosts:  int(0..5)
    computed diners: int(1..25) = guests + hosts
    computed share:  float = amount / diners
  }

  rule huge_bill {
    outcome  RED
    severity t1
    when     amount > 10000
    reason   "A bill of {amount}"
  }

  rule large_per_diner {
    outcome  YELLOW
    severity t2
    when     amount / diners > 100
  }

  rule large_bill {
    outcome  YELLOW
    severity t2
    when     amount > 500
    reason   "{amount / diners} per diner"
  }

  rule uneven_split {
    outcome  YELLOW
    severity t3
    when     amount % diners != 0
  }

  rule large_share {
    outcome  YELLOW
    severity t3
    when     share > 100
  }
}
`;

const DIVIDING_RULES = ['large_per_diner', 'large_bill', 'uneven_split', 'large_share'];

let module: LoadedModule;
let action: CheckedAction;

beforeAll(async () => {
  const built = await buildWorld({ root: 'split', files: [{ path: 'split/world.adec', text: WORLD }] });
  expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (built.world === undefined || built.artifacts === undefined) throw new Error('the world does not build');
  action = built.world.actions[0]!;
  const loaded = await loadBuiltModule(built.artifacts);
  if (!loaded.ok) throw new Error(loaded.message);
  module = loaded.module;
});

afterAll(async () => {
  await module.evaluator.dispose();
});

async function decided(context: Record<string, unknown>): Promise<Decision> {
  const result = await decide(module, { action: 'split_bill', context }, { requestTime: Date.parse('2026-03-01T09:00:00Z') });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

describe('a divisor that is 0 at run time', () => {
  test('fails every rule that divides by it, and the decision is YELLOW by the error floor, never GREEN', async () => {
    const decision = await decided({ amount: 600, guests: 0, hosts: 0 });
    expect(decision.status).toBe('YELLOW');
    expect(decision.decision_metadata.aggregation_outcome).toMatchObject({ status: 'GREEN', basis: 'NO_RULE_MATCH', error_floor_applied: true });
    expect(decision.decision_metadata.matched_rules).toEqual([]);
    const fault = 'RangeError: division by zero: `diners` is 0';
    expect(decision.decision_metadata.errored_predicates).toEqual([
      { rule_id: 'large_per_diner', kind: 'exception', phase: 'when', message: fault },
      { rule_id: 'large_bill', kind: 'exception', phase: 'when', message: fault },
      { rule_id: 'uneven_split', kind: 'exception', phase: 'when', message: fault },
      { rule_id: 'large_share', kind: 'exception', phase: 'when', message: `Error: reads computed attribute \`share\`, whose derivation failed: ${fault}` },
    ]);
    expect(decision.decision_metadata.errored_derivations).toEqual([{ attribute: 'share', kind: 'exception', message: fault }]);
  });

  test('reads no Infinity or NaN anywhere, and the trace records the numbers the rules read, none as null', async () => {
    const decision = await decided({ amount: 600, guests: 0, hosts: 0 });
    const text = JSON.stringify(decision);
    expect(text).not.toMatch(/Infinity|NaN/);
    for (const trace of decision.decision_metadata.predicate_traces) {
      for (const [name, value] of Object.entries(trace.inputs)) expect(value, `${trace.rule_id} read ${name}`).not.toBeNull();
    }
    // The failed derivation is not in the trace: it has no value.
    expect(decision.decision_metadata.predicate_traces.find((t) => t.rule_id === 'large_share')!.inputs).toEqual({});
  });

  test('never lowers a RED that matched', async () => {
    const decision = await decided({ amount: 20000, guests: 0, hosts: 0 });
    expect(decision.status).toBe('RED');
    expect(decision.decision_metadata.errored_predicates.map((e) => e.rule_id)).toEqual(DIVIDING_RULES);
  });

  test('with a divisor that is not 0 the same rules decide as written', async () => {
    const decision = await decided({ amount: 600, guests: 3, hosts: 1 });
    expect(decision.status).toBe('YELLOW');
    expect(decision.decision_metadata.errored_predicates).toEqual([]);
    expect(decision.decision_metadata.matched_rule_outcomes.map((m) => [m.rule_id, m.reason])).toEqual([
      ['large_per_diner', null],
      ['large_bill', '150 per diner'],
      ['large_share', null],
    ]);
  });

  test('explain re-evaluates each failure to its divisor and agrees with the decision', async () => {
    const explanation = explainDecision(action, await decided({ amount: 600, guests: 0, hosts: 0 }));
    const byId = new Map(explanation.rules.map((rule) => [rule.rule.id, rule]));
    for (const rule of explanation.rules) expect(rule.agrees, rule.rule.id).toBe(true);
    const divisorColumn = (rule: string) => byId.get(rule)!.when?.zeroDivisor?.column;
    // `when     amount / diners > 100`: the divisor starts at column 23.
    expect(divisorColumn('large_per_diner')).toBe(23);
    expect(divisorColumn('uneven_split')).toBe(23);
    expect(byId.get('large_bill')!.when).toMatchObject({ value: true });
    expect(byId.get('large_bill')!.reasonFault).toMatchObject({ zeroDivisor: { line: 29, column: 25 } });
    // The derivation's failure is the rule's error; its value is not in the trace to re-evaluate.
    expect(byId.get('large_share')!.when).toMatchObject({ value: undefined });
  });

  test('adec explain shows where each rule failed', async () => {
    const cwd = tempWorkspace({ 'split/world.adec': WORLD, 'nobody.json': JSON.stringify({ amount: 600, guests: 0, hosts: 0 }) });
    const run = await runCli(['explain', 'split', '--action', 'split_bill', '--context', 'nobody.json', '--request-time', '2026-03-01T09:00:00Z'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        'split_bill: YELLOW (NO_RULE_MATCH, winner_takes_all, raised by the error floor from GREEN)',
        '',
        '✗ huge_bill  RED t1  unmatched',
        '    when amount > 10000  → false    (amount = 600)',
        '',
        '! large_per_diner  YELLOW t2  errored',
        '    RangeError: division by zero: `diners` is 0',
        '    when amount / diners > 100  → fails: the divisor `diners` is 0    (amount = 600, diners = 0)',
        '',
        '! large_bill  YELLOW t2  errored',
        '    RangeError: division by zero: `diners` is 0',
        '    when amount > 500  → true    (amount = 600)',
        '    reason {amount / diners}  → fails: the divisor `diners` is 0    (amount = 600, diners = 0)',
        '',
        '! uneven_split  YELLOW t3  errored',
        '    RangeError: division by zero: `diners` is 0',
        '    when amount % diners != 0  → fails: the divisor `diners` is 0    (amount = 600, diners = 0)',
        '',
        '! large_share  YELLOW t3  errored',
        '    Error: reads computed attribute `share`, whose derivation failed: RangeError: division by zero: `diners` is 0',
        '    when share > 100  → unknown    (share = unknown)',
        '',
      ].join('\n'),
    );
    expect(run.stdout).not.toContain('does not give the recorded result');
    const json = await runCli(['explain', 'split', '--action', 'split_bill', '--context', 'nobody.json', '--format', 'json'], cwd);
    const rules = (JSON.parse(json.stdout) as { rules: { rule_id: string; when: { zero_divisor?: string } | null; reason_fault?: { condition: string; zero_divisor: string }; agrees: boolean }[] }).rules;
    expect(rules.map((rule) => [rule.rule_id, rule.when?.zero_divisor ?? rule.reason_fault?.zero_divisor ?? null, rule.agrees])).toEqual([
      ['huge_bill', null, true],
      ['large_per_diner', 'diners', true],
      ['large_bill', 'diners', true],
      ['uneven_split', 'diners', true],
      ['large_share', null, true],
    ]);
    expect(rules[2]!.reason_fault).toMatchObject({ condition: 'amount / diners', value: null, inputs: { amount: 600, diners: 0 } });
  });
});
