/**
 * Cold load of the 1,000-rule synthetic world (issue 3): `loader.get()` on an empty cache, i.e.
 * read + verify hash, signature and approval + start a sandbox + compile the bundle + read its
 * metadata. A real signed bundle, real isolates; both isolation modes, because one starts an
 * isolate in this process and the other a supervised child process.
 */
import { fileURLToPath } from 'node:url';
import { DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';
import { summarize } from '../lib/stats.mjs';

const STORE = fileURLToPath(new URL('../.work/store/', import.meta.url));
export const COLD_LOAD_TARGET_MS = 50;
const ISOLATIONS = ['in-process', 'process'];

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

export async function runColdLoadBench({ quick }) {
  const published = await publishSynthetic(STORE, 1000);
  return { rows: await coldLoad(published, quick), bundleBytes: published.bundleBytes };
}
