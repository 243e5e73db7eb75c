/**
 * The recycle policy (sandbox-process-pool.ts): a shared sandbox process is replaced after a
 * number of decisions, or once it reports a resident set above a limit, by a booted spare on
 * which its modules are loaded first, and drained. With a low threshold, thousands of decisions of three modules cross several
 * recycles, 32 in flight; every one equals the in-process answer (none fails, is moved to a
 * fail-safe YELLOW or runs twice), and no process is counted as having died.
 */
import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { hostConfig } from '../../cli/src/serve/deployment.js';
import { resolveServeSettings } from '../../cli/src/serve/serve-settings.js';
import { RSS_CHECK_DECISIONS, SandboxProcessPool } from '../src/sandbox/sandbox-process-pool.js';
import { comparedInReplay, type LoadedModule } from '@adec/runtime';
import { buildFixture } from '../../../test/support/runtime.js';
import { ACTION, benefitsLimitedTo, decided, loaderOn, UNHURRIED_LIMIT_MS } from '../../../test/security/hostile-benefits.js';
import { requestFor, type ContextSchema } from '../../../test/security/schema-requests.js';

const IN_FLIGHT = 32;
const schema = (await buildFixture('examples/benefits')).manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
const contexts = fc.sample(requestFor(schema), { seed: 27, numRuns: 6_000 });

/** `count` decisions spread over `modules`, IN_FLIGHT at a time, each compared with `reference`'s. */
async function decideAcross(modules: readonly LoadedModule[], reference: LoadedModule, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const i = next++;
        const context = contexts[i % contexts.length]!;
        const actual = await decided(modules[i % modules.length]!, context, i);
        // The same decision as in process, but for where it was made.
        expect(comparedInReplay(actual), JSON.stringify(context)).toEqual(comparedInReplay(await decided(reference, context, i)));
      }
    }),
  );
}

test('recycled every 500 decisions: thousands of decisions across five recycles, each exactly the in-process answer', { timeout: 120_000 }, async () => {
  const pool = new SandboxProcessPool({ processes: 2, spares: 1, memoryLimitMb: 32, recycleAfterDecisions: 500 });
  const load = loaderOn(pool);
  const bundle = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  const modules = [await load(bundle, 'process'), await load(bundle, 'process'), await load(bundle, 'process')];
  const reference = await load(bundle, 'in-process');

  await decideAcross(modules, reference, 6_000);
  // How many recycles 6,000 decisions cross depends on how soon each spare boots (a loaded
  // machine booted fewer in time: 4): decide on until five have happened.
  for (let round = 0; round < 20 && pool.stats().recycles < 5; round++) await decideAcross(modules, reference, 1_000);

  const stats = pool.stats();
  expect(stats.recycles).toBeGreaterThanOrEqual(5);
  expect(stats.restarts).toBe(0);
});

test('a recycle loads every module of the process on its replacement before any decision goes there', { timeout: 120_000 }, async () => {
  const pool = new SandboxProcessPool({ processes: 1, spares: 1, memoryLimitMb: 32, recycleAfterDecisions: 60 });
  const load = loaderOn(pool);
  const bundle = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  const modules = [await load(bundle, 'process'), await load(bundle, 'process'), await load(bundle, 'process')];
  const reference = await load(bundle, 'in-process');

  // One decision at a time: once the recycle has happened, no decision has reached the
  // replacement yet, so what it holds was loaded ahead (without preloading it would hold only
  // the module whose decision found the process due, loaded then).
  for (let i = 0; i < 2_000 && pool.stats().recycles === 0; i++) {
    const context = contexts[i % contexts.length]!;
    expect(comparedInReplay(await decided(modules[i % modules.length]!, context, i))).toEqual(comparedInReplay(await decided(reference, context, i)));
  }
  expect(pool.stats().recycles).toBe(1);
  const [replacement] = await pool.memory();
  expect(replacement?.isolates).toBe(modules.length);

  // And each decides there, exactly as before.
  await decideAcross(modules, reference, 300);
  expect(pool.stats().restarts).toBe(0);
});

test('recycled above a resident set: asked every RSS_CHECK_DECISIONS decisions, replaced once over it', { timeout: 120_000 }, async () => {
  // Every process is above 1 MiB: each is recycled at its first check.
  const pool = new SandboxProcessPool({ processes: 1, spares: 0, memoryLimitMb: 32, recycleAboveRssMb: 1 });
  const load = loaderOn(pool);
  const bundle = await benefitsLimitedTo(UNHURRIED_LIMIT_MS);
  const module = await load(bundle, 'process');
  const reference = await load(bundle, 'in-process');

  await decideAcross([module], reference, RSS_CHECK_DECISIONS + 2_000);
  // The pool keeps no spares: the replacement boots once the process is found over, and takes
  // over with a decision after it is up.
  for (let round = 0; round < 50 && pool.stats().recycles === 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await decideAcross([module], reference, 100);
  }

  expect(pool.stats().recycles).toBeGreaterThanOrEqual(1);
  expect(pool.stats().restarts).toBe(0);
  const [memory] = await pool.memory();
  expect(memory?.isolates).toBe(1);
  expect(memory?.rssBytes).toBeGreaterThan(2 ** 20);
});

describe('adec serve settings for recycling', () => {
  const REQUIRED = { modules: 'm', trust: 't.json', jwks: 'j.json', issuer: 'https://i', audience: 'a' };
  const deployment = { ok: true as const, trust: {} as never, auth: { issuer: 'https://i', audience: 'a', keys: [] } };

  it('is off unless set, and hands a flag, a variable or a config key to the sandbox host', () => {
    const unset = resolveServeSettings({ flags: REQUIRED, env: {}, cwd: '/' });
    if (!unset.ok) throw new Error(unset.problems.join('\n'));
    expect(hostConfig(unset.settings, deployment).sandbox).toEqual({ isolation: 'auto' });
    const set = resolveServeSettings({ flags: { ...REQUIRED, 'recycle-after-decisions': '100000' }, env: { ADEC_RECYCLE_ABOVE_RSS_MB: '512' }, cwd: '/' });
    if (!set.ok) throw new Error(set.problems.join('\n'));
    expect(hostConfig(set.settings, deployment).sandbox).toEqual({ isolation: 'auto', recycleAfterDecisions: 100_000, recycleAboveRssMb: 512 });
  });

  it('refuses a value that is not a positive count', () => {
    const refused = resolveServeSettings({ flags: { ...REQUIRED, 'recycle-after-decisions': 'often', 'recycle-above-rss-mb': '-1' }, env: {}, cwd: '/' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems.join('\n')).toMatch(/--recycle-after-decisions[\s\S]*--recycle-above-rss-mb/);
  });
});
