/**
 * The records a decision holds. `decision_metadata.predicate_traces`: one trace per rule in
 * evaluation order, with its result and the values of exactly the attributes it reads, as its
 * predicate saw them (defaults applied, computed values included); rules that read the same
 * attributes share one frozen record per decision. Parts that are the same for every decision
 * of an action (its work_frame for a status, the module reference) are shared and frozen, so no
 * consumer can change what the next decision returns.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { decide, type Decision, type LoadedModule } from '@adec/runtime';
import { asTestBundle, buildFixture, loadTestBundle } from '../../../test/support/runtime.js';

let module: LoadedModule;
let decision: Decision;
const REQUEST_TIME = Date.parse('2026-03-01T09:00:00Z');

beforeAll(async () => {
  module = await loadTestBundle(asTestBundle(await buildFixture('examples/benefits')));
  const result = await decide(
    module,
    { action: 'add_dependent', context: { relationship: 'domestic_partner', dependent_age: 35, documents: ['partnership_affidavit'], partnership_registered_at: '2026-01-15T00:00:00Z' } },
    { requestId: 'trace-test', requestTime: REQUEST_TIME },
  );
  if (!result.ok) throw new Error(result.error.message);
  decision = result.decision;
});

afterAll(() => module.evaluator.dispose());

const traceOf = (rule: string) => decision.decision_metadata.predicate_traces.find((trace) => trace.rule_id === rule)!;

test('every rule of the action has one trace, in evaluation order', () => {
  const spec = module.metadata.actions.get('add_dependent')!;
  expect(decision.decision_metadata.predicate_traces.map((trace) => trace.rule_id)).toEqual(spec.rules.map((rule) => rule.id));
});

test('a trace records the result and exactly the attributes its rule reads, as the predicate saw them', () => {
  expect(traceOf('partnership_too_recent')).toEqual({
    rule_id: 'partnership_too_recent',
    result: 'matched',
    inputs: { partnership_is_recent: true, relationship: 'domestic_partner' },
  });
  // The default of an omitted attribute is what the predicate read.
  expect(traceOf('terminated_employee_cannot_add')).toEqual({ rule_id: 'terminated_employee_cannot_add', result: 'unmatched', inputs: { employee_status: 'active' } });
  expect(traceOf('child_under_26')).toMatchObject({ result: 'not_applicable', inputs: { is_child: false, over_age: true } });
  expect(decision.status).toBe('YELLOW');
});

const SHARED_READS = `world {
  org     "test"
  domain  "traces"
  version "1.0.0"
}

action pay {
  context {
    supplied amount: int(0..1000000)
    supplied tier:   "basic" | "gold"
  }

  rule large_basic {
    outcome  YELLOW
    severity t2
    when     amount > 1000 and tier == "basic"
    reason   "large payment on a basic tier"
  }

  rule huge_gold {
    outcome  RED
    severity t2
    when     tier == "gold" and amount > 100000
    reason   "huge payment"
  }

  rule any_amount {
    outcome  GREEN
    severity t3
    when     amount >= 0
    reason   "fine"
  }
}
`;

test('rules reading the same attributes share one frozen record of their values', async () => {
  const built = await buildWorld({ root: 'traces', files: [{ path: 'traces/world.adec', text: SHARED_READS }] });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
  const shared = await loadTestBundle(asTestBundle(built.artifacts));
  try {
    const result = await decide(shared, { action: 'pay', context: { amount: 5000, tier: 'basic' } });
    if (!result.ok) throw new Error(result.error.message);
    const [large, huge, any] = result.decision.decision_metadata.predicate_traces;
    expect(large).toEqual({ rule_id: 'large_basic', result: 'matched', inputs: { amount: 5000, tier: 'basic' } });
    expect(huge).toEqual({ rule_id: 'huge_gold', result: 'unmatched', inputs: { amount: 5000, tier: 'basic' } });
    expect(any).toEqual({ rule_id: 'any_amount', result: 'matched', inputs: { amount: 5000 } });
    expect(huge!.inputs).toBe(large!.inputs);
    for (const trace of [large, huge, any]) expect(Object.isFrozen(trace!.inputs)).toBe(true);
  } finally {
    await shared.evaluator.dispose();
  }
});

test('the work_frame and module reference of an action are shared between decisions, frozen, and never altered', async () => {
  const request = { action: 'add_dependent', context: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } };
  const first = await decide(module, request);
  const second = await decide(module, request);
  if (!first.ok || !second.ok) throw new Error('decide failed');
  expect(second.decision.work_frame).toBe(first.decision.work_frame);
  expect(second.decision.decision_metadata.module).toBe(first.decision.decision_metadata.module);
  expect(() => (first.decision.work_frame.allowed_actions as string[]).push('delete_everything')).toThrow(TypeError);
  expect(() => Object.assign(first.decision.decision_metadata.module, { module_hash: 'sha256:forged' })).toThrow(TypeError);
  expect(second.decision.work_frame).toEqual({
    mode: 'proceed',
    next_action: 'execute_action',
    allowed_actions: ['add_dependent'],
    forbidden_actions: [],
    required_output: [],
    missing_evidence: [],
    next_human_owner: null,
  });
});
