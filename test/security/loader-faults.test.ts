/**
 * Loader and host faults (issue 12, finding 5). A store that throws, rejects or answers garbage
 * is an error value, never a rejected promise, retried within the load and never remembered, so
 * the next load reads the store again (issue 26, finding 10; packages/runtime/test/transient-store-failures.test.ts
 * tries each system error); any routing key is validated; the isolate's answer is validated against the
 * evaluator's ABI before the host uses it; and `decide()` resolves for any input at all — a
 * fail-safe YELLOW (`DECIDE_FAULT`) once the action is known, an `INVALID_REQUEST` value before.
 * No unhandled rejection is left behind by any of it.
 */
import { decide, DirectoryModuleStore, loadModule, ModuleLoader, STORE_READ_ATTEMPTS, type LoadedModule, type ModuleStore, type RoutingKey } from '@adec/runtime';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { evaluateAction, type SandboxCalls } from '../../packages/runtime/src/sandbox/evaluate-action.js';
import { asTestBundle, buildFixture, publish, testKeys, type TestBundle, type TestKeys } from '../support/runtime.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_125 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 300 : Number(process.env['ADEC_PROPERTY_RUNS']);
const KEY: RoutingKey = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
const RED_REQUEST = { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] };

let benefits: TestBundle;
let keys: TestKeys;
let root: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const loaders: ModuleLoader[] = [];
const modules: LoadedModule[] = [];

beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
  keys = testKeys();
  root = mkdtempSync(join(tmpdir(), 'adec-faults-'));
  publish(benefits, root, keys);
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
  // Give a leaked rejection the turn it needs to be reported.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  for (const module of modules) await module.evaluator.dispose();
});

function loaderFor(store: ModuleStore): ModuleLoader {
  const loader = new ModuleLoader({ store, trust: keys.trust, sandbox: { isolation: 'in-process' } });
  loaders.push(loader);
  return loader;
}

/** A store that fails in `fault`'s way `times` times, then reads the real directory. */
function flakyStore(fault: () => unknown, times = 1): ModuleStore {
  const inner = new DirectoryModuleStore(root);
  let failures = 0;
  return { read: (key) => (failures++ < times ? (fault() as ReturnType<ModuleStore['read']>) : inner.read(key)) };
}

describe('a failing store', () => {
  test.each([
    ['throws', () => { throw new Error('disk on fire'); }, /could not be loaded: disk on fire/],
    ['rejects', () => Promise.reject(new Error('network down')), /could not be loaded: network down/],
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a store that rejects with a non-error is the case under test
    ['rejects with a non-error', () => Promise.reject(42), /could not be loaded: 42/],
    ['answers null', () => Promise.resolve(null), /not a result/],
    ['answers a number', () => Promise.resolve(7), /not a result/],
    ['answers an empty object', () => Promise.resolve({}), /not a result/],
  ])('that %s is an error value, read again by the next load', async (_name, fault, message) => {
    // Failing on every read of one load: the load answers the error value.
    const loader = loaderFor(flakyStore(fault, STORE_READ_ATTEMPTS));
    const first = await loader.get(KEY);
    expect(first.ok ? undefined : first.error).toMatchObject({ code: 'MODULE_UNAVAILABLE', message: expect.stringMatching(message) });
    // Not remembered: the next get reads the store again, and loads.
    const second = await loader.get(KEY);
    expect(second.ok).toBe(true);
    if (second.ok) expect((await decide(second.module, { action: KEY.action, context: RED_REQUEST })).ok).toBe(true);
  });

  test.each([
    ['throws', () => { throw new Error('disk on fire'); }],
    ['answers null', () => Promise.resolve(null)],
  ])('that %s once is read again within the load, which succeeds', async (_name, fault) => {
    expect((await loaderFor(flakyStore(fault)).get(KEY)).ok).toBe(true);
  });
});

