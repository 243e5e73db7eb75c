/**
 * Builds a synthetic world and publishes it, signed and approved after a rebuild (as
 * `adec approve` approves), into a directory store, the way a host receives a bundle from CI:
 * everything the runtime benchmarks load goes through verification, so nothing is measured on
 * a path a real host would not take.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorld, rebuildBundle } from '../../packages/compiler/dist/index.js';
import { approveModule, formatSignatureFile, signManifest, trustConfig } from '../../packages/runtime/dist/index.js';
import { syntheticActionName, syntheticWorld } from './synthetic-world.mjs';

/**
 * @param {string} store the store's root directory; emptied first
 * @returns {Promise<{ trust: object, publicKeys: { signing: string, approval: string }, key: { org: string, domain: string, version: string, action: string }, dir: string, bundleBytes: number }>}
 *   `dir` is the bundle's directory in the store
 */
export async function publishSynthetic(store, ruleCount, { rulesPerAction = 50 } = {}) {
  const world = syntheticWorld(ruleCount, { rulesPerAction });
  const published = await publishWorld(store, 'synthetic', world.files);
  return { ...published, key: { ...published.key, action: syntheticActionName(0) } };
}

/**
 * Builds a world from its files (`{ relative path: text }`) and publishes it, signed and
 * approved, into `store` (emptied first). `key.action` is the first action, if any.
 */
export async function publishWorld(store, root, files) {
  const result = await buildWorld({ root, files: Object.entries(files).map(([path, text]) => ({ path: `${root}/${path}`, text })) });
  if (result.artifacts === undefined) throw new Error(`the world ${root} does not build: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  const { bundle, manifestJson, manifest, sourcesJson } = result.artifacts;
  const rebuilt = await rebuildBundle({ manifest: manifestJson, bundle, sources: sourcesJson, sourcesName: `${root}/sources.json` });
  if (!rebuilt.ok) throw new Error(`the world ${root} does not rebuild to itself: ${rebuilt.code}: ${rebuilt.message}`);
  const signer = generateKeyPairSync('ed25519');
  const approver = generateKeyPairSync('ed25519');
  rmSync(store, { recursive: true, force: true });
  const dir = join(store, manifest.world.org, manifest.world.domain, manifest.world.version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bundle.js'), bundle);
  writeFileSync(join(dir, 'manifest.json'), manifestJson);
  writeFileSync(join(dir, 'signature.json'), formatSignatureFile(signManifest(Buffer.from(manifestJson), signer.privateKey)));
  writeFileSync(join(dir, 'sources.json'), sourcesJson);
  writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approveModule({ moduleHash: manifest.module_hash, world: manifest.world, rebuiltBy: rebuilt.compiler }, approver.privateKey)));
  const trust = trustConfig({ signingKeys: [signer.publicKey], approvalKeys: [approver.publicKey] });
  const { org, domain, version } = manifest.world;
  // The keys as PEM too, for a process of its own that builds the same trust (bench/select/first-selection-probe.mjs).
  const publicKeys = { signing: signer.publicKey.export({ type: 'spki', format: 'pem' }), approval: approver.publicKey.export({ type: 'spki', format: 'pem' }) };
  return { trust, publicKeys, key: { org, domain, version, action: Object.keys(manifest.actions ?? {})[0] ?? null }, dir, bundleBytes: bundle.length };
}

/**
 * A published bundle's files as `loadModule` takes them, for the few rows that load one bundle
 * many times into one host (resident memory, pool sizes): the `ModuleLoader` verifies a world
 * once and caches it, and verifying does not change what a loaded module holds in memory.
 */
export function readPublishedBundle(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  return { manifest, moduleHash: manifest.module_hash, bundleSource: readFileSync(join(dir, 'bundle.js'), 'utf8') };
}
