/**
 * Decisions over HTTP (issue: the decision service's throughput target): the decision service
 * with its durable audit store, on SQLite and on PostgreSQL, against a bare Fastify server
 * around Cedar evaluating the same 50 rules with no audit and no authentication, all loaded in
 * the same run by autocannon with the same 256 decide bodies (decide-requests.mjs).
 *
 * The SQLite service is also run as a deployment runs it, `adec serve --workers 1` and
 * `--workers 2` (adec-workers-server.mjs; workers-bench.mjs compares them alone).
 *
 * Each server runs in a process of its own (adec-server.mjs, cedar-server.mjs), one at a time,
 * so the load generator, here, never shares an event loop with it; on a 2-core machine they do
 * share the cores, as a client on the same host would.
 *
 * Before anything is timed, every server answers every body once and must agree with the first
 * server on status, winning rule and matched rules. Then 2 s of warm-up at 64 connections, and
 * one timed run per connection count, repeated when other processes took a share of the
 * machine meanwhile (leastDisturbedRow). A non-2xx answer, a socket error or a timeout stops
 * the bench: a decisions/s figure only counts decisions.
 *
 * Standalone: node --no-node-snapshot bench/http/http-bench.mjs [--quick]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { decideBodies, SYNTHETIC_ROUTING } from './decide-requests.mjs';
import { startPostgres } from './postgres-server.mjs';
import { machineBusySeconds, treeCpuSeconds } from './process-cpu.mjs';

export const CONNECTIONS = [16, 64, 128];
/** The connection count every server is compared at; the others show where each one saturates. */
export const REFERENCE_CONNECTIONS = 64;
const WARM_UP_S = 2;
const RUN_ATTEMPTS = 3;
const DISTURBED_CORES = 0.3;
export const ADEC_SQLITE = 'adec (SQLite)';
export const ADEC_POSTGRES = 'adec (PostgreSQL)';
/** The same service and audit, its answer asked for without the per-rule traces (the record keeps them). */
export const ADEC_SQLITE_NO_TRACES = 'adec (SQLite), answer without traces';
export const CEDAR = 'Fastify + Cedar (no audit, no auth)';
/** The same service as `adec serve --workers N` runs it: N worker processes on one port (adec-workers-server.mjs). */
export const adecSqliteWorkers = (workers) => `adec (SQLite), --workers ${workers}`;
export const WORKER_COUNTS = [1, 2];
/** The issue's targets on a 2-core machine. */
export const HTTP_TARGETS = { sqlitePerSecond: 5_000, sqliteP99Ms: 10, overCedar: 1 };

const ISSUER = 'https://issuer.bench';
const AUDIENCE = 'adec-decisions';
const STOP_GRACE_MS = 15_000;
const entry = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/**
 * A server child process, started with `node --no-node-snapshot [nodeArgs] <file> [args]`
 * (`file` in this folder, or an absolute path); resolves with the JSON of its first stdout line
 * once it listens.
 */
export function startServer(file, args = [], { nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, ['--no-node-snapshot', ...nodeArgs, isAbsolute(file) ? file : entry(file), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-8_000)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // A bench that fails half-way must not leave a server behind.
  const onExit = () => child.kill('SIGKILL');
  process.on('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      const { code, signal } = await exited;
      clearTimeout(timer);
      if (code !== 0) throw new Error(`${file} did not stop cleanly (${code ?? signal}): ${stderr}`);
    }
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve({ ready: JSON.parse(stdout.slice(0, newline)), child, stop });
    });
    void exited.then(({ code, signal }) => reject(new Error(`${file} exited (${code ?? signal}) before listening: ${stderr}`)));
  });
}

/** A JWT issuer the adec server trusts: the key pair stays here, the server gets the public JWK. */
export async function tokenIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'EdDSA' };
  return {
    auth: { issuer: ISSUER, audience: AUDIENCE, keys: [jwk] },
    token: (orgId) =>
      new SignJWT({ org_id: orgId, sub: 'bench-agent', iss: ISSUER, aud: AUDIENCE }).setProtectedHeader({ alg: 'EdDSA', kid: 'bench' }).setIssuedAt().setExpirationTime('2h').sign(privateKey),
  };
}

