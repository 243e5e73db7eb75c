/**
 * Soak over HTTP (issue 27's acceptance): 1,000,000 decisions through the decision service with
 * its SQLite audit on disk, once as `adec serve` runs by default and once with the recycle
 * policy set low, reporting the resident set of the host and of its sandbox processes at every
 * tenth of the run. Not part of `npm run bench` (about ten minutes); its numbers are in
 * RESULTS.md ("Soak over HTTP").
 *
 * The service is adec-server.mjs (the 50-rule synthetic world, signed and approved, JWT,
 * `process` isolation with the default processes and spare) in a process of its own; autocannon
 * sends the 256 decide bodies of the HTTP bench at 64 connections, a tenth of the run at a time.
 * After each tenth: the host's RSS (from /proc), each sandbox process's RSS and isolate heap and
 * the recycles and restarts (from `GET /metrics`, as an operator would read them), the latency
 * of that tenth, and every body once more, whose answers must equal the first ones (status,
 * winning rule, matched rules). Any answer but a 200, a socket error or a timeout is a failure
 * and is counted. Once the service has stopped, the audit store must hold one record per
 * answered decision, every chain verifying.
 *
 * Usage: node --no-node-snapshot bench/http/http-soak.mjs [--decisions 1000000] [--recycle-after 100000]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openAuditStore, verifyChains } from '../../packages/audit/dist/index.js';
import { decideBodies, SYNTHETIC_ROUTING } from './decide-requests.mjs';
import { answers, metricValue, startServer, tokenIssuer } from './http-bench.mjs';

const { values } = parseArgs({ options: { decisions: { type: 'string', default: '1000000' }, 'recycle-after': { type: 'string', default: '100000' } } });
const DECISIONS = Number(values.decisions);
const RECYCLE_AFTER = Number(values['recycle-after']);
const CHECKPOINTS = 10;
const CONNECTIONS = 64;

const mib = (bytes) => bytes / 2 ** 20;
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The soak's figures from `GET /metrics`: per sandbox slot, and the pool's totals. */
async function scrape(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const bySlot = (name) => [...text.matchAll(new RegExp(`^${name}\\{slot="(\\d+)"\\} (\\S+)$`, 'gm'))].map((match) => Number(match[2]));
  const single = (name) => metricValue(text, name);
  return {
    sandboxMiB: bySlot('adec_sandbox_resident_memory_bytes').map(mib),
    isolateHeapMiB: bySlot('adec_sandbox_isolate_heap_bytes').map(mib),
    recycles: single('adec_sandbox_recycles_total'),
    restarts: single('adec_sandbox_restarts_total'),
  };
}

/** `amount` decisions at CONNECTIONS; the latency of each and what failed. */
async function tenth(server, bodies, amount) {
  const latencies = [];
  const instance = autocannon({
    url: `${server.url}/v1/decide`,
    connections: CONNECTIONS,
    amount,
    requests: bodies.map((body) => ({ method: 'POST', path: '/v1/decide', headers: server.headers, body })),
  });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    if (status === 200) latencies.push(responseTime);
  });
  const started = performance.now();
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { answered: latencies.length, failed: result.non2xx + result.errors + result.timeouts, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), maxMs: latencies.at(-1), perSecond: latencies.length / seconds };
}

