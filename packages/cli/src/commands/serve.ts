import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startDecisionHost, superviseWorkers, supervisorLogger, workerLink, WORKER_SLOT_VARIABLE } from '@adec/server';
import { parseOptions } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { hostConfig, loadDeployment, readServeSettings, settingOptions, shownLocation } from '../serve/deployment.js';
import { anchorEvery, type ServiceLog } from '../serve/anchor-schedule.js';
import { readSigningKey } from '../serve/signing-key.js';
import type { ServeSettings } from '../serve/serve-settings.js';

export const usage = `usage: adec serve [--config <file.json>] [options]

Runs the decision service. It serves the signed, approved bundles under
<modules>/<org>/<domain>/<version>/ (where \`adec deploy\` puts them; a new or newly approved
one is picked up within 10 s), authenticates every /v1 call by its JWT
(Authorization: Bearer …), and commits every decision to the audit store before answering it.

  POST /v1/decide                   one action's decision: { status, work_frame, decision_metadata }
  POST /v1/select                   the whole ADE selection cycle: a DecisionResponse
  POST /v1/feedback                 an Execution Outcome Package of a selection (the user's memory)
  GET  /v1/decisions/{id}           a stored decision or selection of the caller's org
  POST /v1/decisions/{id}/replay    re-execute a stored decision: identical, or the differences
  POST /v1/mcp                      the MCP tools \`decide\` and \`select\` (Streamable HTTP)
  GET  /health/live, /health/ready  liveness; readiness
  GET  /metrics                     Prometheus metrics
  GET  /openapi.json                the OpenAPI 3.1 document of every route
  GET  /v1/schemas/{name}           the JSON Schema of a contract (DecisionResponse, …; no token)

Each option can also be set by an ADEC_* environment variable (--max-in-flight is
ADEC_MAX_IN_FLIGHT) or by the same key in the --config JSON file; flags win over the
environment, the environment over the file. Relative paths in the file are relative to it.

  --config <file.json>         the settings as a JSON object keyed by flag name, e.g.
                               { "modules": "modules", "trust": "trust.json", "jwks": "jwks.json",
                                 "issuer": "https://issuer.example", "audience": "adec-decisions" }

  --modules <dir>              the bundle directory (required)
  --trust <trust.json>         signing and approval keys, as for adec verify (required), e.g.
                               { "signing_keys": ["keys/ci.pub.jwk"],
                                 "approval_keys": ["keys/operator.pub.jwk"] }
  --jwks <jwks.json>           public keys of the token issuer (required): a JWK set, each key
                               with its \`kid\` and \`alg\` (EdDSA, ES256, ES384, RS256 or PS256;
                               a token is verified with its key's alg, never its header's):
                               { "keys": [ { "kty": "OKP", "crv": "Ed25519", "x": "…",
                                             "kid": "…", "alg": "EdDSA" } ] }
                               \`adec keygen --name issuer\` writes such a key (issuer.pub.jwk):
                               echo "{ \\"keys\\": [$(cat keys/issuer.pub.jwk)] }" > jwks.json
  --issuer <iss>               the accepted token issuer (required)
  --audience <aud>             the accepted token audience (required)
  --audit <file|postgres://…>  the audit store (default adec-audit.db, SQLite)
  --host <address>             default 127.0.0.1
  --port <n>                   default 8080 (0: any free port)
  --rate-limit <n>             decisions per second per org (default 1000)
  --burst <n>                  decisions an idle org may make at once (default 2000)
  --max-in-flight <n>          decisions in flight before 503 (default 1024)
  --decision-timeout-ms <n>    a decision unfinished by then is YELLOW (default 5000)
  --retention-days <n>         audit records older than this are purged daily (default 90)
  --shutdown-grace-ms <n>      after SIGTERM, decisions in flight may take this long (default 25000)
  --headers-timeout-ms <n>     a request's headers must arrive within this (default 10000)
  --body-timeout-ms <n>        its body within this of the headers (default 10000)
  --request-timeout-ms <n>     the whole request within this (default 30000)
  --idle-timeout-ms <n>        a connection silent this long is closed (default 30000)
  --keep-alive-timeout-ms <n>  an idle kept-alive connection is closed (default 72000)
  --max-requests-per-connection <n>  then the connection is closed (default 10000)
  --max-connections <n>        open at once; more are refused 503 (default 4096)
  --max-connections-per-address <n>  from one address; more are refused 429 (default 512)
  --anchors <file>             append signed anchors of every audit chain's head to this file
                               (JSON lines; with --anchor-key; see adec audit verify --anchors)
  --anchor-key <key>           the Ed25519 private key that signs them (adec keygen)
  --anchor-interval-seconds <n>  how often (default 300; and once at start)
  --trace-key <key>            the Ed25519 private key that signs every selection's reasoning
                               trace (adec keygen; verify with its public key: adec trace verify)
  --recycle-after-decisions <n>  replace each sandbox process after this many decisions, the
                               replacement started first and the old one drained (default off)
  --recycle-above-rss-mb <n>   likewise once its resident set is above this many MiB (default off)
  --isolation <where>          where modules run, default auto: a module approved after a
                               byte-identical rebuild (adec approve) whose code this host
                               verifies runs in this process, any other in a sandbox process;
                               process or in-process: every module there
  --workers <n>                worker processes, each a whole service on the shared port, under
                               a supervisor that replaces one that dies (default ${availableParallelism()}, one per
                               core here; 1: the service runs in this one process). Rate limits are the
                               service's; the caps on connections and decisions in flight are
                               shared out among the workers
  --log-level <level>          fatal, error, warn, info (default), debug, trace, silent
Logs are JSON lines on standard output. SIGTERM or SIGINT stops the service gracefully: it
stops accepting, closes idle and half-sent connections at once, answers and records the
decisions in flight, flushes and closes the audit store, and exits 0. Past --shutdown-grace-ms,
or at a second SIGTERM or SIGINT, it ends at once, killed by that signal: every decision
answered is already recorded (a decision is answered only once its record is committed).
SIGHUP makes every worker scan the bundle directory at once.`;

