/**
 * A running loader follows its store (`ModuleLoader.refresh`): a newly approved bundle replaces
 * the loaded module; an older approval put back, a tampered bundle or an unapproved one is
 * refused and the verified module goes on serving; the loaded module's own approval expiring,
 * or its bundle leaving the store, unloads it. Real signed bundles, real sandbox processes.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { approveModule, decide, DirectoryModuleStore, formatSignatureFile, ModuleLoader, type RoutingKey } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, publish, testKeys, type TestBundle, type TestKeys } from '../../../test/support/runtime.js';

const KEY: RoutingKey = { org: 'acme', domain: 'hr.benefits', action: 'add_dependent', version: '1.4.0' };
const WORLD = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
const CHILD = { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] };
const HOUR = 3_600_000;

let original: TestBundle;
let updated: TestBundle;
let keys: TestKeys;
const loaders: ModuleLoader[] = [];

beforeAll(async () => {
  original = asTestBundle(await buildFixture('examples/benefits'));
  updated = injectIntoBundle(original, 'm.__revision = 2;');
  keys = testKeys();
});
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.close()));
});

/** Publishes `bundle` into `root`, approved as issued at `issuedAt` (until `expiresAt`). */
function publishApproved(bundle: TestBundle, root: string, issuedAt: number, expiresAt = issuedAt + 24 * HOUR): string {
  const dir = publish(bundle, root, keys, { approve: false });
  const approval = approveModule({ moduleHash: String(bundle.manifest['module_hash']), world: WORLD, issuedAt, expiresAt }, keys.approver);
  writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approval));
  return dir;
}

async function servingHash(loader: ModuleLoader): Promise<string> {
  const lookup = await loader.get(KEY);
  if (!lookup.ok) throw new Error(`${lookup.error.code}: ${lookup.error.message}`);
  const decided = await decide(lookup.module, { action: KEY.action, context: CHILD });
  if (!decided.ok) throw new Error(decided.error.message);
  expect(decided.decision.status).toBe('GREEN');
  return decided.decision.decision_metadata.module.module_hash;
}

function loaderOn(root: string): ModuleLoader {
  const loader = new ModuleLoader({ store: new DirectoryModuleStore(root), trust: keys.trust });
  loaders.push(loader);
  return loader;
}

describe('refreshing a loader from its store', () => {
  test('a newer approval replaces the module; an older one put back, or tampered bytes, are refused', async () => {
    const root = mkdtempSync(join(tmpdir(), 'adec-refresh-'));
    const now = Date.now();
    const dir = publishApproved(original, root, now - 2 * HOUR);
    const saved = mkdtempSync(join(tmpdir(), 'adec-refresh-saved-'));
    cpSync(dir, saved, { recursive: true });
    const loader = loaderOn(root);
    expect(await servingHash(loader)).toBe(original.manifest['module_hash']);
    expect(await loader.refresh()).toEqual([{ world: WORLD, result: 'unchanged', moduleHash: original.manifest['module_hash'] }]);

    publishApproved(updated, root, now - HOUR);
    expect(await loader.refresh()).toEqual([{ world: WORLD, result: 'replaced', moduleHash: updated.manifest['module_hash'], replacedHash: original.manifest['module_hash'] }]);
    expect(await servingHash(loader)).toBe(updated.manifest['module_hash']);

    // The old bundle with its old approval, put back: a rollback.
    cpSync(saved, dir, { recursive: true });
    const [rollback] = await loader.refresh();
    expect(rollback).toMatchObject({ result: 'refused', moduleHash: updated.manifest['module_hash'], error: { code: 'APPROVAL_OLDER_THAN_LOADED' } });
    expect(await servingHash(loader)).toBe(updated.manifest['module_hash']);

    // Bytes that do not match their manifest.
    writeFileSync(join(dir, 'bundle.js'), `${original.bundle}\n// tampered\n`);
    expect((await loader.refresh())[0]).toMatchObject({ result: 'refused', error: { code: 'MODULE_HASH_MISMATCH' } });
    expect(await servingHash(loader)).toBe(updated.manifest['module_hash']);
  });

  test("the loaded module's own approval expiring, or its bundle leaving the store, unloads it", async () => {
    const root = mkdtempSync(join(tmpdir(), 'adec-refresh-'));
    const dir = publishApproved(original, root, Date.now() - HOUR, Date.now() + 1_500);
    const loader = loaderOn(root);
    expect(await servingHash(loader)).toBe(original.manifest['module_hash']);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await loader.refresh())[0]).toMatchObject({ result: 'unloaded', error: { code: 'APPROVAL_EXPIRED' } });
    expect(await loader.get(KEY)).toMatchObject({ ok: false, error: { code: 'APPROVAL_EXPIRED' } });

    publishApproved(original, root, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await servingHash(loader)).toBe(original.manifest['module_hash']);
    rmSync(dir, { recursive: true });
    expect((await loader.refresh())[0]).toMatchObject({ result: 'unloaded', error: { code: 'MODULE_NOT_FOUND' } });
  });

  test('lists and loads every world of a directory store, naming each refusal', async () => {
    const root = mkdtempSync(join(tmpdir(), 'adec-refresh-'));
    const dir = publishApproved(original, root, Date.now());
    // A copy filed under another org's directory: its manifest says acme.
    cpSync(dir, join(root, 'globex/hr.benefits/2.0.0'), { recursive: true });
    const store = new DirectoryModuleStore(root);
    const misfiled = { org: 'globex', domain: 'hr.benefits', version: '2.0.0' };
    expect(await store.list()).toEqual([WORLD, misfiled]);
    const loader = loaderOn(root);
    expect(await loader.load(WORLD)).toMatchObject({ ok: true, module: { moduleHash: original.manifest['module_hash'] } });
    expect(await loader.load(misfiled)).toMatchObject({ ok: false, error: { code: 'MODULE_INVALID', message: expect.stringContaining('for module globex/hr.benefits@2.0.0') } });
    expect(await loader.load({ org: 'acme', domain: 'hr.benefits', version: '../../..' })).toMatchObject({ ok: false, error: { code: 'MODULE_NOT_FOUND' } });
    expect(await loader.load({ org: '', domain: 'x', version: '1' })).toMatchObject({ ok: false, error: { code: 'ROUTING_KEY_INVALID' } });
  });
});
