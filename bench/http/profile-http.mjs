/**
 * Where a decision over HTTP spends its time: not part of `npm run bench`, run by hand when a
 * target of the HTTP section is missed.
 *
 * 1. Variants of the decision service at 64 connections, each against the others in the same
 *    run and interleaved over rounds: the audit file on disk or on tmpfs (/dev/shm: no real
 *    fsync), the sandbox in a process (default) or in-process, the audit store replaced by one
 *    that commits nothing (adec-server.mjs with `audit: null`), next to Fastify + Cedar. Each row gives the CPU time per
 *    decision of the server (with its sandbox processes), of its own process, and of the load
 *    generator, and what other processes took of the machine meanwhile.
 * 2. A V8 CPU profile (`--cpu-prof`) of the service's own process over one timed run, cut to
 *    that run's samples, summarized as self time by package and by function.
 *
 * Usage: node --no-node-snapshot bench/http/profile-http.mjs [--seconds 5] [--rounds 2] [--only <name part>]… [--only-profile | --no-profile]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { benchServer, CEDAR, defaultServers } from './http-bench.mjs';
import { decideBodies } from './decide-requests.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const SECONDS = argument('--seconds', 5);
const ROUNDS = argument('--rounds', 2);
const CONNECTIONS = 64;
/** `--only <text>` (repeatable): the variants whose name holds one of them. */
const ONLY = process.argv.flatMap((value, index) => (process.argv[index - 1] === '--only' ? [value] : []));

/** The service's variants; `audit` names where its store lives. */
function variants(factory, scratch, cedar) {
  const onDisk = (label) => async () => ({ audit: join(mkdtempSync(join(scratch, `${label}-`)), 'audit.db') });
  const onTmpfs = (label) => async () => ({ audit: join(mkdtempSync(join('/dev/shm', `adec-http-profile-${label}-`)), 'audit.db') });
  const none = async () => ({ audit: null });
  return [
    factory('adec, SQLite on disk, sandbox process (default)', onDisk('disk')),
    factory('adec, SQLite on tmpfs, sandbox process', onTmpfs('shm')),
    factory('adec, SQLite on disk, answer without traces', onDisk('disk-nt'), { path: '/v1/decide?traces=false' }),
    factory('adec, SQLite on disk, in-process isolate', onDisk('disk-ip'), { isolation: 'in-process' }),
    factory('adec, SQLite on tmpfs, in-process isolate', onTmpfs('shm-ip'), { isolation: 'in-process' }),
    factory('adec, no audit (profile only), sandbox process', none),
    factory('adec, no audit (profile only), in-process isolate', none, { isolation: 'in-process' }),
    cedar,
  ].filter((variant) => ONLY.length === 0 || ONLY.some((part) => variant.name.includes(part)));
}

const fixed = (value, digits = 2) => (value === null ? '–' : value.toFixed(digits));

async function compareVariants(factory, scratch, cedar, bodies) {
  const table = new Map();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const spec of variants(factory, scratch, cedar)) {
      const measured = await benchServer(spec, bodies, { connections: [CONNECTIONS], seconds: SECONDS });
      const [row] = measured.rows;
      if (!table.has(spec.name)) table.set(spec.name, []);
      table.get(spec.name).push(row);
    }
  }
  console.log(`\n| ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds interleaved | decisions/s per round | p50 | p99 | server CPU per decision, µs (its own process) | load generator CPU per decision, µs | records per group commit, mean commit | other processes' CPU, cores |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  // CPU per decision holds up better than decisions/s when a neighbour takes part of the machine.
  const perDecision = (cores, row) => (cores === null ? '–' : ((1e6 * cores) / row.perSecond).toFixed(0));
  for (const [name, rows] of table) {
    const each = (read) => rows.map(read).join(' / ');
    console.log(`| ${name} | ${each((row) => Math.round(row.perSecond).toLocaleString('en'))} | ${each((row) => `${fixed(row.p50Ms, 1)} ms`)} | ${each((row) => `${fixed(row.p99Ms, 1)} ms`)} | ${each((row) => `${perDecision(row.cpuCores.server, row)} (${perDecision(row.cpuCores.host, row)})`)} | ${each((row) => perDecision(row.cpuCores.loadGenerator, row))} | ${each((row) => (row.batch === null ? '–' : `${fixed(row.batch, 1)} in ${fixed(row.commitMs)} ms`))} | ${each((row) => fixed(row.cpuCores.others))} |`);
  }
}

/** A package-level name for a profile node's script. */
function packageOf(url, functionName) {
  if (url === '') return functionName;
  const adec = /\/packages\/([^/]+)\/dist\//.exec(url);
  if (adec !== null) return `@adec/${adec[1]}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency !== null) return dependency[1];
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  return basename(url);
}

