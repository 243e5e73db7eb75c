/**
 * A replay re-runs the logic, not the machine (recorded-faults.ts). A predicate or derivation
 * that ran out of time when the decision was recorded (here: the first time it runs in its
 * isolate, as a cold, loaded host might) is taken as recorded, and the replay is identical; a
 * decision the host never evaluated replays as that. What the logic decides is still compared:
 * a recorded answer the logic does not give is a difference, faults or not.
 */
import { decide, replayDecision, type Decision, type LoadedModule } from '@adec/runtime';
import { afterAll, describe, expect, test } from 'vitest';
import { asTestBundle, buildFixture, injectIntoBundle, loadTestBundle } from '../../../test/support/runtime.js';

const ACTION = 'add_dependent';
const ENTRY = { requestId: 'r-1', requestTime: Date.parse('2026-03-01T09:00:00Z'), authenticatedCaller: 'agent-7' };
/** Reads every derivation, and every rule applies but the two for partners. */
const CHILD = { employee_status: 'active', relationship: 'child', dependent_age: 24, full_time_student: true, documents: ['birth_certificate'], already_on_plan: false };
const PARTNER = { employee_status: 'active', relationship: 'domestic_partner', dependent_age: 34, documents: [], already_on_plan: false, partnership_registered_at: '2026-02-01T00:00:00Z' };
const PARTNER_RULES = new Set(['partnership_too_recent', 'relationship_undocumented']);

const modules: LoadedModule[] = [];
afterAll(async () => {
  for (const module of modules) await module.evaluator.dispose();
});

/**
 * The benefits module, `registry.id` looping its first three runs: long enough for the decision
 * to record it out of time whichever way its evaluation goes, a fault of that moment, not of the
 * logic.
 */
async function slowAtFirst(registry: string, id: string): Promise<LoadedModule> {
  const benefits = asTestBundle(await buildFixture('examples/benefits'));
  const bundle = injectIntoBundle(benefits, `
let slowRuns = 3;
const original = m.${registry}.${id};
m.${registry}.${id} = (ctx) => {
  if (slowRuns > 0) { slowRuns -= 1; for (;;) {} }
  return original(ctx);
};`);
  const module = await loadTestBundle(bundle);
  modules.push(module);
  return module;
}

/** Decides afresh until the slow start is over: the logic's own answer. */
async function settled(module: LoadedModule, context: object): Promise<Decision> {
  for (let attempt = 1; ; attempt++) {
    const decision = await decided(module, context);
    if (decision.decision_metadata.errored_predicates.length === 0 || attempt === 4) return decision;
  }
}

