/**
 * Where a module runs, and why: in this process only when its approval says it was rebuilt
 * identically from its sources and the host's verifier accepts its code; otherwise in a sandbox
 * process. Real bundles, real signatures, real isolates and sandbox processes, the real
 * verifier on its thread; each decision says where it was made.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  chooseIsolation,
  comparedInReplay,
  decide,
  DirectoryModuleStore,
  loadModule,
  ModuleLoader,
  type Decision,
  type IsolationChoice,
  type LoadedModule,
  type ModuleLookup,
  type RoutingKey,
} from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, publish, testKeys, type TestBundle, type TestKeys } from '../../../../test/support/runtime.js';

const ADD_DEPENDENT: RoutingKey = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
const CHILD = { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] };
const REBUILT_BY = { name: 'adec', version: '0.1.0' };

let benefits: TestBundle;
/** examples/benefits with a statement a compiler never writes: loops, once its rule runs. */
let injected: TestBundle;
let keys: TestKeys;
const disposables: { dispose(): Promise<void> }[] = [];
const loaders: ModuleLoader[] = [];

beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
  injected = injectIntoBundle(benefits, 'm._RULE_FUNCTIONS.child_under_26 = () => { for (;;) {} };');
  keys = testKeys();
});
afterEach(async () => {
  await Promise.all(disposables.splice(0).map((evaluator) => evaluator.dispose()));
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
});

function toLoad(bundle: TestBundle, rebuilt: boolean) {
  return { manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle, ...(rebuilt && { rebuiltBy: REBUILT_BY }) };
}

