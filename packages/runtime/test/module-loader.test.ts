/**
 * The loader: a directory module store, verification before anything runs, a cache by routing
 * key with single-flight loading, and unload that releases the sandbox. Real signed bundles,
 * real supervised sandbox processes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { decide, DirectoryModuleStore, ModuleLoader, RETRY_BACKOFF_MS, type ModuleStore, type RoutingKey } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, publish, testKeys, type TestBundle, type TestKeys } from '../../../test/support/runtime.js';
import { childPids } from '../../../test/support/processes.js';

const ADD_DEPENDENT: RoutingKey = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
const CHILD = { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] };

let benefits: TestBundle;
let keys: TestKeys;
const loaders: ModuleLoader[] = [];

beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
  keys = testKeys();
});
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
});

function storeWith(bundle: TestBundle, options: { approve?: boolean } = {}): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'adec-store-'));
  return { root, dir: publish(bundle, root, keys, options) };
}

/** A store that counts reads, to observe cache hits and single flight. */
function countingStore(root: string): { store: ModuleStore; reads: () => number } {
  const inner = new DirectoryModuleStore(root);
  let reads = 0;
  return {
    store: { read: (key) => ((reads += 1), inner.read(key)) },
    reads: () => reads,
  };
}

function loaderFor(store: ModuleStore): ModuleLoader {
  const loader = new ModuleLoader({ store, trust: keys.trust });
  loaders.push(loader);
  return loader;
}

describe('loading a verified bundle', () => {
  test('loads from the directory store and decides in a supervised sandbox process', async () => {
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits).root));
    const lookup = await loader.get(ADD_DEPENDENT);
    if (!lookup.ok) throw new Error(lookup.error.message);
    const result = await decide(lookup.module, { action: 'add_dependent', context: CHILD });
    expect(result.ok && result.decision.status).toBe('GREEN');
    expect(result.ok && result.decision.decision_metadata.module.module_hash).toBe(benefits.manifest['module_hash']);
  });

  test('concurrent misses share one load; every action of the world shares the module', async () => {
    const { store, reads } = countingStore(storeWith(benefits).root);
    const loader = loaderFor(store);
    const lookups = await Promise.all([
      ...Array.from({ length: 8 }, () => loader.get(ADD_DEPENDENT)),
      loader.get({ ...ADD_DEPENDENT, action: 'change_plan' }),
      loader.get({ ...ADD_DEPENDENT, action: 'submit_claim' }),
    ]);
    expect(reads()).toBe(1);
    const modules = new Set(lookups.map((lookup) => (lookup.ok ? lookup.module : undefined)));
    expect(modules.size).toBe(1);
    expect([...modules][0]).toBeDefined();
    await loader.get(ADD_DEPENDENT);
    expect(reads()).toBe(1);
  });

  test('unload releases the sandbox; the next request loads again', async () => {
    const { store, reads } = countingStore(storeWith(benefits).root);
    const loader = loaderFor(store);
    const first = await loader.get(ADD_DEPENDENT);
    if (!first.ok) throw new Error(first.error.message);
    expect(await loader.unload(ADD_DEPENDENT)).toBe(true);
    // A decision against the released module is a fail-safe YELLOW that says so, never a rejection.
    const released = await decide(first.module, { action: 'add_dependent', context: CHILD });
    expect(released.ok && [released.decision.status, released.decision.decision_metadata.aggregation_outcome.basis]).toEqual(['YELLOW', 'DECIDE_FAULT']);
    expect(released.ok && released.decision.decision_metadata.errored_predicates[0]?.message).toMatch(/unloaded/);
    // Nor does any other call start the released sandbox process again.
    await expect(Promise.resolve(first.module.evaluator.call('__adec_metadata', [], 1_000))).rejects.toThrow(/unloaded/);
    const second = await loader.get(ADD_DEPENDENT);
    expect(reads()).toBe(2);
    expect(second.ok && second.module).not.toBe(first.module);
    expect(await loader.unload({ org: 'acme', domain: 'hr.benefits', version: '9.9.9' })).toBe(false);
  });
});