/** Self time of the samples inside `window` (monotonic ns), by package and by function. */
function summarizeProfile(file, window) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const [from, to] = window.map((ns) => Number(ns / 1000n));
  const selfUs = new Map();
  let at = profile.startTime;
  let inside = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    // A sample's time is the interval up to the next one.
    const span = profile.timeDeltas[i + 1] ?? 0;
    if (at < from || at > to) continue;
    inside += span;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + span);
  }
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${url === '' ? '' : `${pkg}/${basename(url)}:${lineNumber + 1}`}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  return { windowUs: to - from, sampledUs: inside, byPackage, byFunction };
}

function printShares(title, map, decisions, busyUs, top) {
  console.log(`\n| ${title} | self time per decision | share of the process's busy time |\n| --- | ---: | ---: |`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`| ${name.replaceAll('|', '\\|')} | ${(us / decisions).toFixed(1)} µs | ${name === '(idle)' ? '–' : `${((100 * us) / busyUs).toFixed(1)}%`} |`);
  }
}

async function profileVariant(factory, scratch, bodies, name, audit, options = {}) {
  const dir = mkdtempSync(join(scratch, 'cpu-profile-'));
  const spec = factory(name, audit, { ...options, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'] });
  const measured = await benchServer(spec, bodies, { connections: [CONNECTIONS], seconds: SECONDS });
  const [row] = measured.rows;
  const [file] = readdirSync(dir).filter((entry) => entry.endsWith('.cpuprofile'));
  const summary = summarizeProfile(join(dir, file), row.window);
  console.log(`\n### CPU profile of the service process: ${name}, ${CONNECTIONS} connections, ${SECONDS} s`);
  const busyUs = summary.sampledUs - (summary.byPackage.get('(idle)') ?? 0);
  console.log(`\n${Math.round(row.perSecond).toLocaleString('en')} decisions/s under the profiler (p50 ${fixed(row.p50Ms, 1)} ms, p99 ${fixed(row.p99Ms, 1)} ms, other processes ${fixed(row.cpuCores.others)} cores); the main thread was busy ${((100 * busyUs) / summary.windowUs).toFixed(0)}% of the run's wall time, ${(busyUs / row.total).toFixed(0)} µs per decision.`);
  printShares('by package', summary.byPackage, row.total, busyUs, 20);
  printShares('by function', summary.byFunction, row.total, busyUs, 30);
}

const scratch = mkdtempSync(join(tmpdir(), 'adec-http-profile-'));
try {
  const { adec, postgresAudit, servers } = await defaultServers(scratch);
  const cedar = servers.find((server) => server.name === CEDAR);
  const bodies = decideBodies();
  if (!process.argv.includes('--only-profile')) await compareVariants(adec, scratch, cedar, bodies);
  const onDisk = async () => ({ audit: join(mkdtempSync(join(scratch, 'profiled-')), 'audit.db') });
  const profiled = [
    ['adec, SQLite on disk, sandbox process (default)', onDisk],
    ['adec, SQLite on disk, in-process isolate', onDisk, { isolation: 'in-process' }],
    ['adec, PostgreSQL, sandbox process (default)', postgresAudit],
  ];
  if (!process.argv.includes('--no-profile')) {
    for (const [name, audit, options] of profiled.filter(([name]) => ONLY.length === 0 || ONLY.some((part) => name.includes(part)))) {
      await profileVariant(adec, scratch, bodies, name, audit, options);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  for (const entry of readdirSync('/dev/shm').filter((name) => name.startsWith('adec-http-profile-'))) rmSync(join('/dev/shm', entry), { recursive: true, force: true });
}