async function decided(module: LoadedModule): Promise<Decision> {
  const result = await decide(module, { action: 'add_dependent', context: CHILD }, { requestId: 'r-1', requestTime: Date.parse('2026-01-01T00:00:00Z') });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

describe('the choice', () => {
  test.each<[Parameters<typeof chooseIsolation>[0], IsolationChoice]>([
    [{ configured: 'auto', rebuiltBy: REBUILT_BY, verdict: { ok: true } }, { mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' }],
    [{ configured: 'auto', rebuiltBy: REBUILT_BY, verdict: undefined }, { mode: 'process', reason: 'VERIFYING' }],
    [{ configured: 'auto', rebuiltBy: REBUILT_BY, verdict: { ok: false, problem: 'a `ForStatement` is not generated code', line: 3, column: 7 } }, { mode: 'process', reason: 'CODE_REFUSED', detail: 'a `ForStatement` is not generated code (bundle.js line 3, column 7)' }],
    [{ configured: 'auto', rebuiltBy: undefined, verdict: { ok: true } }, { mode: 'process', reason: 'NOT_REBUILT' }],
    [{ configured: 'auto', rebuiltBy: undefined, verdict: undefined }, { mode: 'process', reason: 'NOT_REBUILT' }],
    [{ configured: 'process', rebuiltBy: REBUILT_BY, verdict: { ok: true } }, { mode: 'process', reason: 'CONFIGURED' }],
    [{ configured: 'in-process', rebuiltBy: undefined, verdict: { ok: false, problem: 'x', line: 1, column: 1 } }, { mode: 'in-process', reason: 'CONFIGURED' }],
  ])('%o → %o', (facts, choice) => {
    expect(chooseIsolation(facts)).toEqual(choice);
  });
});

describe('loadModule (a library host, no loader)', () => {
  test.each([
    ['a rebuilt module whose code verifies runs in process', () => toLoad(benefits, true), undefined, { mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' }],
    ['a rebuilt module with code the compiler never writes runs in a sandbox process', () => toLoad(injected, true), undefined, { mode: 'process', reason: 'CODE_REFUSED', detail: expect.stringMatching(/ \(bundle\.js line \d+, column \d+\)$/) }],
    ['a module approved without a rebuild runs in a sandbox process', () => toLoad(benefits, false), undefined, { mode: 'process', reason: 'NOT_REBUILT' }],
    ['a host configured for process isolation runs every module there', () => toLoad(benefits, true), 'process' as const, { mode: 'process', reason: 'CONFIGURED' }],
    ['a host configured for in-process isolation runs every module there', () => toLoad(injected, false), 'in-process' as const, { mode: 'in-process', reason: 'CONFIGURED' }],
  ])('%s, and each decision says so', async (_, bundle, isolation, expected) => {
    const loaded = await loadModule(bundle(), isolation === undefined ? {} : { isolation });
    if (!loaded.ok) throw new Error(loaded.message);
    disposables.push(loaded.module.evaluator);
    expect(loaded.module.isolation).toEqual(expected);
    const decision = await decided(loaded.module);
    expect(decision.decision_metadata.module.isolation).toEqual({ mode: expected.mode, reason: expected.reason });
  });

  test('the same decision in both places, but for where it was made', async () => {
    const [inProcess, inSandbox] = await Promise.all([loadModule(toLoad(benefits, true)), loadModule(toLoad(benefits, false))]);
    if (!inProcess.ok || !inSandbox.ok) throw new Error('not loaded');
    disposables.push(inProcess.module.evaluator, inSandbox.module.evaluator);
    const [a, b] = [await decided(inProcess.module), await decided(inSandbox.module)];
    expect(a.decision_metadata.module.isolation.mode).not.toBe(b.decision_metadata.module.isolation.mode);
    expect(comparedInReplay(a)).toEqual(comparedInReplay(b));
  });
});

describe('a ModuleLoader in auto isolation', () => {
  function loaderOver(bundle: TestBundle, options: { rebuilt?: boolean } = {}): ModuleLoader {
    const root = mkdtempSync(join(tmpdir(), 'adec-isolation-'));
    publish(bundle, root, keys, options);
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(root), trust: keys.trust });
    loaders.push(loader);
    return loader;
  }

  /** The module serving `key` once `settled` holds of it (the verifier runs on its thread meanwhile). */
  async function eventually(loader: ModuleLoader, settled: (module: LoadedModule) => boolean): Promise<LoadedModule> {
    for (let waited = 0; waited < 20_000; waited += 25) {
      const lookup: ModuleLookup = await loader.get(ADD_DEPENDENT);
      if (lookup.ok && settled(lookup.module)) return lookup.module;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the module never settled');
  }

  test('a rebuilt module starts in a sandbox process while its code is verified, then moves in process; decisions meanwhile are answered', async () => {
    const loader = loaderOver(benefits, { rebuilt: true });
    const first = await loader.get(ADD_DEPENDENT);
    if (!first.ok) throw new Error(first.error.message);
    expect(first.module.isolation).toEqual({ mode: 'process', reason: 'VERIFYING' });
    const before = await decided(first.module);
    expect(before.decision_metadata.module.isolation).toEqual({ mode: 'process', reason: 'VERIFYING' });

    const moved = await eventually(loader, (module) => module.isolation.mode === 'in-process');
    expect(moved.isolation).toEqual({ mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' });
    expect(moved.moduleHash).toBe(first.module.moduleHash);
    const after = await decided(moved);
    expect(after.decision_metadata.module.isolation).toEqual({ mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' });
    expect(comparedInReplay(after)).toEqual(comparedInReplay(before));
    // The sandbox one still answers the decisions routed to it before the move.
    expect((await decided(first.module)).status).toBe(before.status);
    expect(loader.stats().isolation).toEqual([{ mode: 'in-process', reason: 'REBUILT_AND_VERIFIED', worlds: 1 }]);

    // Loaded again, it starts in process: the verdict is kept by module hash.
    await loader.unload(ADD_DEPENDENT);
    const again = await loader.get(ADD_DEPENDENT);
    expect(again.ok && again.module.isolation).toEqual({ mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' });
  });

  test('a rebuilt module whose code the verifier refuses stays in its sandbox process, saying why', async () => {
    const loader = loaderOver(injected, { rebuilt: true });
    const refused = await eventually(loader, (module) => module.isolation.reason !== 'VERIFYING');
    expect(refused.isolation).toEqual({ mode: 'process', reason: 'CODE_REFUSED', detail: expect.stringMatching(/ \(bundle\.js line \d+, column \d+\)$/) });
    expect((await decided(refused)).decision_metadata.module.isolation).toEqual({ mode: 'process', reason: 'CODE_REFUSED' });
    expect(loader.stats().isolation).toEqual([{ mode: 'process', reason: 'CODE_REFUSED', worlds: 1 }]);
  });

  test('a module approved without a rebuild runs in a sandbox process from the start, and stays', async () => {
    const loader = loaderOver(benefits);
    const lookup = await loader.get(ADD_DEPENDENT);
    expect(lookup.ok && lookup.module.isolation).toEqual({ mode: 'process', reason: 'NOT_REBUILT' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = await loader.get(ADD_DEPENDENT);
    expect(later.ok && later.module).toBe(lookup.ok && lookup.module);
  });
});
