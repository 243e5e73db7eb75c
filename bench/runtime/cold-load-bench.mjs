/**
 * Cold load of the 1,000-rule synthetic world (issue 3): `loader.get()` on an empty cache, i.e.
 * read + verify hash, signature and approval + start a sandbox + compile the bundle + read its
 * metadata. A real signed bundle (approved after a rebuild, as `adec approve` does), real
 * isolates; every isolation, because one starts an isolate in this process, one a supervised
 * child process, and the default (`auto`) the latter while its code is verified on a thread and
 * the former for a module whose code it verified before.
 */
import { fileURLToPath } from 'node:url';
import { DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { movedInProcess } from '../lib/moved-in-process.mjs';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';
import { summarize } from '../lib/stats.mjs';

const STORE = fileURLToPath(new URL('../.work/store/', import.meta.url));
export const COLD_LOAD_TARGET_MS = 50;
/**
 * Each row loads the world `runs` times into an empty cache. A host keeps sandbox processes
 * booted ahead of need (ModuleLoader, `spareProcesses`), so the `process` row waits for the
 * spare and then SETTLE_MS before timing a load, as a load on a host that has been up for a
 * moment finds it (the pause lets the process unloaded by the previous run finish exiting);
 * the last row times a load on a loader created that instant, which includes starting the
 * process, as the first load after a host starts would.
 */
const SETTLE_MS = 100;
const SCENARIOS = [
  { name: 'in-process', isolation: 'in-process', hostStarted: true, againstTarget: true },
  // The loader keeps its verdict per module hash: loaded again, the module starts in process.
  { name: 'auto (default), a module verified before: in process', isolation: 'auto', hostStarted: true, verifiedBefore: true, againstTarget: true },
  { name: 'auto (default), first load: in a spare sandbox process while its code is verified', isolation: 'auto', hostStarted: true, freshLoader: true, againstTarget: true },
  { name: 'process, spare sandbox process booted', isolation: 'process', hostStarted: true, againstTarget: true },
  // Starting a Node process is not part of the cold load the target names (verify, isolate,
  // compile): the row shows what the first load after a host starts costs.
  { name: 'process, the instant the host starts', isolation: 'process', hostStarted: false, againstTarget: false },
];

async function timedGet(loader, key) {
  const started = process.hrtime.bigint();
  const lookup = await loader.get(key);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!lookup.ok) throw new Error(lookup.error.message);
  return ms;
}

async function coldLoad(published, quick) {
  const runs = quick ? 2 : 15;
  const rows = [];
  for (const scenario of SCENARIOS) {
    const samples = [];
    const newLoader = () => new ModuleLoader({ store: new DirectoryModuleStore(STORE), trust: published.trust, sandbox: { isolation: scenario.isolation } });
    if (scenario.freshLoader) {
      for (let run = 0; run < runs; run++) {
        const loader = newLoader();
        await loader.ready();
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        samples.push(await timedGet(loader, published.key));
        await loader.close();
      }
    } else if (scenario.hostStarted) {
      const loader = newLoader();
      if (scenario.verifiedBefore) {
        await movedInProcess(loader, published.key, { pollMs: 20 });
        await loader.unload(published.key);
      }
      for (let run = 0; run < runs; run++) {
        await loader.ready();
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        samples.push(await timedGet(loader, published.key));
        await loader.unload(published.key);
      }
      await loader.close();
    } else {
      for (let run = 0; run < runs; run++) {
        const loader = newLoader();
        samples.push(await timedGet(loader, published.key));
        await loader.close();
      }
    }
    rows.push({ name: scenario.name, againstTarget: scenario.againstTarget, ms: summarize(samples) });
  }
  return rows;
}

export async function runColdLoadBench({ quick }) {
  const published = await publishSynthetic(STORE, 1000);
  return { rows: await coldLoad(published, quick), bundleBytes: published.bundleBytes };
}