describe('routing keys', () => {
  test('any value is answered with an error value, never a throw', async () => {
    const loader = loaderFor(new DirectoryModuleStore(root));
    const segment = fc.oneof(fc.string(), fc.constantFrom('..', '../..', '.hidden', 'a/b', '\u0000', 'x'.repeat(300), ''), fc.anything());
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.record({ org: segment, domain: segment, action: segment, version: segment }), fc.anything()), async (key) => {
        const lookup = await loader.get(key as RoutingKey);
        expect(lookup.ok).toBe(false);
        if (!lookup.ok) expect(['ROUTING_KEY_INVALID', 'MODULE_NOT_FOUND']).toContain(lookup.error.code);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test.each([
    [{ ...KEY, org: 42 }, /org must be a non-empty string/],
    [{ ...KEY, version: '' }, /version must be a non-empty string/],
    [{ ...KEY, domain: 'x'.repeat(201) }, /domain is longer than 200 characters/],
    [{ ...KEY, action: 'a\nb' }, /action holds a control character/],
    [null, /a routing key is an object/],
  ])('%j is refused with a reason', async (key, message) => {
    const lookup = await loaderFor(new DirectoryModuleStore(root)).get(key as unknown as RoutingKey);
    expect(lookup.ok ? undefined : lookup.error).toMatchObject({ code: 'ROUTING_KEY_INVALID', message: expect.stringMatching(message) });
  });
});

describe('decide() never throws', () => {
  let module: LoadedModule;
  beforeAll(async () => {
    const loaded = await loadModule({ manifest: benefits.manifest, moduleHash: String(benefits.manifest['module_hash']), bundleSource: benefits.bundle }, { isolation: 'in-process' });
    if (!loaded.ok) throw new Error(loaded.message);
    module = loaded.module;
    modules.push(module);
  });

  test('for any request and entry values', async () => {
    const request = fc.oneof(fc.anything(), fc.record({ action: fc.oneof(fc.constant('add_dependent'), fc.anything()), context: fc.anything() }));
    await fc.assert(
      fc.asyncProperty(request, fc.anything(), async (req, entry) => {
        const result = await decide(module, req as never, entry as never);
        if (result.ok) expect(['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED']).toContain(result.decision.status);
        else expect(['INVALID_REQUEST', 'UNKNOWN_ACTION', 'REQUEST_TOO_LARGE']).toContain(result.error.code);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  const throwing = new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); }, getOwnPropertyDescriptor: () => { throw new Error('trap'); }, has: () => { throw new Error('trap'); } });
  const cyclic: Record<string, unknown> = { relationship: 'child', dependent_age: 30 };
  cyclic['documents'] = [cyclic];

  test.each([
    ['a context whose getter throws', { action: 'add_dependent', context: Object.defineProperty({ relationship: 'child' }, 'dependent_age', { enumerable: true, get: () => { throw new Error('getter'); } }) }],
    ['a context that is a throwing proxy', { action: 'add_dependent', context: throwing }],
    ['a cyclic context', { action: 'add_dependent', context: cyclic }],
    ['a request whose action getter throws', Object.defineProperty({}, 'action', { get: () => { throw new Error('action getter'); } })],
    ['a request that is a throwing proxy', throwing],
  ])('%s: a value, not a throw', async (_name, req) => {
    const result = await decide(module, req as never);
    if (result.ok) expect(result.decision.status).toBe('YELLOW');
    // A cycle is refused as nested past maxDepth.
    else expect(['INVALID_REQUEST', 'REQUEST_TOO_LARGE']).toContain(result.error.code);
  });

  test('a module unloaded mid-flight decides a fail-safe YELLOW that says so', async () => {
    const loaded = await loadModule({ manifest: benefits.manifest, moduleHash: String(benefits.manifest['module_hash']), bundleSource: benefits.bundle }, { isolation: 'process' });
    if (!loaded.ok) throw new Error(loaded.message);
    await loaded.module.evaluator.dispose();
    const result = await decide(loaded.module, { action: 'add_dependent', context: RED_REQUEST });
    expect(result.ok && result.decision.status).toBe('YELLOW');
    expect(result.ok && result.decision.decision_metadata.aggregation_outcome.basis).toBe('DECIDE_FAULT');
    expect(result.ok && result.decision.decision_metadata.errored_predicates[0]?.message).toMatch(/the decision failed: the module was unloaded/);
  });
});

describe("the isolate's answer is validated before use", () => {
  test('any malformed answer makes every rule an errored predicate, never a throw or a match', async () => {
    const { metadata } = modules[0] ?? (await (async () => {
      const loaded = await loadModule({ manifest: benefits.manifest, moduleHash: String(benefits.manifest['module_hash']), bundleSource: benefits.bundle }, { isolation: 'in-process' });
      if (!loaded.ok) throw new Error(loaded.message);
      modules.push(loaded.module);
      return loaded.module;
    })());
    const spec = metadata.actions.get('add_dependent')!;
    // A batch's answer holds one evaluation per decision: here, of one decision.
    const wire = fc.oneof(
      fc.record({ states: fc.oneof(fc.string(), fc.anything()), details: fc.anything(), computed: fc.anything(), failed: fc.anything(), slow: fc.anything() }),
      fc.record({ states: fc.constant('2'.repeat(spec.rules.length)), details: fc.array(fc.anything()), computed: fc.constant({}), failed: fc.constant({}) }),
    );
    const answer = fc.oneof(fc.string(), fc.json(), wire.map((w) => JSON.stringify(w)), fc.array(wire, { maxLength: 3 }).map((ws) => JSON.stringify(ws)));
    fc.assert(
      fc.property(answer, (value) => {
        const sandbox: SandboxCalls = { call: () => ({ ok: true, value }) };
        const evaluation = evaluateAction(sandbox, spec, '{}');
        expect(evaluation.rules).toHaveLength(spec.rules.length);
        for (const rule of evaluation.rules) {
          if (rule.state === 'matched') expect(rule.reason === null || typeof rule.reason === 'string').toBe(true);
          if (rule.state === 'errored') expect(rule.message).toMatch(/malformed/);
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });
});
