/**
 * Runtime benchmarks (issue 3): warm decide() of a 50-rule action, and cold load of the
 * 1,000-rule synthetic world (read + verify hash, signature and approval + start a sandbox +
 * compile the bundle + read its metadata). Real signed bundles, real isolates; both
 * isolation modes, because their costs differ by an IPC round trip per decision.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { buildWorld } from '../../packages/compiler/dist/index.js';
import { approveModule, decide, DirectoryModuleStore, formatSignatureFile, ModuleLoader, signManifest, trustConfig } from '../../packages/runtime/dist/index.js';
import { summarize } from '../lib/stats.mjs';
import { syntheticWorld } from '../lib/synthetic-world.mjs';

const STORE = fileURLToPath(new URL('../.work/store/', import.meta.url));
export const RUNTIME_TARGETS = { warmP50Us: 20, coldLoadMs: 50 };
const ISOLATIONS = ['in-process', 'process'];

/** Builds the synthetic world and publishes it, signed and approved, into a directory store. */
async function publishSynthetic(ruleCount) {
  const world = syntheticWorld(ruleCount);
  const result = await buildWorld({ root: 'synthetic', files: Object.entries(world.files).map(([path, text]) => ({ path: `synthetic/${path}`, text })) });
  if (result.artifacts === undefined) throw new Error(`the synthetic world does not build: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  const { bundle, manifestJson, manifest } = result.artifacts;
  const signer = generateKeyPairSync('ed25519');
  const approver = generateKeyPairSync('ed25519');
  rmSync(STORE, { recursive: true, force: true });
  const dir = join(STORE, manifest.world.org, manifest.world.domain, manifest.world.version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bundle.js'), bundle);
  writeFileSync(join(dir, 'manifest.json'), manifestJson);
  writeFileSync(join(dir, 'signature.json'), formatSignatureFile(signManifest(Buffer.from(manifestJson), signer.privateKey)));
  writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approveModule(manifest.module_hash, approver.privateKey)));
  const trust = trustConfig({ signingKeys: [signer.publicKey], approvalKeys: [approver.publicKey] });
  return { trust, key: { org: manifest.world.org, domain: manifest.world.domain, version: manifest.world.version, action: 'action_0000' }, bundleBytes: bundle.length };
}

/** Deterministic, varied requests for the synthetic context. */
export function syntheticContexts(count) {
  const tiers = ['bronze', 'silver', 'gold', 'platinum'];
  const regions = ['us', 'eu', 'apac', 'latam'];
  const words = ['urgent', 'refund', 'fraud', 'vip', 'manual', 'review', 'legal', 'bulk'];
  return Array.from({ length: count }, (_, i) => ({
    tier: tiers[i % 4],
    region: regions[(i >> 2) % 4],
    amount: (i * 7919) % 12000,
    age: 18 + ((i * 31) % 70),
    tags: i % 3 === 0 ? [words[i % 8], words[(i + 3) % 8]] : [],
    note: i % 5 === 0 ? `please ${words[(i + 1) % 8]} this` : '',
    ...(i % 2 === 0 && { score: (i * 13) % 100 }),
  }));
}

async function warmDecide(published, quick) {
  const contexts = syntheticContexts(256);
  const bench = new Bench({ time: quick ? 200 : 3000, warmupTime: quick ? 50 : 500 });
  const loaders = [];
  for (const isolation of ISOLATIONS) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(STORE), trust: published.trust, sandbox: { isolation } });
    loaders.push(loader);
    const lookup = await loader.get(published.key);
    if (!lookup.ok) throw new Error(lookup.error.message);
    let i = 0;
    bench.add(`decide, ${isolation}`, async () => {
      const result = await decide(lookup.module, { action: published.key.action, context: contexts[i++ & 255] });
      if (!result.ok) throw new Error(result.error.message);
    });
  }
  await bench.run();
  await Promise.all(loaders.map((loader) => loader.close()));
  return bench.tasks.map((task) => ({
    name: task.name,
    p50Us: task.result.latency.p50 * 1000,
    p99Us: task.result.latency.p99 * 1000,
    meanUs: task.result.latency.mean * 1000,
    samples: task.result.latency.samples?.length ?? task.runs,
    opsPerSec: task.result.throughput.mean,
  }));
}

async function coldLoad(published, quick) {
  const runs = quick ? 2 : 15;
  const rows = [];
  for (const isolation of ISOLATIONS) {
    const samples = [];
    for (let run = 0; run < runs; run++) {
      const loader = new ModuleLoader({ store: new DirectoryModuleStore(STORE), trust: published.trust, sandbox: { isolation } });
      const started = process.hrtime.bigint();
      const lookup = await loader.get(published.key);
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (!lookup.ok) throw new Error(lookup.error.message);
      await loader.close();
    }
    rows.push({ isolation, ms: summarize(samples) });
  }
  return rows;
}

export async function runRuntimeBench({ quick }) {
  const published = await publishSynthetic(1000);
  const warm = await warmDecide(published, quick);
  const cold = await coldLoad(published, quick);
  return { warm, cold, bundleBytes: published.bundleBytes };
}
