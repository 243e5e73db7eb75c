/**
 * One fresh process's first selection: loads the published fitness world through a
 * `ModuleLoader` as the decision service does (SELECTION_EXTENSION, and prepareSelection unless
 * `prepare` is false), makes one selection and then `warm` more, and prints what each took, as
 * the trace reports it (`total_duration_ms`, `stages.*.duration_ms`). Started by
 * first-selection-bench.mjs, once per sample, so that nothing before the load has warmed anything.
 *
 * Usage: node --no-node-snapshot first-selection-probe.mjs '<json config>'
 *   config: { store, publicKeys: { signing, approval } (PEM), key: { org, domain, version },
 *             isolation, mode, prepare, request, warm }
 */
import { createPublicKey } from 'node:crypto';
import { prepareSelection, runCycle, SELECTION_EXTENSION } from '../../packages/engine/dist/index.js';
import { DirectoryModuleStore, ModuleLoader, trustConfig } from '../../packages/runtime/dist/index.js';
import { instantModel } from './instant-model.mjs';
import { selectionRequests } from './select-requests.mjs';

const TIMESTAMP = '2026-11-25T12:00:00.000Z';

const config = JSON.parse(process.argv[2]);
const trust = trustConfig({ signingKeys: [createPublicKey(config.publicKeys.signing)], approvalKeys: [createPublicKey(config.publicKeys.approval)] });
const sandbox = { isolation: config.isolation, extensions: [SELECTION_EXTENSION], ...(config.prepare && { prepare: prepareSelection }) };
const loader = new ModuleLoader({ store: new DirectoryModuleStore(config.store), trust, sandbox });
await loader.ready();
const loadStarted = performance.now();
const loaded = await loader.load(config.key);
const loadMs = performance.now() - loadStarted;
if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
// In process isolation the load took the booted spare and the pool boots the next one now; the
// decision service listens once that is done (decision-host.ts waits for `ready` after loading).
await loader.ready();

const requests = selectionRequests();
const executors = config.mode === 'skill_enhanced' ? [instantModel()] : [];
/**
 * The trace's own timings of one selection; a selection that failed (on a busy machine, stages
 * 2–4 in a sandbox process can miss their 65 ms limit) is counted, with its code, not timed.
 */
async function select(i) {
  const request = { ...requests[i % requests.length], execution_mode_override: config.mode };
  const result = await runCycle(loaded.module, request, { decisionId: `first-selection-${i}`, timestamp: TIMESTAMP, executors });
  if (!result.ok) return { failure: result.error.code };
  if (result.response === null) throw new Error(`selection ${i} decided nothing: ${result.outcome}`);
  const stages = Object.fromEntries(Object.entries(result.trace.stages).filter(([, artifact]) => artifact !== null).map(([name, artifact]) => [name, artifact.duration_ms]));
  return { totalMs: result.trace.total_duration_ms, stages };
}

const first = await select(config.request);
const warm = [];
for (let i = 1; i <= config.warm; i++) warm.push(await select(config.request + i));
console.log(JSON.stringify({ loadMs, preparation: loaded.module.preparation, first, warm }));
await loader.close();
process.exit(0);
