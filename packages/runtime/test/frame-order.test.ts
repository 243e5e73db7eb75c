/**
 * A module's frames reach its sandbox process in the order they were asked for. Decisions wait
 * to be batched while the pipe is busy, and loads and unloads go straight into it: an unload
 * asked for after a decision was queued (the module evicted, or moved off a stalled process,
 * while one of its decisions waited) once overtook it, and the decision found its module gone
 * (a fail-safe YELLOW of "module … is not loaded in this sandbox process" errors).
 */
import { SandboxProcessPool } from '@adec/runtime';
import { afterAll, expect, test } from 'vitest';
import { asTestBundle, buildFixture, type TestBundle } from '../../../test/support/runtime.js';
import { LOOPING, loopingBenefits } from '../../../test/security/hostile-benefits.js';

const pool = new SandboxProcessPool({ processes: 1, spares: 0, memoryLimitMb: 32 });
afterAll(() => pool.close());

const WATCHDOG_MS = 30_000;

test('an unload asked for after a decision of its module was queued is sent after that decision', async () => {
  const connection = pool.private();
  const load = async (module: string, bundle: TestBundle) => {
    const loaded = await connection.request({ module, load: { memoryLimitMb: 32, filename: `${module}.js` } }, WATCHDOG_MS, bundle.bundle);
    expect(loaded.ok && loaded.value.metadata !== undefined).toBe(true);
  };
  await load('benefits', asTestBundle(await buildFixture('examples/benefits')));
  await load('looping', await loopingBenefits(100));

  // Two decisions that run their looping rule to its limit fill the pipe; the third waits.
  const busy = [0, 1].map(() => connection.decide('looping', 'add_dependent', JSON.stringify(LOOPING), WATCHDOG_MS));
  const waiting = connection.decide('benefits', 'add_dependent', JSON.stringify({ relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] }), WATCHDOG_MS);
  const unloaded = connection.request({ module: 'benefits', unload: true }, WATCHDOG_MS);

  const decided = await waiting;
  expect(decided.ok).toBe(true);
  if (!decided.ok) return;
  // The isolate's answer to it, not an error.
  expect(Object.keys(decided.value)).toEqual(['answer']);
  expect((await unloaded).ok).toBe(true);
  for (const outcome of await Promise.all(busy)) expect(outcome.ok).toBe(true);

  // And the unload did happen: the module's next decision finds it gone.
  const after = await connection.decide('benefits', 'add_dependent', '{}', WATCHDOG_MS);
  expect(after).toEqual({ ok: true, value: { error: 'module benefits is not loaded in this sandbox process' } });
  connection.kill();
});