/** One soak: a fresh service, DECISIONS decisions, the curve, then the audit store checked. */
async function soak(scratch, issuer, bodies, name, sandbox) {
  const slug = name.replace(/\W+/g, '-');
  const audit = join(scratch, `${slug}.db`);
  const config = { store: join(scratch, `store-${slug}`), audit, auth: issuer.auth, sandbox };
  const { ready, stop } = await startServer('adec-server.mjs', [JSON.stringify(config)]);
  if (JSON.stringify(ready.routing) !== JSON.stringify(SYNTHETIC_ROUTING)) throw new Error(`adec-server serves ${JSON.stringify(ready.routing)}`);
  const server = { url: ready.url, path: '/v1/decide', headers: { 'content-type': 'application/json', authorization: `Bearer ${await issuer.token(ready.org)}` }, decision: (body) => ({ status: body.status, winningRule: body.decision_metadata.aggregation_outcome.winning_rule, matched: body.decision_metadata.matched_rules }) };
  const curve = [];
  let answeredTotal = 0;
  let failedTotal = 0;
  let differing = 0;
  try {
    const reference = await answers(server, bodies);
    answeredTotal += bodies.length;
    curve.push({ decisions: 0, hostMiB: rssMiB(ready.pid), ...(await scrape(server.url)) });
    const started = performance.now();
    for (let checkpoint = 1; checkpoint <= CHECKPOINTS; checkpoint++) {
      const run = await tenth(server, bodies, DECISIONS / CHECKPOINTS);
      const again = await answers(server, bodies);
      differing += again.filter((answer, index) => answer !== reference[index]).length;
      answeredTotal += run.answered + bodies.length;
      failedTotal += run.failed;
      const point = { decisions: (checkpoint * DECISIONS) / CHECKPOINTS, seconds: (performance.now() - started) / 1000, hostMiB: rssMiB(ready.pid), ...(await scrape(server.url)), ...run };
      curve.push(point);
      console.error(`soak ${name}: ${point.decisions.toLocaleString('en')} decisions, ${Math.round(point.seconds)} s, host ${point.hostMiB.toFixed(0)} MiB, sandbox ${point.sandboxMiB.map((v) => v.toFixed(0)).join(' / ')} MiB, recycles ${point.recycles}, p99 ${point.p99Ms.toFixed(1)} ms, failed ${failedTotal}`);
    }
  } finally {
    await stop();
  }
  const opened = await openAuditStore(audit);
  if (!opened.ok) throw new Error(opened.message);
  const verified = await verifyChains(opened.store);
  await opened.store.close();
  if (!verified.ok) throw new Error(verified.message);
  const records = verified.chains.reduce((sum, chain) => sum + chain.records, 0);
  const broken = verified.chains.filter((chain) => chain.problem !== null).length;
  return { name, sandbox, curve, answered: answeredTotal, failed: failedTotal, differing, records, broken };
}

const fixed = (value, digits = 0) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const slots = (list) => (list.length === 0 ? '–' : list.map((value) => fixed(value)).join(' / '));

/** Markdown: both curves side by side, then what each run came to. */
function report(runs) {
  const [plain, recycled] = runs;
  const lines = [
    '| decisions | host RSS | sandbox RSS (per process) | isolate heap | host RSS, recycled | sandbox RSS, recycled | recycles | p99, plain / recycled |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [index, point] of plain.curve.entries()) {
    const other = recycled.curve[index];
    const p99 = point.p99Ms === undefined ? '–' : `${fixed(point.p99Ms, 1)} / ${fixed(other.p99Ms, 1)} ms`;
    lines.push(`| ${point.decisions.toLocaleString('en')} | ${fixed(point.hostMiB)} MiB | ${slots(point.sandboxMiB)} MiB | ${point.isolateHeapMiB.map((v) => fixed(v, 1)).join(' / ')} MiB | ${fixed(other.hostMiB)} MiB | ${slots(other.sandboxMiB)} MiB | ${other.recycles} | ${p99} |`);
  }
  lines.push('', '| run | decisions answered | failed | answers differing | audit records | broken chains | recycles | restarts | decisions/s | p99 of all tenths (max) |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const run of runs) {
    const tenths = run.curve.slice(1);
    const last = run.curve.at(-1);
    const perSecond = tenths.reduce((sum, point) => sum + point.perSecond, 0) / tenths.length;
    lines.push(`| ${run.name} | ${run.answered.toLocaleString('en')} | ${run.failed} | ${run.differing} | ${run.records.toLocaleString('en')} | ${run.broken} | ${last.recycles} | ${last.restarts} | ${Math.round(perSecond).toLocaleString('en')} | ${fixed(Math.max(...tenths.map((point) => point.p99Ms)), 1)} ms (${fixed(Math.max(...tenths.map((point) => point.maxMs)))} ms) |`);
  }
  return lines.join('\n');
}

const scratch = mkdtempSync(join(tmpdir(), 'adec-http-soak-'));
try {
  const issuer = await tokenIssuer();
  const bodies = decideBodies();
  const runs = [await soak(scratch, issuer, bodies, 'default', {}), await soak(scratch, issuer, bodies, `recycled every ${RECYCLE_AFTER.toLocaleString('en')}`, { recycleAfterDecisions: RECYCLE_AFTER })];
  console.log(report(runs));
  console.log(`\n${JSON.stringify(runs)}`);
  if (runs.some((run) => run.failed > 0 || run.differing > 0 || run.broken !== 0 || run.records !== run.answered)) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
