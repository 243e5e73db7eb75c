/**
 * The decision service as a deployment runs it, `adec serve --workers N`, for http-bench.mjs's
 * worker rows: the same 50-rule synthetic world and the same token key as adec-server.mjs, but
 * served by the CLI from files on disk, so N worker processes share one port under the
 * supervisor (packages/server/README.md "Worker processes").
 *
 * Publishes the world, signed and approved, into `store`; writes beside it (`<store>-deployment/`)
 * what `adec serve` reads: the signer's and approver's public keys as PEM files, a trust.json
 * naming them, and jwks.json with the caller's token key. Then starts
 * `node --no-node-snapshot packages/cli/bin/adec.js serve … --workers N` on loopback with a rate
 * limit that never triggers, waits for its ready log line and prints one JSON line as
 * adec-server.mjs does: `{ url, pid, org, routing, workers }`, `pid` the `adec serve` process's
 * (the supervisor's; with `workers: 1` the service's own), `workers` the worker processes' pids.
 * Its process tree holds every worker, so the bench's CPU accounting (process-cpu.mjs) counts them.
 *
 * `adec serve` logs JSON lines on standard output; after the ready line they are passed on to
 * standard error (at warn level and above only), so standard output carries the one line.
 * SIGTERM is passed on to `adec serve`, which stops gracefully; this process then ends as it did.
 * `adec serve` holds an IPC channel to this process: if this one is killed, it stops too
 * (packages/cli/bin/adec.js, "the child watches the launcher").
 *
 * Usage: node adec-workers-server.mjs '<json config>'
 *   config: { store, audit, auth: { issuer, audience, keys: [public JWK] }, workers, isolation? }
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';

const RULES = 50;
/** High enough that the limiter never refuses: the bench measures decisions, not refusals. */
const UNLIMITED = '1000000000';
const ADEC = fileURLToPath(new URL('../../packages/cli/bin/adec.js', import.meta.url));
/** pino's level of `warn`: lines below it are the service's routine (ready, stopping). */
const WARN = 40;

const config = JSON.parse(process.argv[2]);
if (typeof config.audit !== 'string') throw new Error('adec-workers-server: `audit` must be a SQLite file or a postgres:// URL (adec serve has no discarding store)');
const published = await publishSynthetic(config.store, RULES, { rulesPerAction: RULES });
const files = writeDeployment(`${config.store}-deployment`, published.trust, config.auth);

const child = spawn(
  process.execPath,
  [
    '--no-node-snapshot',
    ADEC,
    'serve',
    '--modules', config.store,
    '--trust', files.trust,
    '--jwks', files.jwks,
    '--issuer', config.auth.issuer,
    '--audience', config.auth.audience,
    '--audit', config.audit,
    '--port', '0',
    '--workers', String(config.workers),
    '--rate-limit', UNLIMITED,
    '--burst', UNLIMITED,
    // info: the ready line is logged at info; request logging is off at every level.
    '--log-level', 'info',
    ...(config.isolation === undefined ? [] : ['--isolation', config.isolation]),
  ],
  { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
);
process.once('SIGTERM', () => child.kill('SIGTERM'));
child.once('exit', (code, signal) => {
  if (signal !== null) console.error(`adec-workers-server: adec serve ended by ${signal}`);
  process.exit(code ?? 1);
});

const { org, domain, version, action } = published.key;
let ready = false;
let buffered = '';
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\n');
  buffered = lines.pop();
  for (const line of lines) {
    const entry = parseLogLine(line);
    if (!ready && entry?.msg === 'adec serve is ready') {
      ready = true;
      console.log(JSON.stringify({ url: entry.url, pid: child.pid, org, routing: { domain, action, world_model_version: version }, workers: entry.pids ?? [child.pid] }));
    } else if (entry === undefined || entry.level >= WARN) {
      console.error(line);
    }
  }
});

/** Writes trust.json (naming the public keys as PEM files) and jwks.json into `dir`; returns their paths. */
function writeDeployment(dir, trust, auth) {
  mkdirSync(dir, { recursive: true });
  const pemFiles = (keys, role) =>
    [...keys.values()].map((key, index) => {
      const name = `${role}-${index}.pub.pem`;
      writeFileSync(join(dir, name), key.export({ type: 'spki', format: 'pem' }));
      return name;
    });
  const paths = { trust: join(dir, 'trust.json'), jwks: join(dir, 'jwks.json') };
  writeFileSync(paths.trust, JSON.stringify({ signing_keys: pemFiles(trust.signingKeys, 'signer'), approval_keys: pemFiles(trust.approvalKeys, 'approver') }));
  writeFileSync(paths.jwks, JSON.stringify({ keys: auth.keys }));
  return paths;
}

/** A log line's JSON object, or undefined for anything else. */
function parseLogLine(line) {
  try {
    const entry = JSON.parse(line);
    return entry !== null && typeof entry === 'object' ? entry : undefined;
  } catch {
    return undefined;
  }
}