/**
 * Ends the process at once (the grace period is over or a second signal came), by `signal`'s
 * default action: injected so tests run the command in process. Not `process.exit`: that stops
 * the SQLite writer thread inside a statement waiting for a lock, and better-sqlite3 then
 * aborts the process (measured: SIGABRT and a fatal-error report on stderr).
 */
export type ForceExit = (signal: NodeJS.Signals) => void;

function dieBy(signal: NodeJS.Signals): void {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

/** The `adec` launcher, which every worker process runs as `adec serve` with the supervisor's arguments. */
const LAUNCHER = fileURLToPath(new URL('../../bin/adec.js', import.meta.url));

/** `adec serve`: the decision service, until a signal stops it. */
export async function run(args: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process, forceExit: ForceExit = dieBy): Promise<ExitCode> {
  const { values } = parseOptions(args, usage, settingOptions(), []);
  const settings = await readServeSettings(values, io, usage);
  const deployment = await loadDeployment(settings, io);
  if (!deployment.ok) return fail(io, deployment.message);
  const anchorSigner = settings.anchorKey === undefined ? undefined : await readSigningKey('anchor-key', settings.anchorKey, io.cwd);
  if (anchorSigner !== undefined && !anchorSigner.ok) return fail(io, anchorSigner.message);
  const traceSigner = settings.traceKey === undefined ? undefined : await readSigningKey('trace-key', settings.traceKey, io.cwd);
  if (traceSigner !== undefined && !traceSigner.ok) return fail(io, traceSigner.message);
  if (cluster.isPrimary && settings.workers > 1) return supervise(args, settings, io, signals, forceExit);
  const worker = cluster.isWorker ? workerLink(Number(process.env[WORKER_SLOT_VARIABLE])) : undefined;
  const started = await startDecisionHost({
    ...hostConfig(settings, deployment, worker === undefined ? 1 : settings.workers),
    logger: { level: settings.logLevel },
    ...(worker !== undefined && { worker }),
    ...(traceSigner !== undefined && { traceSigner: traceSigner.signer }),
  });
  if (!started.ok) return fail(io, `${started.code}: ${started.message}`);
  const { host } = started;
  const log = host.app.log;
  if (worker === undefined) log.info({ url: host.url, modules: settings.modules, audit: shownLocation(settings.audit) }, 'adec serve is ready');
  else log.info({ url: host.url, slot: worker.slot }, 'adec serve worker is ready');
  // One schedule for the service: with worker processes, slot 0's.
  const anchoring = anchorSigner === undefined || settings.anchors === undefined || (worker !== undefined && worker.slot !== 0) ? undefined : anchorEvery(host.store, anchorSigner.signer, settings.anchors, settings.anchorIntervalSeconds, log);
  signals.on('SIGHUP', () => void host.scanModules());
  worker?.onScan(() => void host.scanModules());
  const stopping = untilStopped(signals, settings.shutdownGraceMs, log, {
    stop: () => (anchoring?.stop() ?? Promise.resolve()).then(() => host.close()),
    force: (signal, reason) => {
      log.warn({ reason }, 'adec serve is exiting before every decision in flight was answered: each decision answered was recorded first');
      forceExit(signal);
    },
  });
  worker?.onStop((signal, force, reason) => stopping.request(signal, force ? reason : undefined));
  // Only now that it handles every signal and message: a worker ready before that would die of a Ctrl-C.
  worker?.ready(host.url!);
  await stopping.stopped;
  return EXIT.ok;
}

/**
 * `--workers N` above 1: this process supervises N worker processes (packages/server/README.md
 * "Worker processes") and passes every signal on to them; it ends once they have, as they did:
 * 0 when every worker stopped gracefully, by the stopping signal when any was forced to end.
 */
async function supervise(args: readonly string[], settings: ServeSettings, io: CliIo, signals: NodeJS.EventEmitter, forceExit: ForceExit): Promise<ExitCode> {
  const log = supervisorLogger(settings.logLevel);
  const supervisor = superviseWorkers({ workers: settings.workers, exec: LAUNCHER, args: ['serve', ...args], execArgv: ['--no-node-snapshot'], cwd: io.cwd, rateLimit: { perSecond: settings.ratePerSecond, burst: settings.burst }, log });
  signals.on('SIGHUP', () => supervisor.scan());
  const stopping = untilStopped(
    signals,
    settings.shutdownGraceMs,
    log,
    {
      stop: async (signal) => {
        const ended = await supervisor.stop(signal);
        if (ended.signal !== null) forceExit(signal);
        return ended;
      },
      // A second signal is passed on; the workers end themselves when their grace period is
      // over, and past that and a margin, one that has not is killed.
      force: (signal, reason) => (reason === GRACE_OVER ? supervisor.kill() : supervisor.force(signal, reason)),
    },
    SUPERVISOR_MARGIN_MS,
  );
  const start = await Promise.race([supervisor.started, stopping.stopped.then(() => undefined)]);
  // A signal before every worker was ready: stopped all the same.
  if (start === undefined) return EXIT.ok;
  if (!start.ok) {
    await supervisor.stop('SIGTERM');
    return fail(io, start.message);
  }
  log.info({ url: start.url, workers: settings.workers, pids: supervisor.pids(), modules: settings.modules, audit: shownLocation(settings.audit) }, 'adec serve is ready');
  const ended = await stopping.stopped;
  return ended.failed ? EXIT.inputErrors : EXIT.ok;
}

/** Past its workers' grace period, the supervisor waits this much longer before it kills one. */
const SUPERVISOR_MARGIN_MS = 2_000;

interface Stopping<T> {
  /** Stops gracefully; resolves once stopped. */
  readonly stop: (signal: NodeJS.Signals) => Promise<T>;
  /** Ends at once: a second signal came (`reason` names it), or the grace period is over (GRACE_OVER). */
  readonly force: (signal: NodeJS.Signals, reason: string) => void;
}

const GRACE_OVER = 'grace period over';

/**
 * Stops the service at its first SIGTERM or SIGINT, or when `request`ed (a worker told by its
 * supervisor); `stopped` resolves with what `stop` resolved with. A second signal, a request
 * with a reason, or the end of `graceMs` (and `marginMs`) forces the end.
 */
function untilStopped<T>(signals: NodeJS.EventEmitter, graceMs: number, log: ServiceLog, stopping: Stopping<T>, marginMs = 0) {
  let stopped!: (result: T) => void;
  const result = new Promise<T>((resolve) => (stopped = resolve));
  let first: { readonly signal: NodeJS.Signals; readonly at: number } | undefined;
  const begin = (signal: NodeJS.Signals) => {
    first = { signal, at: Date.now() };
    log.info({ signal, graceMs }, 'adec serve is stopping: draining decisions in flight and flushing the audit store');
    const deadline = setTimeout(() => stopping.force(signal, GRACE_OVER), graceMs + marginMs);
    void stopping.stop(signal).then((value) => {
      clearTimeout(deadline);
      stopped(value);
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (first === undefined) begin(signal);
    // Ctrl-C reaches both the launcher and this process, and the launcher passes it on (so
    // does a supervisor that signals the whole process group): the copy that arrives with
    // the first signal is the same request to stop, not a second one.
    else if (Date.now() - first.at >= SAME_SIGNAL_MS) stopping.force(signal, `a second ${signal}`);
  };
  signals.on('SIGTERM', () => onSignal('SIGTERM'));
  signals.on('SIGINT', () => onSignal('SIGINT'));
  return {
    stopped: result,
    /** Stops gracefully (once), or with a `forcedBy` reason at once. */
    request(signal: NodeJS.Signals, forcedBy?: string): void {
      if (forcedBy !== undefined) stopping.force(signal, forcedBy);
      else if (first === undefined) begin(signal);
    },
  };
}

/** Signals this close together are one request to stop. */
const SAME_SIGNAL_MS = 1_000;

function fail(io: CliIo, message: string): ExitCode {
  io.stderr.write(`adec serve: ${message}\n`);
  return EXIT.inputErrors;
}
