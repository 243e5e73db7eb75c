/**
 * The sandbox host (issue 14): what the default `process` isolation costs against in-process,
 * measured in one run on the 50-rule synthetic action.
 *
 * - p50/p99 at one decision in flight, and decisions/s at 1, 16 and 64 in flight (callers each
 *   awaiting their own decision), in both isolations.
 * - The transport floor: a bare echo of the same bytes over the same channel, so the host's own
 *   overhead can be told apart from the channel's. In-process the channel is one isolate crossing
 *   under the same time limit; in `process` isolation it is a frame each way on the pipe to a
 *   forked process (echo-process.mjs) that answers at once, with no isolate behind it.
 * - The resident set of a host holding 1, 10 and 100 loaded modules (rss-host.mjs, a fresh
 *   process each), host and sandbox processes together.
 * - Decisions/s at 64 in flight over 8 modules with 1, 2, … shared sandbox processes, up to the
 *   core count.
 */
import { fork, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import ivm from 'isolated-vm';
import { decide, DirectoryModuleStore, loadModule, ModuleLoader, SandboxProcessPool } from '../../packages/runtime/dist/index.js';
import { FRAME_FD, FrameReader, writeMessage } from '../../packages/runtime/dist/sandbox/frames.js';
import { publishSynthetic, readPublishedBundle } from '../lib/publish-synthetic.mjs';
import { syntheticContexts } from '../lib/synthetic-rules.mjs';

const RULES = 50;
const IN_FLIGHT = [1, 16, 64];
const RSS_MODULES = [1, 10, 100];
/** The limit adec's crossing runs under for this action: its first rule's own (5 ms) and 1 ms to copy the context in. */
const CROSSING_LIMIT_MS = 6;
/** Issue 14's targets. */
export const HOST_TARGETS = { overInProcess: 3, overTransportFloor: 1.5, rssPerModuleMiB: 5 };

/** p50 and p99 in µs of `once`, awaited one at a time, after a warm-up. */
async function latency(once, samples) {
  for (let i = 0; i < Math.min(2_000, samples); i++) await once();
  const times = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await once();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return { p50Us: times[Math.floor(samples / 2)], p99Us: times[Math.floor(samples * 0.99)] };
}

/** Calls of `once` per second with `inFlight` callers each awaiting its own. */
async function throughput(once, inFlight, total) {
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (started < total) {
        started++;
        await once();
      }
    }),
  );
  return total / ((performance.now() - begin) / 1000);
}

async function measure(name, once, quick) {
  const row = { name, ...(await latency(once, quick ? 500 : 5_000)), perSecond: {} };
  for (const inFlight of IN_FLIGHT) row.perSecond[inFlight] = await throughput(once, inFlight, quick ? 2_000 : 20_000);
  return row;
}

/** An isolate whose entry point answers `answer` at once, called as adec's batch entry is. */
function isolateEcho(answer) {
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  const context = isolate.createContextSync();
  context.evalSync(`globalThis.echo = () => ${JSON.stringify(answer)};`);
  const echo = context.global.getSync('echo', { reference: true });
  return { call: (action, ctxJson) => echo.applySync(undefined, [action, ctxJson], { timeout: CROSSING_LIMIT_MS }), close: () => isolate.dispose() };
}

/** A forked process answering every frame with `answer` (echo-process.mjs), requests pipelined. */
async function processEcho(answer) {
  const child = fork(fileURLToPath(new URL('./echo-process.mjs', import.meta.url)), [answer], { stdio: ['ignore', 'ignore', 'inherit', 'ipc', 'pipe'] });
  await new Promise((resolve) => child.once('message', resolve));
  const pipe = child.stdio[FRAME_FD];
  const waiting = [];
  new FrameReader(pipe, () => waiting.shift()());
  let id = 0;
  return {
    call: (action, ctxJson) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        writeMessage(pipe, { id: ++id, module: 'module-1', batch: [action] }, ctxJson);
      }),
    close: () => child.kill(),
  };
}

function rssRows(dir, action, quick) {
  const rows = [];
  for (const isolation of ['process', 'in-process']) {
    for (const modules of quick ? RSS_MODULES.slice(0, 2) : RSS_MODULES) {
      const run = spawnSync(process.execPath, ['--no-node-snapshot', fileURLToPath(new URL('./rss-host.mjs', import.meta.url)), dir, action, String(modules), isolation], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`rss-host ${modules} ${isolation}: ${run.stderr}`);
      rows.push({ isolation, ...JSON.parse(run.stdout) });
    }
  }
  return rows;
}

async function poolRows(bundle, action, contexts, quick) {
  const rows = [];
  for (let processes = 1; processes <= availableParallelism(); processes++) {
    const pool = new SandboxProcessPool({ processes, spares: 0, memoryLimitMb: 32 });
    const modules = [];
    for (let i = 0; i < 8; i++) {
      const loaded = await loadModule(bundle, { isolation: 'process' }, pool);
      if (!loaded.ok) throw new Error(loaded.message);
      modules.push(loaded.module);
    }
    let next = 0;
    const once = () => {
      const i = next++;
      return decide(modules[i % modules.length], { action, context: contexts[i % contexts.length] });
    };
    await throughput(once, 64, 2_000);
    rows.push({ processes, perSecond: await throughput(once, 64, quick ? 2_000 : 40_000) });
    for (const module of modules) await module.evaluator.dispose();
    pool.close();
  }
  return rows;
}

export async function runHostBench({ quick }) {
  const store = fileURLToPath(new URL(`../.work/host-store-${RULES}/`, import.meta.url));
  const published = await publishSynthetic(store, RULES, { rulesPerAction: RULES });
  const { dir, key: { action } } = published;
  const bundle = readPublishedBundle(dir);
  const contexts = syntheticContexts(256);

  const rows = [];
  const loaders = [];
  let answer;
  for (const isolation of ['in-process', 'process']) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(store), trust: published.trust, sandbox: { isolation } });
    loaders.push(loader);
    const lookup = await loader.get(published.key);
    if (!lookup.ok) throw new Error(lookup.error.message);
    const module = lookup.module;
    // The echo answers with what the isolate really answers this action.
    // A generous limit: this first call into a fresh module also compiles it.
    answer ??= (await module.evaluator.call('__adec_evaluate_batch', [action, JSON.stringify(contexts[0])], 1_000)).value;
    let i = 0;
    rows.push(await measure(isolation === 'in-process' ? 'adec decide(), in-process isolate' : 'adec decide(), sandbox process (default)', () => decide(module, { action, context: contexts[i++ % contexts.length] }), quick));
  }
  for (const loader of loaders) await loader.close();

  const echoes = [];
  for (const [name, echo] of [['transport floor, in-process: one crossing, echo', isolateEcho(answer)], ['transport floor, process: a frame each way, echo', await processEcho(answer)]]) {
    const requests = contexts.map((context) => JSON.stringify(context));
    let i = 0;
    echoes.push(await measure(name, async () => echo.call(action, requests[i++ % requests.length]), quick));
    echo.close();
  }

  return { rows, echoes, answerBytes: answer.length, rss: rssRows(dir, action, quick), pool: await poolRows(bundle, action, contexts, quick) };
}
