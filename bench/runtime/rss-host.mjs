/**
 * One host holding N loaded modules (host-bench.mjs runs it in a fresh process per N): loads the
 * 50-rule synthetic bundle N times, each its own isolate, in the given isolation, decides once
 * with each, and prints the resident set of the host and of every process it started, in MiB.
 *
 * Usage: node --no-node-snapshot rss-host.mjs <bundle dir> <action> <N> <isolation>
 */
import { readFileSync } from 'node:fs';
import { decide, loadModule } from '../../packages/runtime/dist/index.js';
import { readPublishedBundle } from '../lib/publish-synthetic.mjs';
import { syntheticContexts } from '../lib/synthetic-rules.mjs';

const [dir, action, count, isolation] = process.argv.slice(2);
const bundle = readPublishedBundle(dir);
const [context] = syntheticContexts(1);
const modules = [];
for (let i = 0; i < Number(count); i++) {
  const loaded = await loadModule(bundle, { isolation });
  if (!loaded.ok) throw new Error(loaded.message);
  modules.push(loaded.module);
  const decided = await decide(loaded.module, { action, context });
  if (!decided.ok) throw new Error(decided.error.message);
}
await new Promise((resolve) => setTimeout(resolve, 300));

/** VmRSS of `pid` and its descendants, in KiB. */
function treeRssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const own = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return own + children.reduce((sum, child) => sum + treeRssKiB(Number(child)), 0);
}
console.log(JSON.stringify({ modules: modules.length, rssMiB: treeRssKiB(process.pid) / 1024, hostMiB: process.memoryUsage().rss / 2 ** 20 }));
process.exit(0);
