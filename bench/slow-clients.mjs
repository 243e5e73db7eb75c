/**
 * Slow clients against the decision service (issue 26, finding 7 and its acceptance: 500
 * slow-body and slow-header connections on loopback, each closed within its deadline, while
 * normal requests keep p99 under 50 ms and the service's memory stays bounded). Not part of
 * `npm run bench`: a measurement of the HTTP edge, run by hand, its numbers in RESULTS.md
 * ("Slow clients").
 *
 * The service (http/adec-server.mjs: the 50-rule synthetic world, SQLite audit on disk, JWT)
 * runs in its own process with the default connection limits (packages/server/README.md) but
 * for the deadlines, which are given here. First normal decisions alone, then the same while
 * 500 slow connections are held open: half send a request's headers one byte a second, half
 * (with a valid token) send complete headers and then their body one byte a second; each one
 * the service closes is replaced at once, so 500 stay open throughout. The attackers come from
 * 127.0.0.2 and 127.0.0.3, the normal client from 127.0.0.1, so the per-address bound (512)
 * does not refuse them: the deadlines alone must cope. Normal decisions are made by 4
 * sequential clients on kept-alive connections; the service's RSS is sampled from /proc. A
 * headers deadline runs from the request's first byte (Node's), a body deadline from the end
 * of the headers: lateness is measured from those.
 *
 * Usage: node --no-node-snapshot bench/slow-clients.mjs [--seconds 30] [--headers-timeout-ms 10000] [--body-timeout-ms 10000]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { decideBodies } from './http/decide-requests.mjs';
import { startServer, tokenIssuer } from './http/http-bench.mjs';
import { summarize } from './lib/stats.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '30' }, 'headers-timeout-ms': { type: 'string', default: '10000' }, 'body-timeout-ms': { type: 'string', default: '10000' } } });
const SECONDS = Number(values.seconds);
const HEADERS_MS = Number(values['headers-timeout-ms']);
const BODY_MS = Number(values['body-timeout-ms']);
const SLOW_CONNECTIONS = 500;
const NORMAL_CLIENTS = 4;
const BYTE_EVERY_MS = 1_000;

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decisions one after another on each of `NORMAL_CLIENTS` clients until `until`; the latency of each, in ms. */
async function normalDecisions(url, headers, bodies, until) {
  const latencies = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: NORMAL_CLIENTS }, async (_, client) => {
      for (let i = client; Date.now() < until; i += NORMAL_CLIENTS) {
        const started = performance.now();
        const response = await fetch(`${url}/v1/decide?traces=false`, { method: 'POST', headers, body: bodies[i % bodies.length] });
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
        else failures += 1;
      }
    }),
  );
  return { latencies, failures };
}

/**
 * Keeps `SLOW_CONNECTIONS` slow connections open until `until`, each replaced when the service
 * closes it; resolves with how long after its deadline each was closed, in ms, and what it was answered.
 */
