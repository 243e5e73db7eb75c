/**
 * A predicate that never ends holds up its own module, not its neighbours (issue 14): one
 * module loops until its 250 ms limit, decision after decision, on the sandbox process it
 * shares with another module that keeps deciding. The running crossing stalls that process; the
 * neighbour's waiting decisions are handed back and it moves to another process, so it goes on
 * deciding while each looping decision runs (had it waited for the loop, its 4 clients would
 * answer at most 4 decisions per loop; it answers dozens), and every one of its answers equals
 * the in-process one. Counted in decisions, not milliseconds: a loaded machine slows both
 * sides alike.
 * The looping decision itself costs a few times its predicate's limit (at most three: evaluate-action.ts),
 * not the sum of its action's limits (9 rules: 2.25 s).
 */
import { SandboxProcessPool, type Decision } from '@adec/runtime';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { buildFixture } from '../support/runtime.js';
import { ACTION, benefitsLimitedTo, CULPRIT_RULE, decided, loaderOn, LOOPING, loopingBenefits, UNHURRIED_LIMIT_MS } from './hostile-benefits.js';
import { requestFor, type ContextSchema } from './schema-requests.js';

const LIMIT_MS = 250;
const pool = new SandboxProcessPool({ processes: 2, spares: 1, memoryLimitMb: 32 });
const load = loaderOn(pool);

test('a module deciding beside a predicate that never ends goes on deciding while each looping decision runs', async () => {
  const benefits = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  // Placed on the process hosting the fewest modules: the looping module and the neighbour share process 0.
  const looping = await load(await loopingBenefits(LIMIT_MS), 'process');
  await load(benefits, 'process');
  const neighbour = await load(benefits, 'process');
  expect(pool.stats().placement).toEqual([2, 1]);
  const reference = await load(benefits, 'in-process');
  const schema = (await buildFixture('examples/benefits')).manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
  const contexts = fc.sample(requestFor(schema), { seed: 1_414, numRuns: 500 });

  // Two looping decisions, one after the other (each holds its process for the crossing's limit
  // and then the looping rule's), while the neighbour decides 4 at a time.
  let looped = false;
  /** The neighbour's answers so far, and how many of them came while each looping decision ran. */
  let neighbourAnswered = 0;
  const answeredDuringLoop: number[] = [];
  const loopMs: number[] = [];
  const loopOnce = async (index: number) => {
    const [started, answeredBefore] = [performance.now(), neighbourAnswered];
    const decision = await decided(looping, LOOPING, index);
    loopMs.push(performance.now() - started);
    answeredDuringLoop.push(neighbourAnswered - answeredBefore);
    return decision;
  };
  const loops = (async () => {
    const answers = [await loopOnce(0), await loopOnce(1)];
    looped = true;
    return answers;
  })();
  const answers: { context: Record<string, unknown>; index: number; decision: Decision }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!looped) {
        const index = next++;
        const context = contexts[index % contexts.length]!;
        const decision = await decided(neighbour, context, index);
        neighbourAnswered++;
        answers.push({ context, index, decision });
      }
    }),
  );

  for (const timedOut of await loops) {
    expect(timedOut.decision_metadata.errored_predicates.map((e) => [e.rule_id, e.kind, e.message])).toEqual([[CULPRIT_RULE, 'timeout', `exceeded its time limit of ${LIMIT_MS} ms`]]);
  }
  // At most three crossings of its limit (750 ms) plus what a loaded CI machine adds: always well
  // under the sum of its action's limits (9 rules × 250 ms = 2.25 s), which is what this rules out.
  for (const ms of loopMs) expect(ms).toBeLessThan(8 * LIMIT_MS);
  // Ten times what 4 clients held up behind the loop could answer.
  for (const count of answeredDuringLoop) expect(count).toBeGreaterThanOrEqual(40);
  // The neighbour left the stalled process; the looping module stayed.
  expect(pool.stats().placement).toEqual([1, 2]);
  for (const { context, index, decision } of answers) expect(decision, JSON.stringify(context)).toEqual(await decided(reference, context, index));
}, 60_000);
