/**
 * A host under more load than its sandbox processes can take, or whose callers stop waiting,
 * stays bounded and answers every decision (issue 14, "Backpressure"): a decision beyond a
 * process's queue limit is refused at once as a fail-safe YELLOW with basis `OVERLOADED`; a
 * caller's AbortSignal makes its decision a YELLOW `CANCELLED` and a passed deadline a YELLOW
 * `DEADLINE_EXCEEDED`, at once, whatever the sandbox is doing; every other decision is exact.
 */
import { decide, loadModule, SandboxProcessPool, type DecideControl, type DecideResult, type Decision, type LoadedModule } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anywhere, buildFixture, type TestBundle } from '../support/runtime.js';
import { ACTION, benefitsLimitedTo, LOOPING, loopingBenefits, UNHURRIED_LIMIT_MS } from './hostile-benefits.js';
import { requestFor, type ContextSchema } from './schema-requests.js';

const QUEUE_LIMIT = 1_000;
const pool = new SandboxProcessPool({ processes: 1, spares: 0, memoryLimitMb: 32, queueLimit: QUEUE_LIMIT });
const loaded: LoadedModule[] = [];
let sandboxed: LoadedModule;
let reference: LoadedModule;
let contexts: Record<string, unknown>[];
/** Contexts the binder accepts: each of their decisions reaches the sandbox. */
let valid: Record<string, unknown>[];

async function load(bundle: TestBundle, isolation: 'process' | 'in-process'): Promise<LoadedModule> {
  const result = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation }, pool);
  if (!result.ok) throw new Error(result.message);
  loaded.push(result.module);
  return result.module;
}

const REQUEST_TIME = Date.parse('2026-03-01T09:00:00Z');

function decideAt(module: LoadedModule, context: Record<string, unknown>, index: number, control?: DecideControl): Promise<DecideResult> {
  return decide(module, { action: ACTION, context }, { requestId: `r-${index}`, requestTime: REQUEST_TIME + index }, control);
}

async function decided(module: LoadedModule, context: Record<string, unknown>, index: number, control?: DecideControl): Promise<Decision> {
  const result = await decideAt(module, context, index, control);
  if (!result.ok) throw new Error(result.error.message);
  return anywhere(result.decision);
}

const basisOf = (decision: Decision): string => decision.decision_metadata.aggregation_outcome.basis;

/** A decision the host did not evaluate: YELLOW on `basis`, every rule `not_run`, nothing matched. */
function expectUnfinished(decision: Decision, basis: string): void {
  expect(decision.status).toBe('YELLOW');
  expect(basisOf(decision)).toBe(basis);
  expect(decision.decision_metadata.matched_rules).toEqual([]);
  expect(decision.decision_metadata.errored_predicates.length).toBeGreaterThan(0);
  expect(decision.decision_metadata.errored_predicates.every((e) => e.kind === 'not_run' && e.phase === null)).toBe(true);
}

beforeAll(async () => {
  const benefits = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  sandboxed = await load(benefits, 'process');
  reference = await load(benefits, 'in-process');
  const schema = (await buildFixture('examples/benefits')).manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
  contexts = fc.sample(requestFor(schema), { seed: 1_405, numRuns: 500 });
  valid = [];
  for (const [i, context] of contexts.entries()) if (!['CONTEXT_INVALID', 'REQUEST_LIMIT'].includes(basisOf(await decided(reference, context, i)))) valid.push(context);
});

afterAll(async () => {
  for (const module of loaded) await module.evaluator.dispose();
  pool.close();
});

