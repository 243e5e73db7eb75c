/**
 * The attribution pass (each derivation and rule in a crossing of its own) times a step by the
 * CPU it had, as the batch path does: isolated-vm's limits are wall time, and on a loaded host a
 * crossing can be descheduled past its limit having done almost nothing. Such a crossing runs
 * again; a step is out of time only once it has had twice its limit's worth of CPU. (A CI run
 * under load once turned every rule of a benefits decision into a timeout this way.)
 */
import { afterAll, describe, expect, test } from 'vitest';
import { parseModuleMetadata, type ActionSpec } from '../src/module/module-metadata.js';
import { evaluateAction, evaluateStepwise, type SandboxCalls } from '../src/sandbox/evaluate-action.js';
import { IsolateSandbox } from '../src/sandbox/isolate-sandbox.js';
import { asTestBundle, buildFixture, injectIntoBundle, type TestBundle } from '../../../test/support/runtime.js';

const ACTION = 'add_dependent';
const LOOPING_RULE = 'student_extension';
const CONTEXTS = [
  { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] },
  { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] },
  { relationship: 'stepchild', dependent_age: 0, disabled_dependent: true, documents: [] },
  { relationship: 'spouse', documents: ['marriage_certificate'], partnership_registered_at: '2019-09-03T04:45:56.787Z' },
];

const sandboxes: IsolateSandbox[] = [];
afterAll(() => sandboxes.forEach((sandbox) => sandbox.dispose()));

function sandboxOf(bundle: TestBundle): { sandbox: IsolateSandbox; spec: ActionSpec } {
  const created = IsolateSandbox.create(bundle.bundle, { memoryLimitMb: 32, filename: 'bundle.js' });
  if (!created.ok) throw new Error(created.message);
  sandboxes.push(created.sandbox);
  const metadata = parseModuleMetadata(created.metadataJson);
  if (!metadata.ok) throw new Error(metadata.message);
  return { sandbox: created.sandbox, spec: metadata.metadata.actions.get(ACTION)! };
}

/**
 * `sandbox` on a host whose scheduler takes the processor away: the first `starved` crossings of
 * each attribution step stop at their wall-time limit having had 0.2 ms of CPU.
 */
function starving(sandbox: SandboxCalls, starved: number): SandboxCalls & { readonly crossings: Map<string, number> } {
  const crossings = new Map<string, number>();
  return {
    crossings,
    call(entry, args, timeLimitMs, copyAllowanceMs) {
      const step = `${entry} ${args.at(-1)}`;
      const count = (crossings.get(step) ?? 0) + 1;
      crossings.set(step, count);
      if ((entry === '__adec_derive' || entry === '__adec_rules') && count <= starved) {
        return { ok: false, kind: 'timeout', message: `exceeded its time limit of ${timeLimitMs} ms`, cpuMs: 0.2 };
      }
      return sandbox.call(entry, args, timeLimitMs, copyAllowanceMs);
    },
  };
}

describe('the attribution pass on a starved host', () => {
  test('a step whose crossings were descheduled runs again and every result is exact', async () => {
    const { sandbox, spec } = sandboxOf(asTestBundle(await buildFixture('examples/benefits')));
    for (const context of CONTEXTS) {
      const ctxJson = JSON.stringify(context);
      const starved = starving(sandbox, 3);
      const evaluation = evaluateStepwise(starved, spec, ctxJson);
      expect(evaluation, ctxJson).toEqual(evaluateAction(sandbox, spec, ctxJson));
      expect(evaluation.rules.some((rule) => rule.state === 'errored')).toBe(false);
      // Each step: three starved crossings, then the one that finished.
      expect(new Set(starved.crossings.values())).toEqual(new Set([4]));
    }
  });

  test('a step starved at every crossing is given up on after five, as a timeout of its own limit', async () => {
    const { sandbox, spec } = sandboxOf(asTestBundle(await buildFixture('examples/benefits')));
    const starved = starving(sandbox, Infinity);
    const evaluation = evaluateStepwise(starved, spec, JSON.stringify(CONTEXTS[0]));
    expect(evaluation.rules).toHaveLength(spec.rules.length);
    for (const rule of evaluation.rules) expect(rule).toEqual({ state: 'errored', kind: 'timeout', phase: null, message: expect.stringMatching(/^exceeded its time limit of \d+ ms$/) });
    expect(new Set(starved.crossings.values())).toEqual(new Set([5]));
  });

  test('a predicate that never ends is a timeout after twice its limit of CPU, and the other rules are exact', async () => {
    const benefits = asTestBundle(await buildFixture('examples/benefits'));
    const looping = sandboxOf(injectIntoBundle(benefits, `m._RULE_FUNCTIONS.${LOOPING_RULE} = () => { for (;;) {} };`));
    const reference = sandboxOf(benefits);
    const ctxJson = JSON.stringify(CONTEXTS[1]);
    const counted = starving(looping.sandbox, 0);
    const evaluation = evaluateStepwise(counted, looping.spec, ctxJson);
    const expected = evaluateAction(reference.sandbox, reference.spec, ctxJson);
    looping.spec.rules.forEach((rule, i) => {
      if (rule.id === LOOPING_RULE) expect(evaluation.rules[i]).toEqual({ state: 'errored', kind: 'timeout', phase: null, message: `exceeded its time limit of ${rule.timeoutMs} ms` });
      else expect(evaluation.rules[i], rule.id).toEqual(expected.rules[i]);
    });
    // Two crossings at most: one alone can have had both limits' worth of CPU on a loaded machine.
    expect(counted.crossings.get(`__adec_rules ${JSON.stringify([LOOPING_RULE])}`)).toBeLessThanOrEqual(2);
  });
});
