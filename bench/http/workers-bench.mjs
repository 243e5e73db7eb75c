/**
 * `adec serve --workers N` over HTTP (issue 29): durable decisions/s per worker count against
 * Fastify + Cedar in the same run, and the latency at half the measured durable rate.
 *
 * The servers are http-bench.mjs's: Fastify + Cedar, the in-process host with its SQLite audit
 * (adec-server.mjs, one process), and `adec serve --workers 1` and `--workers 2`
 * (adec-workers-server.mjs), each with an SQLite audit file of its own, loaded by http-bench's
 * runs (agreement check, warm-up, 16/64/128 connections, disturbed runs repeated). The group
 * commit figures are read from `/metrics`, which the supervisor adds up over its workers.
 *
 * Then `--workers 2` is started again and loaded at half its decisions/s at 64 connections, two
 * ways:
 * - autocannon's `overallRate`, as asked: autocannon gives each connection a quota of requests
 *   per second, refilled by a 1 s timer, and sends each as soon as the previous answer came back;
 *   so each second begins with every connection sending flat out until its quota is spent, and
 *   the latencies are those of a saturated service for about half of every second;
 * - paced: the same rate spread evenly over time (request i is due at start + i / rate) on 64
 *   kept-alive connections; a request's latency runs from when it was due, so a request queued
 *   behind a slow one counts its wait (no coordinated omission).
 *
 * Standalone: node --no-node-snapshot bench/http/workers-bench.mjs [--quick]
 */
import { request, Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { adecSqliteWorkers, ADEC_SQLITE, answers, CEDAR, commitTotals, defaultServers, load, percentile, REFERENCE_CONNECTIONS, rowAt, runHttpBench, WORKER_COUNTS } from './http-bench.mjs';
import { decideBodies } from './decide-requests.mjs';

const HALF = 0.5;
const WARM_UP_S = 2;

const quick = process.argv.includes('--quick');
const seconds = quick ? 2 : 10;
const scratch = mkdtempSync(join(tmpdir(), 'adec-workers-bench-'));
try {
  const loadBefore = loadavg();
  const { servers } = await defaultServers(scratch);
  const named = (name) => servers.find((server) => server.name === name);
  const measured = [CEDAR, ADEC_SQLITE, ...WORKER_COUNTS.map(adecSqliteWorkers)].map(named);
  const http = await runHttpBench({ quick, servers: measured, seconds });
  const rateAt = (name) => rowAt(http.servers.find((server) => server.name === name), REFERENCE_CONNECTIONS).perSecond;
  const cedarRate = rateAt(CEDAR);
  const perWorkers = WORKER_COUNTS.map((workers) => ({ workers, perSecond: rateAt(adecSqliteWorkers(workers)), overCedar: rateAt(adecSqliteWorkers(workers)) / cedarRate }));
  for (const { workers, perSecond, overCedar } of perWorkers) console.error(`workers: --workers ${workers}: ${Math.round(perSecond)}/s at ${REFERENCE_CONNECTIONS} connections, ${overCedar.toFixed(2)}× Fastify + Cedar's ${Math.round(cedarRate)}/s`);

  const most = Math.max(...WORKER_COUNTS);
  const halfLoad = await halfLoadLatency(named(adecSqliteWorkers(most)), HALF * rateAt(adecSqliteWorkers(most)), seconds);
  const loadAfter = loadavg();
  console.log(JSON.stringify({ ...http, cedarPerSecond: cedarRate, perWorkers, halfLoad: { workers: most, ...halfLoad }, loadavg: { before: loadBefore, after: loadAfter } }, (key, value) => (typeof value === 'bigint' ? String(value) : value), 2));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** Starts `spec` again, warms it up, and loads it at `perSecond` with autocannon's overallRate and paced. */
async function halfLoadLatency(spec, perSecond, seconds) {
  const server = { name: spec.name, ...(await spec.start()) };
  try {
    const bodies = decideBodies();
    await answers(server, bodies);
    await load(server, bodies, REFERENCE_CONNECTIONS, WARM_UP_S);
    const rate = Math.round(perSecond);
    const commits = async (run) => {
      const before = await commitTotals(server);
      const row = await run();
      const after = await commitTotals(server);
      const count = after.commits - before.commits;
      return { ...row, batch: (after.records - before.records) / count, commitMs: (1000 * (after.seconds - before.seconds)) / count };
    };
    const autocannonRow = await commits(() => load(server, bodies, REFERENCE_CONNECTIONS, seconds, { overallRate: rate }));
    const pacedRow = await commits(() => pacedLoad(server, bodies, REFERENCE_CONNECTIONS, rate, seconds));
    for (const [how, row] of [['autocannon overallRate', autocannonRow], ['paced', pacedRow]]) {
      console.error(`workers: ${spec.name} at ${rate}/s (${how}), ${REFERENCE_CONNECTIONS} connections: ${Math.round(row.perSecond)}/s answered, p50 ${row.p50Ms.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms, batch ${row.batch.toFixed(1)} in ${row.commitMs.toFixed(2)} ms`);
    }
    return { rate, autocannon: autocannonRow, paced: pacedRow };
  } finally {
    await server.stop();
  }
}

/**
 * `perSecond` decide requests for `seconds`, request i due at start + i / perSecond, over at
 * most `connections` kept-alive connections (a request due while all are busy waits for one).
 * Latency from when each was due to its whole answer. Anything but a 200 stops the run.
 */
function pacedLoad(server, bodies, connections, perSecond, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(`${server.url}${server.path}`);
  const total = Math.round(perSecond * seconds);
  const latencies = [];
  const start = performance.now();
  let sent = 0;
  let answered = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error) => {
      if (failed) return;
      failed = true;
      agent.destroy();
      reject(error);
    };
    const send = (index) => {
      const due = start + (1000 * index) / perSecond;
      const body = bodies[index % bodies.length];
      const call = request(target, { method: 'POST', agent, headers: { ...server.headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
        response.resume();
        response.once('end', () => {
          if (response.statusCode !== 200) return fail(new Error(`${server.name}: paced request ${index} answered ${response.statusCode}`));
          latencies.push(performance.now() - due);
          if (++answered === total) {
            const wall = (performance.now() - start) / 1000;
            agent.destroy();
            latencies.sort((a, b) => a - b);
            resolve({ perSecond: answered / wall, total: answered, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), non2xx: 0 });
          }
        });
      });
      call.once('error', fail);
      call.end(body);
    };
    const tick = () => {
      if (failed) return;
      const now = performance.now();
      while (sent < total && start + (1000 * sent) / perSecond <= now) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, start + (1000 * sent) / perSecond - performance.now()));
    };
    tick();
  });
}
