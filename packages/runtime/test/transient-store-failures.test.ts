/**
 * A module store that fails for a moment does not leave its module unloadable (issue 26,
 * finding 10: one I/O error reading a bundle was remembered for the loader's backoff, and the
 * next load failed again without reading the store). Generated over each transient system
 * error, where the directory store meets it (the bundle directory, manifest.json, bundle.js),
 * a store of its own that throws or rejects with it, and 1 to 3 failures in a row: the load
 * retries within itself, and a load that still failed is not remembered, so the next one reads
 * the store again and loads. A permanent failure (a file that cannot be read for good, a bad
 * signature, no approval, a revoked module) stays refused for its backoff without the store
 * being read again. Real directory stores with real signed bundles; the system errors are
 * injected where the runtime calls the file system. No unhandled rejection is left behind.
 */
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { decide, DirectoryModuleStore, ModuleLoader, RETRY_BACKOFF_MS, STORE_READ_ATTEMPTS, trustConfig, type Isolation, type ModuleStore, type RoutingKey, type TrustConfig } from '@adec/runtime';
import { asTestBundle, buildFixture, publish, testKeys, type TestBundle, type TestKeys } from '../../../test/support/runtime.js';

/** System errors to inject, each at the next `stat` or `open` of a path ending in `match`. */
const injected = vi.hoisted(() => ({ faults: [] as { call: 'stat' | 'open'; match: string; code: string }[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const fault = (call: 'stat' | 'open', path: unknown): NodeJS.ErrnoException | undefined => {
    const at = injected.faults.findIndex((planned) => planned.call === call && String(path).endsWith(planned.match));
    if (at < 0) return undefined;
    const { code } = injected.faults.splice(at, 1)[0]!;
    return Object.assign(new Error(`${code}: injected failure, ${call} '${String(path)}'`), { code, syscall: call, path: String(path) });
  };
  return {
    ...actual,
    open: ((path: Parameters<typeof actual.open>[0], ...rest: unknown[]) => {
      const error = fault('open', path);
      return error === undefined ? (actual.open as (...args: unknown[]) => unknown)(path, ...rest) : Promise.reject(error);
    }) as typeof actual.open,
    stat: ((path: Parameters<typeof actual.stat>[0], ...rest: unknown[]) => {
      const error = fault('stat', path);
      return error === undefined ? (actual.stat as (...args: unknown[]) => unknown)(path, ...rest) : Promise.reject(error);
    }) as typeof actual.stat,
  };
});

const KEY: RoutingKey = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
const RED_REQUEST = { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] };
const TRANSIENT = ['EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR', 'ETIMEDOUT'] as const;
/** Where the directory store meets the error: the bundle directory, or one of its two required files. */
const PLACES = [
  { call: 'stat', match: join(KEY.org, KEY.domain, KEY.version) },
  { call: 'open', match: 'manifest.json' },
  { call: 'open', match: 'bundle.js' },
] as const;
const TIMES = [1, 2, 3] as const;

let benefits: TestBundle;
let keys: TestKeys;
let root: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const loaders: ModuleLoader[] = [];

beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
  keys = testKeys();
  root = mkdtempSync(join(tmpdir(), 'adec-transient-'));
  publish(benefits, root, keys);
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  injected.faults.length = 0;
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
  // Give a leaked rejection the turn it needs to be reported.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** A store that counts its reads. */
function counted(inner: ModuleStore): { store: ModuleStore; reads: () => number } {
  let reads = 0;
  return { store: { read: (key) => ((reads += 1), inner.read(key)) }, reads: () => reads };
}

function loaderFor(store: ModuleStore, isolation: Isolation = 'in-process', trust: TrustConfig = keys.trust): ModuleLoader {
  const loader = new ModuleLoader({ store, trust, sandbox: { isolation } });
  loaders.push(loader);
  return loader;
}

/**
 * A store failing `times` times in a row: fewer than a load's attempts load at the first get;
 * as many fail that get, not remembered, and the next get reads the store again and loads.
 */
async function expectLoadsDespite(times: number, loader: ModuleLoader, reads: () => number, code: string): Promise<void> {
  const first = await loader.get(KEY);
  if (times < STORE_READ_ATTEMPTS) {
    expect(first.ok ? 'loaded' : first.error.code).toBe('loaded');
    expect(reads()).toBe(times + 1);
  } else {
    expect(first.ok ? undefined : first.error).toMatchObject({ code: 'MODULE_UNAVAILABLE', message: expect.stringContaining(code) });
    expect(reads()).toBe(STORE_READ_ATTEMPTS);
    // Not remembered: the very next get reads the store again, and loads.
    const second = await loader.get(KEY);
    expect(second.ok ? 'loaded' : second.error.code).toBe('loaded');
    expect(reads()).toBe(STORE_READ_ATTEMPTS + 1);
  }
  const lookup = await loader.get(KEY);
  if (!lookup.ok) throw new Error(lookup.error.message);
  const decided = await decide(lookup.module, { action: KEY.action, context: RED_REQUEST });
  expect(decided.ok && decided.decision.status).toBe('RED');
}

describe('a transient failure of the directory store', () => {
  const cases = TRANSIENT.flatMap((code) => PLACES.flatMap((place) => TIMES.map((times) => [code, `${place.call} ${place.match}`, times, place] as const)));
  test.each(cases)('%s at %s, %i time(s) in a row', async (code, _where, times, place) => {
    const { store, reads } = counted(new DirectoryModuleStore(root));
    for (let i = 0; i < times; i++) injected.faults.push({ ...place, code });
    await expectLoadsDespite(times, loaderFor(store), reads, code);
  });

  test('its message names the module and the error, not the store on the host', async () => {
    for (let i = 0; i < STORE_READ_ATTEMPTS; i++) injected.faults.push({ call: 'open', match: 'bundle.js', code: 'EIO' });
    const lookup = await loaderFor(new DirectoryModuleStore(root)).get(KEY);
    expect(lookup.ok ? undefined : lookup.error).toEqual({ code: 'MODULE_UNAVAILABLE', message: 'module acme/hr.benefits@1.4.0 could not be read from the store now (EIO)' });
  });

  test.each(['in-process', 'process'] as const)('a store that fails once loads on the second read (%s isolation)', async (isolation) => {
    const { store, reads } = counted(new DirectoryModuleStore(root));
    injected.faults.push({ call: 'open', match: 'manifest.json', code: 'EIO' });
    await expectLoadsDespite(1, loaderFor(store, isolation), reads, 'EIO');
  });
});

describe('a store of its own that throws or rejects', () => {
  const cases = TRANSIENT.flatMap((code) => (['throws', 'rejects'] as const).flatMap((how) => TIMES.map((times) => [code, how, times] as const)));
  test.each(cases)('with %s: %s %i time(s) in a row', async (code, how, times) => {
    const inner = new DirectoryModuleStore(root);
    let failures = 0;
    const failing: ModuleStore = {
      read: (key) => {
        if (failures++ >= times) return inner.read(key);
        const error = Object.assign(new Error(`${code}: the store failed`), { code });
        if (how === 'throws') throw error;
        return Promise.reject(error);
      },
    };
    const { store, reads } = counted(failing);
    await expectLoadsDespite(times, loaderFor(store), reads, code);
  });

  test('a store that never answers is read again by every load, each time a few times, never remembered', async () => {
    const { store, reads } = counted({ read: () => Promise.reject(Object.assign(new Error('EIO: down'), { code: 'EIO' })) });
    const loader = loaderFor(store);
    for (let get = 1; get <= 3; get++) {
      const lookup = await loader.get(KEY);
      expect(lookup.ok ? undefined : lookup.error.code).toBe('MODULE_UNAVAILABLE');
      expect(reads()).toBe(get * STORE_READ_ATTEMPTS);
    }
  });
});

describe('a permanent failure stays refused for its backoff', () => {
  /** Refused once (one read, no retry within the load), refused again at once without a read, read again after the backoff. */
  async function expectRefusedWithBackoff(store: ModuleStore, reads: () => number, code: string, trust?: TrustConfig): Promise<void> {
    const loader = loaderFor(store, 'in-process', trust);
    const first = await loader.get(KEY);
    expect(first.ok ? 'loaded' : first.error.code).toBe(code);
    expect(reads()).toBe(1);
    const again = await loader.get(KEY);
    expect(again.ok ? 'loaded' : again.error.code).toBe(code);
    expect(reads()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, RETRY_BACKOFF_MS + 20));
    await loader.get(KEY);
    expect(reads()).toBe(2);
  }

  test.each([
    ['EACCES', 'MODULE_NOT_FOUND'],
    ['ENOENT', 'MODULE_NOT_FOUND'],
    ['ELOOP', 'BUNDLE_FILE_NOT_REGULAR'],
  ])('a bundle file that cannot be read for good (%s): %s', async (errno, code) => {
    const { store, reads } = counted(new DirectoryModuleStore(root));
    injected.faults.push({ call: 'open', match: 'bundle.js', code: errno });
    await expectRefusedWithBackoff(store, reads, code);
  });

  test('a bad signature', async () => {
    const tampered = mkdtempSync(join(tmpdir(), 'adec-transient-'));
    const dir = publish(benefits, tampered, keys);
    writeFileSync(join(dir, 'signature.json'), JSON.stringify({ key_id: 'x'.repeat(43), signature: Buffer.alloc(64).toString('base64') }));
    const { store, reads } = counted(new DirectoryModuleStore(tampered));
    await expectRefusedWithBackoff(store, reads, 'SIGNER_UNTRUSTED');
  });

  test('no approval', async () => {
    const unapproved = mkdtempSync(join(tmpdir(), 'adec-transient-'));
    publish(benefits, unapproved, keys, { approve: false });
    const { store, reads } = counted(new DirectoryModuleStore(unapproved));
    await expectRefusedWithBackoff(store, reads, 'APPROVAL_MISSING');
  });

  test('a revoked module', async () => {
    const revoking = trustConfig({ signingKeys: [createPublicKey(keys.signer)], approvalKeys: [createPublicKey(keys.approver)], revokedModules: [String(benefits.manifest['module_hash'])] });
    const { store, reads } = counted(new DirectoryModuleStore(root));
    await expectRefusedWithBackoff(store, reads, 'MODULE_REVOKED', revoking);
  });
});