describe('refusals', () => {
  test('an unknown action of a loaded world', async () => {
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits).root));
    const lookup = await loader.get({ ...ADD_DEPENDENT, action: 'add_pet' });
    expect(lookup.ok ? undefined : lookup.error).toEqual({
      code: 'UNKNOWN_ACTION',
      message: 'module acme/hr.benefits@1.4.0 has no action `add_pet` (actions: add_dependent, change_plan, submit_claim)',
    });
  });

  test('a version that is not in the store', async () => {
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits).root));
    const lookup = await loader.get({ ...ADD_DEPENDENT, version: '2.0.0' });
    expect(lookup.ok ? undefined : lookup.error.code).toBe('MODULE_NOT_FOUND');
  });

  test.each([['..'], ['../../etc'], ['.hidden'], ['a/b']])('a routing key that would leave the store: version %j', async (version) => {
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits).root));
    const lookup = await loader.get({ ...ADD_DEPENDENT, version });
    expect(lookup.ok ? undefined : lookup.error.message).toMatch(/must be plain names/);
  });

  test('a bundle without approval is refused (approval is required by default)', async () => {
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits, { approve: false }).root));
    const lookup = await loader.get(ADD_DEPENDENT);
    expect(lookup.ok ? undefined : lookup.error.code).toBe('APPROVAL_MISSING');
  });

  test('nothing from a refused bundle runs: a swapped bundle.js that would hang at load is refused at once', async () => {
    const { root, dir } = storeWith(benefits);
    // A compromised bundle whose top level never returns. It is not what the manifest hashed.
    writeFileSync(join(dir, 'bundle.js'), injectIntoBundle(benefits, 'for (;;) {}').bundle);
    const loader = loaderFor(new DirectoryModuleStore(root));
    // Refused for its hash, not for running out of the load's time limit: it never ran.
    const lookup = await loader.get(ADD_DEPENDENT);
    expect(lookup.ok ? undefined : lookup.error.code).toBe('MODULE_HASH_MISMATCH');
  });

  test('a failed load is not cached: once the store holds a good bundle, it loads', async () => {
    const { root, dir } = storeWith(benefits);
    const good = readFileSync(join(dir, 'bundle.js'));
    writeFileSync(join(dir, 'bundle.js'), `${good.toString()}\n// tampered`);
    const loader = loaderFor(new DirectoryModuleStore(root));
    expect((await loader.get(ADD_DEPENDENT)).ok).toBe(false);
    writeFileSync(join(dir, 'bundle.js'), good);
    // Within the retry backoff the failure is answered without touching the store; after it, the fixed bundle loads.
    expect((await loader.get(ADD_DEPENDENT)).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, RETRY_BACKOFF_MS + 20));
    expect((await loader.get(ADD_DEPENDENT)).ok).toBe(true);
  });

  test('a store that returns another world for the key is refused', async () => {
    const { root } = storeWith(benefits);
    const loader = loaderFor({
      read: (key) => new DirectoryModuleStore(root).read({ ...key, version: '1.4.0' }),
    });
    const lookup = await loader.get({ ...ADD_DEPENDENT, version: '1.5.0' });
    expect(lookup.ok ? undefined : lookup.error).toMatchObject({ code: 'MODULE_INVALID', message: expect.stringMatching(/returned .*1\.4\.0.* for module acme\/hr\.benefits@1\.5\.0/) });
    rmSync(root, { recursive: true });
  });
});

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('spare sandbox processes', () => {
  test('a loader keeps one booted process ahead of need, loads into it, boots the next, and close() stops them all', async () => {
    const before = childPids();
    const loader = loaderFor(new DirectoryModuleStore(storeWith(benefits).root));
    await loader.ready();
    const spare = childPids().filter((pid) => !before.includes(pid));
    expect(spare).toHaveLength(1);

    const lookup = await loader.get(ADD_DEPENDENT);
    if (!lookup.ok) throw new Error(lookup.error.message);
    await loader.ready();
    const running = childPids().filter((pid) => !before.includes(pid));
    // The spare now runs the module, and a new spare stands by.
    expect(running).toHaveLength(2);
    expect(running).toContain(spare[0]);
    const result = await decide(lookup.module, { action: 'add_dependent', context: CHILD });
    expect(result.ok && result.decision.status).toBe('GREEN');

    await loader.close();
    await eventually(() => childPids().filter((pid) => !before.includes(pid)).length === 0);
  });

  test('a sandbox process killed by a fatal V8 error is replaced by the spare, and a new spare boots', async () => {
    // The only way to kill a sandbox process from a predicate: an allocation V8 cannot survive.
    const fatal = injectIntoBundle(benefits, 'm._RULE_FUNCTIONS.dependent_already_covered = () => ({ matched: new Array(2 ** 30).fill(1).length > 0 });');
    const before = childPids();
    const loader = loaderFor(new DirectoryModuleStore(storeWith(fatal).root));
    const lookup = await loader.get(ADD_DEPENDENT);
    if (!lookup.ok) throw new Error(lookup.error.message);
    await loader.ready();
    const first = childPids().filter((pid) => !before.includes(pid));
    expect(first).toHaveLength(2);

    const crashed = await decide(lookup.module, { action: 'add_dependent', context: CHILD });
    expect(crashed.ok && crashed.decision.decision_metadata.errored_predicates.map((e) => [e.rule_id, e.kind])).toEqual([['dependent_already_covered', 'crash']]);
    // Each crash (the decision, then the rule alone on a private process while attributing)
    // killed a process; spares took over, and a new one stands by. The module loads again
    // with its next decision, on a replacement process (which crashes again here).
    await loader.ready();
    const after = childPids().filter((pid) => !before.includes(pid));
    expect(after).toHaveLength(1);
    const again = await decide(lookup.module, { action: 'add_dependent', context: { ...CHILD, already_on_plan: false } });
    expect(again.ok && again.decision.decision_metadata.errored_predicates.map((e) => [e.rule_id, e.kind])).toEqual([['dependent_already_covered', 'crash']]);
    expect(after.some((pid) => !first.includes(pid))).toBe(true);
  }, 60_000);

  test('spareProcesses: 0 starts no process until a module loads', async () => {
    const before = childPids();
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(storeWith(benefits).root), trust: keys.trust, sandbox: { spareProcesses: 0 } });
    loaders.push(loader);
    await loader.ready();
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    const lookup = await loader.get(ADD_DEPENDENT);
    expect(lookup.ok).toBe(true);
    expect(childPids().filter((pid) => !before.includes(pid))).toHaveLength(1);
  });

  test('an idle spare does not keep the host alive', () => {
    const script = `
      import { DirectoryModuleStore, ModuleLoader } from './packages/runtime/dist/index.js';
      const loader = new ModuleLoader({ store: new DirectoryModuleStore('.'), trust: { signingKeys: new Map(), approvalKeys: new Map(), requireApproval: true } });
      await loader.ready();
      console.log('ready');`;
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('../../../', import.meta.url)), encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('ready');
    // Exits on its own once its work is done: killed by the timeout, it would have no status.
    expect(run.status).toBe(0);
    expect(run.signal).toBeNull();
  });
});