async function decided(module: LoadedModule, context: object, deadline?: number): Promise<Decision> {
  const result = await decide(module, { action: ACTION, context }, ENTRY, deadline === undefined ? {} : { deadline });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

/** The recorded decision as the audit store gives it back: through JSON. */
const stored = (decision: Decision): Decision => JSON.parse(JSON.stringify(decision)) as Decision;

const benefits = asTestBundle(await buildFixture('examples/benefits'));
const reference = await loadTestBundle(benefits);
modules.push(reference);
const ruleIds = reference.metadata.actions.get(ACTION)!.rules.map((rule) => rule.id);

describe('a replay takes the machine faults of its recording as recorded', () => {
  test.each(ruleIds)('rule %s out of time when recorded: the replay is identical and names it', async (rule) => {
    const context = PARTNER_RULES.has(rule) ? PARTNER : CHILD;
    const module = await slowAtFirst('_RULE_FUNCTIONS', rule);
    const recorded = await decided(module, context);
    expect(recorded.decision_metadata.errored_predicates).toEqual([{ rule_id: rule, kind: 'timeout', phase: null, message: expect.stringMatching(/time limit/) }]);
    expect(recorded.status).not.toMatch(/^GREEN/);
    // Decided afresh, the request is answered by the logic alone, otherwise.
    const afresh = await settled(module, context);
    expect(afresh.decision_metadata.errored_predicates).toEqual([]);
    expect(stored(afresh)).not.toEqual(stored(recorded));

    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, stored(recorded));
    expect(replayed.ok && stored(replayed.decision)).toEqual(stored(recorded));
    expect(replayed.ok && replayed.takenAsRecorded).toEqual([{ part: 'rule', name: rule, kind: 'timeout' }]);
  });

  test.each(['is_child', 'over_age', 'student_extension_eligible'])('derivation %s out of time when recorded: it and the rules that read it are taken, the rest compared', async (attribute) => {
    const context = CHILD;
    const module = await slowAtFirst(`_COMPUTED.${ACTION}`, attribute);
    const recorded = await decided(module, context);
    expect(recorded.decision_metadata.errored_derivations).toContainEqual({ attribute, kind: 'timeout', message: expect.stringMatching(/time limit/) });
    const readers = recorded.decision_metadata.errored_predicates.map((errored) => errored.rule_id);
    expect(readers.length).toBeGreaterThan(0);
    expect((await settled(module, context)).decision_metadata.errored_derivations).toEqual([]);

    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, stored(recorded));
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(stored(replayed.decision)).toEqual(stored(recorded));
    expect(replayed.takenAsRecorded).toContainEqual({ part: 'derivation', name: attribute, kind: 'timeout' });
    expect(replayed.takenAsRecorded.filter((taken) => taken.part === 'rule').map((taken) => taken.name)).toEqual(readers);
  });

  test('a decision the host never evaluated (past its deadline) replays as that', async () => {
    const context = CHILD;
    const module = await slowAtFirst('_RULE_FUNCTIONS', ruleIds[0]!);
    const recorded = await decided(module, context, Date.now() - 1);
    expect(recorded.decision_metadata.aggregation_outcome.basis).toBe('DEADLINE_EXCEEDED');
    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, stored(recorded));
    expect(replayed.ok && stored(replayed.decision)).toEqual(stored(recorded));
    expect(replayed.ok && replayed.takenAsRecorded).toEqual([{ part: 'decision', name: null, kind: 'DEADLINE_EXCEEDED' }]);
  });

  test('what the logic decides is still compared: a recorded answer it does not give differs, faults taken or not', async () => {
    const context = CHILD;
    const module = await slowAtFirst('_RULE_FUNCTIONS', ruleIds[0]!);
    const recorded = stored(await decided(module, context));
    const forged = { ...recorded, status: recorded.status === 'RED' ? 'YELLOW' : 'RED' } as Decision;
    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, forged);
    expect(replayed.ok && replayed.decision.status).toBe(recorded.status);
  });

  test('a logic error (an exception) is never taken as recorded: the replay derives it again', async () => {
    const context = CHILD;
    const module = await loadTestBundle(injectIntoBundle(benefits, `m._RULE_FUNCTIONS.${ruleIds[1]} = () => { throw new Error("broken rule"); };`));
    modules.push(module);
    const recorded = await decided(module, context);
    expect(recorded.decision_metadata.errored_predicates).toEqual([{ rule_id: ruleIds[1], kind: 'exception', phase: 'when', message: 'Error: broken rule' }]);
    const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, stored(recorded));
    expect(replayed.ok && replayed.takenAsRecorded).toEqual([]);
    expect(replayed.ok && stored(replayed.decision)).toEqual(stored(recorded));
  });

  test('a stored response of any shape is read without a throw', async () => {
    const context = CHILD;
    const module = await slowAtFirst('_RULE_FUNCTIONS', ruleIds[0]!);
    for (const response of [null, 7, 'text', [], {}, { decision_metadata: null }, { decision_metadata: { errored_predicates: [null, 3, { rule_id: 1 }], errored_derivations: 'x', aggregation_outcome: { basis: 7 } } }]) {
      const replayed = await replayDecision(module, { action: ACTION, context }, ENTRY, response as unknown as Decision);
      expect(replayed.ok, JSON.stringify(response)).toBe(true);
    }
  });
});