/**
 * The servers of one run (`servers`), and the makings of others (`adec`, `postgresAudit`) for
 * the profile's variants; `scratch` holds their stores and SQLite files. Each `start` resolves
 * to `{ url, path, headers, pid, extraPids, decision, audited, stop }` or `{ skipped: reason }`;
 * `decision` reads a response body as `{ status, winningRule, matched }`.
 */
export async function defaultServers(scratch) {
  const issuer = await tokenIssuer();
  /**
   * `audit` resolves to `{ audit: location, pid?, stop? }` (`pid`: a database server's, counted
   * in its CPU) or `{ skipped: reason }`; `options.entry` is the server file (for the profile's
   * variants), `options.isolation` the sandbox's, `options.nodeArgs` the server's Node flags,
   * `options.path` the decide route with its query, `options.workers` adec-workers-server.mjs's.
   */
  const adec = (name, audit, options = {}) => ({
    name,
    async start() {
      const location = await audit();
      if (location.skipped !== undefined) return location;
      const config = { store: join(scratch, `store-${name.replace(/\W+/g, '-')}`), audit: location.audit, auth: issuer.auth, isolation: options.isolation, workers: options.workers };
      try {
        const { ready, stop } = await startServer(options.entry ?? 'adec-server.mjs', [JSON.stringify(config)], options);
        if (JSON.stringify(ready.routing) !== JSON.stringify(SYNTHETIC_ROUTING)) throw new Error(`adec-server serves ${JSON.stringify(ready.routing)}, the requests name ${JSON.stringify(SYNTHETIC_ROUTING)}`);
        return {
          url: ready.url,
          path: options.path ?? '/v1/decide',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await issuer.token(ready.org)}` },
          pid: ready.pid,
          extraPids: location.pid === undefined ? [] : [location.pid],
          decision: (body) => ({ status: body.status, winningRule: body.decision_metadata.aggregation_outcome.winning_rule, matched: body.decision_metadata.matched_rules }),
          audited: location.audit !== null,
          stop: async () => {
            await stop();
            await location.stop?.();
          },
        };
      } catch (error) {
        await location.stop?.();
        throw error;
      }
    },
  });
  /** A fresh PostgreSQL server of its own (postgres-server.mjs), or why there is none. */
  const postgresAudit = async () => {
    const postgres = await startPostgres();
    return postgres.ok ? { audit: postgres.url, pid: postgres.pid, stop: postgres.stop } : { skipped: postgres.reason };
  };
  return {
    adec,
    postgresAudit,
    servers: [
      adec(ADEC_SQLITE, async () => ({ audit: join(scratch, 'audit.db') })),
      adec(ADEC_SQLITE_NO_TRACES, async () => ({ audit: join(scratch, 'audit-no-traces.db') }), { path: '/v1/decide?traces=false' }),
      adec(ADEC_POSTGRES, postgresAudit),
      ...WORKER_COUNTS.map((workers) => adec(adecSqliteWorkers(workers), async () => ({ audit: join(scratch, `audit-workers-${workers}.db`) }), { entry: 'adec-workers-server.mjs', workers })),
      {
        name: CEDAR,
        async start() {
          const { ready, stop } = await startServer('cedar-server.mjs');
          return {
            url: ready.url,
            path: '/decide',
            headers: { 'content-type': 'application/json' },
            pid: ready.pid,
            extraPids: [],
            decision: (body) => ({ status: body.status, winningRule: body.winning_rule, matched: body.matched_rules }),
            audited: false,
            stop,
          };
        },
      },
    ],
  };
}

const canonical = ({ status, winningRule, matched }) => JSON.stringify({ status, winningRule, matched: [...matched].sort() });

/** Every body once, in order; the canonical answers, refusing anything but a 200. */
export async function answers(server, bodies) {
  const list = [];
  for (const [index, body] of bodies.entries()) {
    const response = await fetch(`${server.url}${server.path}`, { method: 'POST', headers: server.headers, body });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`request ${index} answered ${response.status}: ${text}`);
    list.push(canonical(server.decision(JSON.parse(text))));
  }
  return list;
}

/** The value of the unlabelled metric `name` in a Prometheus text exposition (NaN when absent). */
export const metricValue = (text, name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

/** The group-commit histograms' sums and count from `GET /metrics`. */
export async function commitTotals(server) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const read = (name) => metricValue(text, name);
  return { records: read('adec_audit_commit_records_sum'), commits: read('adec_audit_commit_records_count'), seconds: read('adec_audit_commit_duration_seconds_sum') };
}

export function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * One autocannon run. Latencies are taken from every response's own time (autocannon's
 * histogram keeps whole milliseconds only). `overallRate`: at most that many requests/s over
 * all connections (each connection still waits for its answer), instead of as many as the
 * server answers.
 */
export async function load(server, bodies, connections, seconds, { overallRate } = {}) {
  const latencies = [];
  const instance = autocannon({
    url: `${server.url}${server.path}`,
    connections,
    duration: seconds,
    ...(overallRate !== undefined && { overallRate }),
    requests: bodies.map((body) => ({ method: 'POST', path: server.path, headers: server.headers, body })),
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${server.name} at ${connections} connections: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  latencies.sort((a, b) => a - b);
  return { perSecond: result.requests.mean, total: result['2xx'], p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), non2xx: result.non2xx };
}

/** A timed run with what the server's processes and this one spent meanwhile. */
async function timedRow(server, bodies, connections, seconds) {
  const before = { commits: server.audited ? await commitTotals(server) : undefined, cpu: cpuOf(server), own: process.cpuUsage() };
  const started = process.hrtime.bigint();
  const row = await load(server, bodies, connections, seconds);
  const ended = process.hrtime.bigint();
  const wall = Number(ended - started) / 1e9;
  const cpu = cpuOf(server);
  const own = process.cpuUsage(before.own);
  let batch = null;
  let commitMs = null;
  if (server.audited) {
    const after = await commitTotals(server);
    const commits = after.commits - before.commits.commits;
    batch = (after.records - before.commits.records) / commits;
    commitMs = (1000 * (after.seconds - before.commits.seconds)) / commits;
  }
  const cores = (from, to) => (from === null || to === null ? null : (to - from) / wall);
  const loadGenerator = (own.user + own.system) / 1e6 / wall;
  const [machine, serverCores, extra] = [cores(before.cpu.machine, cpu.machine), cores(before.cpu.server, cpu.server), cores(before.cpu.extra, cpu.extra)];
  return {
    connections,
    ...row,
    batch,
    /** Mean time of one group commit (its transaction, fsync included). */
    commitMs,
    // CPU cores used meanwhile: the server with its sandbox processes, its own process alone,
    // a database server's processes, and this process (the load generator).
    // `others`: whatever else ran on the machine meanwhile (another process's load skews a run).
    cpuCores: { server: serverCores, host: cores(before.cpu.host, cpu.host), extra, loadGenerator, others: machine === null || serverCores === null ? null : machine - serverCores - (extra ?? 0) - loadGenerator },
    /** The run's start and end on the monotonic clock, in ns (a CPU profile's samples are on the same clock). */
    window: [started, ended],
  };
}

function cpuOf(server) {
  const extra = server.extraPids.map(treeCpuSeconds);
  return { machine: machineBusySeconds(), server: treeCpuSeconds(server.pid), host: treeCpuSeconds(server.pid, { children: false }), extra: extra.length === 0 || extra.includes(null) ? null : extra.reduce((a, b) => a + b, 0) };
}

/**
 * A timed run, repeated (up to RUN_ATTEMPTS) while other processes took more than
 * DISTURBED_CORES of the machine meanwhile; the least disturbed attempt is kept. On a shared
 * 2-core machine one busy neighbour halves a server's rate.
 */
async function leastDisturbedRow(server, bodies, connections, seconds) {
  let kept;
  for (let attempt = 1; attempt <= RUN_ATTEMPTS; attempt++) {
    const row = await timedRow(server, bodies, connections, seconds);
    if (kept === undefined || row.cpuCores.others < kept.cpuCores.others) kept = row;
    if (row.cpuCores.others === null || row.cpuCores.others <= DISTURBED_CORES) break;
    console.error(`http: ${server.name}, ${connections} connections: other processes took ${row.cpuCores.others.toFixed(2)} cores of the machine during the run${attempt < RUN_ATTEMPTS ? '; running it again' : ''}`);
  }
  return kept;
}

/**
 * Starts one server, checks its answers against `reference` (the first server's, when given),
 * warms it up, times one run per connection count, and stops it.
 * @returns {Promise<{ skipped: string } | { rows: object[], answered: string[] }>}
 */
export async function benchServer(spec, bodies, { connections = CONNECTIONS, seconds, reference }) {
  const started = await spec.start();
  if (started.skipped !== undefined) {
    console.error(`http: ${spec.name} skipped: ${started.skipped}`);
    return { skipped: started.skipped };
  }
  const server = { name: spec.name, ...started };
  try {
    const answered = await answers(server, bodies);
    if (reference !== undefined) {
      const differs = answered.findIndex((answer, index) => answer !== reference.answered[index]);
      if (differs >= 0) throw new Error(`${spec.name} disagrees with ${reference.name} on request ${differs} ${bodies[differs]}:\n  expected ${reference.answered[differs]}\n  actual   ${answered[differs]}`);
    }
    await load(server, bodies, REFERENCE_CONNECTIONS, WARM_UP_S);
    const rows = [];
    for (const count of connections) {
      const row = await leastDisturbedRow(server, bodies, count, seconds);
      const { server: busy, loadGenerator, others } = row.cpuCores;
      console.error(`http: ${spec.name}, ${count} connections: ${Math.round(row.perSecond)}/s, p50 ${row.p50Ms.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms${row.batch === null ? '' : `, batch ${row.batch.toFixed(1)} in ${row.commitMs.toFixed(2)} ms`}; CPU cores: server ${busy?.toFixed(2)}, load generator ${loadGenerator.toFixed(2)}, other processes ${others?.toFixed(2)}`);
      rows.push(row);
    }
    return { rows, answered };
  } finally {
    await server.stop();
  }
}

/**
 * @param {{ quick: boolean, servers?: Array<{ name: string, start: () => Promise<object> }>, connections?: number[], seconds?: number }} options
 * @returns {Promise<{ requests: number, statuses: Record<string, number>, seconds: number, servers: Array<{ name: string, skipped?: string, rows: object[] }> }>}
 */
export async function runHttpBench({ quick, servers, connections = CONNECTIONS, seconds = quick ? 2 : 10 }) {
  const scratch = mkdtempSync(join(tmpdir(), 'adec-http-bench-'));
  try {
    const list = servers ?? (await defaultServers(scratch)).servers;
    const bodies = decideBodies();
    const results = [];
    let reference;
    for (const spec of list) {
      const measured = await benchServer(spec, bodies, { connections, seconds, reference });
      if (measured.skipped !== undefined) {
        results.push({ name: spec.name, skipped: measured.skipped, rows: [] });
        continue;
      }
      reference ??= { name: spec.name, answered: measured.answered };
      results.push({ name: spec.name, rows: measured.rows });
    }
    const statuses = {};
    for (const answer of reference.answered) {
      const { status } = JSON.parse(answer);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    return { requests: bodies.length, statuses, seconds, servers: results };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The row with the most decisions/s. */
export const bestRow = (server) => server.rows.reduce((best, row) => (best === undefined || row.perSecond > best.perSecond ? row : best), undefined);
/** The row at `connections`. */
export const rowAt = (server, connections) => server.rows.find((row) => row.connections === connections);

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await runHttpBench({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(results, (key, value) => (typeof value === 'bigint' ? String(value) : value), 2));
}