describe('overload', () => {
  test('100,000 decisions at once against a queue of 1,000: 1,000 exact, the rest OVERLOADED at once, the queue never past its limit', async () => {
    let deepest = 0;
    let settled = 0;
    const decisions = Array.from({ length: 100_000 }, (_, i) =>
      decided(sandboxed, valid[i % valid.length]!, i).finally(() => {
        settled++;
      }),
    );
    // Sample the queue on every turn of the event loop until everything has settled.
    while (settled < decisions.length) {
      deepest = Math.max(deepest, pool.stats().queued);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answers = await Promise.all(decisions);

    expect(deepest).toBeLessThanOrEqual(QUEUE_LIMIT);
    expect(pool.stats().queued).toBe(0);
    const overloaded = answers.filter((decision) => basisOf(decision) === 'OVERLOADED');
    expect(overloaded).toHaveLength(100_000 - QUEUE_LIMIT);
    for (const decision of overloaded.slice(0, 100)) expectUnfinished(decision, 'OVERLOADED');
    expect(overloaded[0]!.decision_metadata.errored_predicates[0]!.message).toBe(`the sandbox process has ${QUEUE_LIMIT} decisions queued or in flight, its limit`);
    const evaluated = answers.flatMap((decision, i) => (basisOf(decision) === 'OVERLOADED' ? [] : [{ decision, i }]));
    expect(evaluated).toHaveLength(QUEUE_LIMIT);
    for (const { decision, i } of evaluated) expect(decision).toEqual(await decided(reference, valid[i % valid.length]!, i));

    // The host keeps serving: the next decisions are exact.
    for (const [i, context] of contexts.slice(0, 50).entries()) expect(await decided(sandboxed, context, i)).toEqual(await decided(reference, context, i));
  }, 120_000);
});

describe('cancellation', () => {
  test('a signal aborted before decide() is CANCELLED without evaluation, in both isolations', async () => {
    const controller = new AbortController();
    controller.abort();
    for (const module of [sandboxed, reference]) expectUnfinished(await decided(module, contexts[0]!, 0, { signal: controller.signal }), 'CANCELLED');
  });

  test('decisions cancelled at any point settle at once as CANCELLED; every other one is exact (property)', async () => {
    let cancelledInFlight = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 150 }),
        fc.func(fc.boolean()),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 400 }),
        async (count, cancels, turns, offset) => {
          const controllers = Array.from({ length: count }, () => new AbortController());
          const pending = controllers.map((controller, i) => decided(sandboxed, contexts[(offset + i) % contexts.length]!, i, { signal: controller.signal }));
          // Cancel after `turns` turns of the event loop: while queued, in flight, or answered.
          for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
          const cancelled = controllers.map((controller, i) => cancels(i) && (controller.abort(), true));
          const answers = await Promise.all(pending);
          for (const [i, decision] of answers.entries()) {
            const exact = await decided(reference, contexts[(offset + i) % contexts.length]!, i);
            if (cancelled[i] && basisOf(decision) === 'CANCELLED') {
              expectUnfinished(decision, 'CANCELLED');
              cancelledInFlight++;
            } else {
              expect(decision).toEqual(exact);
            }
          }
          expect(pool.stats().queued).toBeLessThanOrEqual(count);
        },
      ),
      { numRuns: 40, seed: 1_406 },
    );
    expect(cancelledInFlight).toBeGreaterThan(0);
    // Replies to cancelled decisions were dropped, not handed to the next ones.
    for (const [i, context] of contexts.slice(0, 50).entries()) expect(await decided(sandboxed, context, i)).toEqual(await decided(reference, context, i));
  }, 120_000);
});

describe('deadlines', () => {
  test('a deadline already passed is DEADLINE_EXCEEDED without evaluation, in both isolations', async () => {
    for (const module of [sandboxed, reference]) expectUnfinished(await decided(module, contexts[0]!, 0, { deadline: Date.now() - 1 }), 'DEADLINE_EXCEEDED');
  });

  test('decisions sharing a deadline each answer exactly when in time, with no listener-leak warning', async () => {
    // Deadlines within 10 ms share one signal (decide/deadline-signals.ts): a hundred decisions wait on it at once.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const deadline = Date.now() + 30_000;
      const batch = valid.slice(0, 100);
      const results = await Promise.all(batch.map((context, i) => decided(sandboxed, context, i, { deadline })));
      for (const [i, actual] of results.entries()) expect(actual).toEqual(await decided(reference, batch[i]!, i));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('a decision whose predicate never ends answers DEADLINE_EXCEEDED at its deadline, and its module keeps deciding', async () => {
    // Predicates with a 250 ms limit (the one crossing of this action's 9 rules: 2.25 s), one of
    // which loops when told to.
    const looping = await load(await loopingBenefits(250), 'process');
    const started = Date.now();
    const late = await decided(looping, LOOPING, 0, { deadline: started + 100 });
    expectUnfinished(late, 'DEADLINE_EXCEEDED');
    expect(late.decision_metadata.errored_predicates[0]!.message).toBe('the decision passed its deadline before it was evaluated');
    // Answered at the deadline, not when the crossing's 2.25 s limit stopped the loop.
    expect(Date.now() - started).toBeLessThan(1_000);

    // Without a deadline the same decision runs to the limit: the looping rule timed out, no other.
    const timedOut = await decided(looping, LOOPING, 1);
    expect(['YELLOW', 'RED']).toContain(timedOut.status);
    expect(timedOut.decision_metadata.errored_predicates.map((e) => [e.rule_id, e.kind])).toEqual([['student_extension', 'timeout']]);
    const ordinary = contexts.filter((context) => !JSON.stringify(context).includes('LOOP')).slice(0, 20);
    for (const [i, context] of ordinary.entries()) {
      const actual = await decided(looping, context, i);
      expect(actual.status).toBe((await decided(reference, context, i)).status);
    }
  }, 60_000);
});
