/**
 * Modules share sandbox processes (issue 14), so a module that kills its process must not cost
 * its neighbours anything but time. Six modules live in one process; one of them aborts it (a
 * single allocation far past its memory limit) while 50 decisions of the five others are in
 * flight on it. Exactly the culprit's decision is YELLOW or RED with the crash attributed to its
 * rule; the 50 others are re-run on the replacement process and equal the in-process answers.
 * The culprit does it 10 times: it is quarantined after CRASH_LOOP_LIMIT, and its neighbours are
 * answered exactly every time. Then 1,000 decisions of all six modules equal the in-process ones.
 * Decisions of one module sent together travel in one batch (one frame, one isolate crossing);
 * when the batch holds the crashing decision, only that one is pinned and the rest are exact.
 */
import { SandboxProcessPool } from '@adec/runtime';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { CRASH_LOOP_LIMIT } from '../../packages/runtime/src/sandbox/process-evaluator.js';
import { buildFixture } from '../support/runtime.js';
import { ACTION, benefitsLimitedTo, CRASHING, crashingBenefits, CULPRIT_RULE, decided, loaderOn, UNHURRIED_LIMIT_MS } from './hostile-benefits.js';
import { requestFor, type ContextSchema } from './schema-requests.js';

const pool = new SandboxProcessPool({ processes: 1, spares: 1, memoryLimitMb: 32 });
const load = loaderOn(pool);

test('a module that aborts its shared process costs its neighbours nothing but time', async () => {
  const benefits = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  const culpritBundle = await crashingBenefits();
  const neighbours = await Promise.all(Array.from({ length: 5 }, () => load(benefits, 'process')));
  const culprit = await load(culpritBundle, 'process');
  const reference = await load(benefits, 'in-process');
  const schema = (await buildFixture('examples/benefits')).manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
  const ordinary = fc.sample(requestFor(schema), { seed: 14, numRuns: 2_000 }).filter((ctx) => !JSON.stringify(ctx).includes('CRASH'));

  let next = 0;
  for (let round = 1; round <= 10; round++) {
    // 50 neighbour decisions in flight; the culprit's lands among them, at a random place.
    const batch = ordinary.slice(next, next + 50).map((context, i) => ({ context, index: next + i, module: neighbours[i % 5]! }));
    next += 50;
    const culpritAt = (round * 17) % 50;
    const calls = batch.map(({ context, index, module }) => () => decided(module, context, index));
    calls.splice(culpritAt, 0, () => decided(culprit, CRASHING, -round));
    // Started in this order, so the decisions after the culprit's wait behind it in the process.
    const answers = await Promise.all(calls.map((call) => call()));
    const culpritDecision = answers.splice(culpritAt, 1)[0]!;

    expect(['YELLOW', 'RED']).toContain(culpritDecision.status);
    const errors = culpritDecision.decision_metadata.errored_predicates;
    if (round <= CRASH_LOOP_LIMIT) {
      expect(errors.map((e) => [e.rule_id, e.kind])).toEqual([[CULPRIT_RULE, 'crash']]);
    } else {
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.kind === 'crash' && e.message.includes('quarantined'))).toBe(true);
    }
    for (const [i, { context, index }] of batch.entries()) {
      expect(answers[i], JSON.stringify(context)).toEqual(await decided(reference, context, index));
    }
  }

  // 1,000 decisions of all six modules; the quarantined culprit answers a fail-safe YELLOW.
  for (const [i, context] of ordinary.slice(next, next + 1_000).entries()) {
    const module = [...neighbours, culprit][i % 6]!;
    const actual = await decided(module, context, next + i);
    if (module === culprit) {
      expect(actual.status).toBe('YELLOW');
    } else {
      expect(actual, JSON.stringify(context)).toEqual(await decided(reference, context, next + i));
    }
  }
}, 120_000);

test('a batch holding the crashing decision: only that decision is attributed, the rest of its batch is exact', async () => {
  const culpritBundle = await crashingBenefits();
  const culprit = await load(culpritBundle, 'process');
  // The same bundle in this process, asked only what does not crash.
  const reference = await load(culpritBundle, 'in-process');
  const schema = (await buildFixture('examples/benefits')).manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
  const ordinary = fc.sample(requestFor(schema), { seed: 1_407, numRuns: 200 }).filter((ctx) => !JSON.stringify(ctx).includes('CRASH'));
  // 60 decisions of one module at once: the first go out alone, the rest wait and travel batched.
  const before = pool.stats();
  const burst = ordinary.slice(0, 60);
  const exact = await Promise.all(burst.map((context, i) => decided(culprit, context, i)));
  const evaluated = exact.filter((d) => !['CONTEXT_INVALID', 'REQUEST_LIMIT'].includes(d.decision_metadata.aggregation_outcome.basis)).length;
  expect(evaluated).toBeGreaterThan(40);
  expect(pool.stats().decisions - before.decisions).toBe(evaluated);
  expect(pool.stats().frames - before.frames).toBeLessThanOrEqual(4);
  for (const [i, context] of burst.entries()) expect(exact[i]).toEqual(await decided(reference, context, i));

  // The same with a crashing decision among them: the batch dies, each of its decisions runs
  // again alone, and only the crashing one is pinned.
  for (let round = 0; round < 3; round++) {
    const contexts = ordinary.slice(round * 60, round * 60 + 59);
    const crashAt = 7 + round * 20;
    contexts.splice(crashAt, 0, CRASHING);
    const answers = await Promise.all(contexts.map((context, i) => decided(culprit, context, i)));
    for (const [i, context] of contexts.entries()) {
      if (i === crashAt) expect(answers[i]!.decision_metadata.errored_predicates.map((e) => [e.rule_id, e.kind])).toEqual([[CULPRIT_RULE, 'crash']]);
      else expect(answers[i], JSON.stringify(context)).toEqual(await decided(reference, context, i));
    }
  }
}, 120_000);
