/**
 * Selections (the whole ADE cycle, docs/spec/selection.md) on the fitness world: warm, one at a time, through
 * a `ModuleLoader` in each isolation, deterministic_only and skill_enhanced with a model that
 * answers at once (so the difference is what an LLM skill costs adec, without the model's
 * latency: rendering the prompt, the call, parsing, validation with the compiled invariants);
 * then over HTTP, `POST /v1/select` with the trace committed to SQLite before each answer.
 *
 * Standalone: node --no-node-snapshot bench/select/select-bench.mjs [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCycle, SELECTION_EXTENSION } from '../../packages/engine/dist/index.js';
import { DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { benchServer, startServer, tokenIssuer } from '../http/http-bench.mjs';
import { publishWorld } from '../lib/publish-synthetic.mjs';
import { instantModel } from './instant-model.mjs';
import { FITNESS_ROUTING, fitnessFiles, selectionRequests } from './select-requests.mjs';

/** Issue 16's target: deterministic selection p50 under 1 ms in process (docs/spec/selection.md §7 targets 33 ms). */
export const SELECT_TARGETS = { inProcessP50Ms: 1 };
const TIMESTAMP = '2026-11-25T12:00:00.000Z';

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Sequential selections: p50/p99 of each, and selections/s over the whole loop. */
async function timeSelections(module, requests, { mode, executors, warmUp, samples }) {
  const run = (i) => runCycle(module, { ...requests[i % requests.length], execution_mode_override: mode }, { decisionId: `bench-${i}`, timestamp: TIMESTAMP, executors });
  for (let i = 0; i < warmUp; i++) await run(i);
  const durations = [];
  const tiers = { 1: 0, 2: 0, 3: 0 };
  const started = performance.now();
  for (let i = 0; i < samples; i++) {
    const before = performance.now();
    const result = await run(i);
    durations.push(performance.now() - before);
    if (!result.ok || result.response === null) throw new Error(`selection ${i} failed: ${JSON.stringify(result.ok ? result.outcome : result.error)}`);
    tiers[result.response.execution.fallback_tier] += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return { p50Ms: percentile(durations, 0.5), p99Ms: percentile(durations, 0.99), perSecond: samples / seconds, tiers };
}

async function inHostRows(store, published, requests, quick) {
  const rows = [];
  for (const isolation of ['in-process', 'process']) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(store), trust: published.trust, sandbox: { isolation, extensions: [SELECTION_EXTENSION] } });
    try {
      const loaded = await loader.load({ org: published.key.org, domain: published.key.domain, version: published.key.version });
      if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
      for (const mode of ['deterministic_only', 'skill_enhanced']) {
        const row = await timeSelections(loaded.module, requests, { mode, executors: mode === 'skill_enhanced' ? [instantModel()] : [], warmUp: quick ? 100 : 1_000, samples: quick ? 300 : 5_000 });
        console.error(`select: ${isolation}, ${mode}: p50 ${row.p50Ms.toFixed(3)} ms, p99 ${row.p99Ms.toFixed(3)} ms, ${Math.round(row.perSecond)}/s, tiers ${JSON.stringify(row.tiers)}`);
        rows.push({ isolation, mode, ...row });
      }
    } finally {
      await loader.close();
    }
  }
  return rows;
}

/** `POST /v1/select` on the decision service, deterministic and with the instant model. */
async function httpRows(scratch, requests, quick) {
  const issuer = await tokenIssuer();
  const bodies = requests.map((request) => JSON.stringify({ domain: FITNESS_ROUTING.domain, world_model_version: FITNESS_ROUTING.world_model_version, ...request }));
  const server = fileURLToPath(new URL('./adec-select-server.mjs', import.meta.url));
  const rows = [];
  for (const model of [false, true]) {
    const name = model ? 'skill_enhanced, instant model' : 'deterministic_only';
    const spec = {
      name,
      async start() {
        const config = { store: join(scratch, `http-store-${model}`), audit: join(mkdtempSync(join(scratch, 'audit-')), 'audit.db'), auth: issuer.auth, model };
        const { ready, stop } = await startServer(server, [JSON.stringify(config)]);
        return {
          url: ready.url,
          path: '/v1/select',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await issuer.token(ready.org)}` },
          pid: ready.pid,
          extraPids: [],
          decision: (body) => ({ status: body.execution.fallback_tier, winningRule: body.decision.selected_action, matched: [] }),
          audited: true,
          stop,
        };
      },
    };
    const mode = model ? 'skill_enhanced' : 'deterministic_only';
    const measured = await benchServer(spec, bodies.map((body) => body.replace(/^\{/, `{"execution_mode_override":"${mode}",`)), { connections: [1, 16], seconds: quick ? 2 : 10 });
    rows.push({ name, rows: measured.rows });
  }
  return rows;
}

/** @returns {Promise<{ requests: number, inHost: object[], http: Array<{ name: string, rows: object[] }> }>} */
export async function runSelectBench({ quick }) {
  const scratch = mkdtempSync(join(tmpdir(), 'adec-select-bench-'));
  try {
    const store = join(scratch, 'store');
    const published = await publishWorld(store, 'fitness', fitnessFiles());
    const requests = selectionRequests();
    const inHost = await inHostRows(store, published, requests, quick);
    const http = await httpRows(scratch, requests, quick);
    return { requests: requests.length, inHost, http };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runSelectBench({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(result, (key, value) => (key === 'window' ? undefined : value), 2));
}