async function holdSlowConnections(url, token, body, until) {
  const { hostname, port } = new URL(url);
  const lateness = { headers: [], body: [] };
  const answers = new Map();
  let open = 0;
  let peakOpen = 0;
  const slowHeaders = `POST /v1/decide HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nX-Slow: ${'a'.repeat(4_000)}`;
  const fullHeaders = `POST /v1/decide HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const openOne = (kind) => {
    if (Date.now() >= until) return;
    const socket = connect({ host: hostname, port: Number(port), localAddress: kind === 'headers' ? '127.0.0.2' : '127.0.0.3' });
    const text = kind === 'headers' ? slowHeaders : body;
    let sent = 0;
    let received = '';
    let deadlineStart;
    let timer;
    socket.on('error', () => {});
    socket.on('data', (chunk) => (received += chunk));
    let opened = false;
    socket.once('connect', () => {
      opened = true;
      open += 1;
      peakOpen = Math.max(peakOpen, open);
      if (kind === 'body') {
        socket.write(fullHeaders);
        deadlineStart = Date.now();
      }
      timer = setInterval(() => {
        deadlineStart ??= Date.now();
        socket.write(text[sent++ % text.length]);
      }, BYTE_EVERY_MS);
    });
    socket.once('close', () => {
      clearInterval(timer);
      if (opened) open -= 1;
      if (deadlineStart !== undefined) {
        if (Date.now() < until) lateness[kind].push(Date.now() - deadlineStart - (kind === 'headers' ? HEADERS_MS : BODY_MS));
        const status = /^HTTP\/1\.1 (\d+)/.exec(received)?.[1] ?? 'closed without an answer';
        const code = /"code":"([A-Z_]+)"/.exec(received)?.[1];
        const key = code === undefined ? status : `${status} ${code}`;
        answers.set(key, (answers.get(key) ?? 0) + 1);
      }
      openOne(kind);
    });
  };
  for (let i = 0; i < SLOW_CONNECTIONS; i++) {
    openOne(i % 2 === 0 ? 'headers' : 'body');
    // Opened over the first second, so their deadlines do not all fall at once.
    if (i % 50 === 49) await sleep(100);
  }
  while (Date.now() < until) await sleep(100);
  return { lateness, answers: Object.fromEntries(answers), peakOpen };
}

/** The service's RSS until `until`: its peak, and at each quarter (memory that grows with time shows there). */
async function sampleRss(pid, until) {
  const quarterMs = (until - Date.now()) / 4;
  const sampled = { peak: 0, quarters: [] };
  let nextQuarter = Date.now() + quarterMs;
  while (Date.now() < until - 50) {
    const rss = rssMiB(pid);
    sampled.peak = Math.max(sampled.peak, rss);
    if (Date.now() >= nextQuarter - 150) {
      sampled.quarters.push(rss);
      nextQuarter += quarterMs;
    }
    await sleep(100);
  }
  return sampled;
}

const scratch = mkdtempSync(join(tmpdir(), 'adec-slow-clients-'));
const issuer = await tokenIssuer();
const limits = { headersTimeoutMs: HEADERS_MS, bodyTimeoutMs: BODY_MS };
const { ready, child, stop } = await startServer('adec-server.mjs', [JSON.stringify({ store: join(scratch, 'store'), audit: join(scratch, 'audit.db'), auth: issuer.auth, connectionLimits: limits })]);
try {
  const token = await issuer.token(ready.org);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const bodies = decideBodies().map((text) => JSON.stringify({ ...JSON.parse(text), ...ready.routing }));
  await normalDecisions(ready.url, headers, bodies, Date.now() + 3_000);
  const before = rssMiB(child.pid);
  const quietUntil = Date.now() + SECONDS * 1_000;
  const [quiet, quietRss] = await Promise.all([normalDecisions(ready.url, headers, bodies, quietUntil), sampleRss(child.pid, quietUntil)]);
  const until = Date.now() + SECONDS * 1_000;
  const [attacked, slow, attackedRss] = await Promise.all([normalDecisions(ready.url, headers, bodies, until), holdSlowConnections(ready.url, token, bodies[0], until), sampleRss(child.pid, until)]);
  const load = loadavg();
  await sleep(Math.max(HEADERS_MS, BODY_MS) + 2_000);
  const after = rssMiB(child.pid);

  const ms = (value) => value.toFixed(1);
  const row = (name, { latencies, failures }) => {
    const s = summarize(latencies);
    return `| ${name} | ${latencies.length.toLocaleString('en')} | ${failures} | ${ms(s.median)} ms | ${ms(s.p99)} ms | ${ms(s.max)} ms |`;
  };
  const late = (values) => (values.length === 0 ? '–' : `${values.length.toLocaleString('en')} closed, ${ms(summarize(values).median)} ms median / ${ms(summarize(values).max)} ms max after the deadline`);
  console.log(
    [
      `${SLOW_CONNECTIONS} slow connections held for ${SECONDS} s (peak ${slow.peakOpen} open at once), headers deadline ${HEADERS_MS} ms, body deadline ${BODY_MS} ms; ${NORMAL_CLIENTS} normal clients, \`POST /v1/decide?traces=false\`, SQLite audit on disk`,
      '',
      '| normal decisions | answered | refused or failed | p50 | p99 | max |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      row('alone', quiet),
      row(`with ${SLOW_CONNECTIONS} slow connections`, attacked),
      '',
      `- slow headers: ${late(slow.lateness.headers)}`,
      `- slow body (with a token): ${late(slow.lateness.body)}`,
      `- what the slow connections were answered: ${Object.entries(slow.answers).map(([answer, count]) => `${answer} × ${count.toLocaleString('en')}`).join(', ')}`,
      `- load average during the run (2 cores, shared): ${load.map((value) => value.toFixed(1)).join(' / ')}`,
      `- the service's RSS: ${ms(before)} MiB before; normal decisions alone ${quietRss.quarters.map(ms).join(' / ')} MiB at each quarter (peak ${ms(quietRss.peak)}); with the slow connections ${attackedRss.quarters.map(ms).join(' / ')} MiB (peak ${ms(attackedRss.peak)}); ${ms(after)} MiB ${((Math.max(HEADERS_MS, BODY_MS) + 2_000) / 1000).toFixed(0)} s after`,
    ].join('\n'),
  );
} finally {
  await stop();
  rmSync(scratch, { recursive: true, force: true });
}
