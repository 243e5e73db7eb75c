import { startDecisionHost } from '@adec/server';
import { parseOptions } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { hostConfig, loadDeployment, readServeSettings, settingOptions, shownLocation } from '../serve/deployment.js';
import { anchorEvery, readAnchorSigner } from '../serve/anchor-schedule.js';

export const usage = `usage: adec serve [--config <file.json>] [options]

Runs the decision service. It serves the signed, approved bundles under
<modules>/<org>/<domain>/<version>/ (where \`adec deploy\` puts them; a new or newly approved
one is picked up within 10 s), authenticates every /v1 call by its JWT
(Authorization: Bearer …), and commits every decision to the audit store before answering it.

  POST /v1/decide                   one action's decision: { status, work_frame, decision_metadata }
  POST /v1/select                   the whole ADE selection cycle: a DecisionResponse
  POST /v1/feedback                 an execution outcome of a selection (the user's memory)
  GET  /v1/decisions/{id}           a stored decision or selection of the caller's org
  POST /v1/decisions/{id}/replay    re-execute a stored decision: identical, or the differences
  POST /v1/mcp                      the MCP tools \`decide\` and \`select\` (Streamable HTTP)
  GET  /health/live, /health/ready  liveness; readiness
  GET  /metrics                     Prometheus metrics
  GET  /openapi.json                the OpenAPI 3.1 document of every route

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
  --recycle-after-decisions <n>  replace each sandbox process after this many decisions, the
                               replacement started first and the old one drained (default off)
  --recycle-above-rss-mb <n>   likewise once its resident set is above this many MiB (default off)
  --isolation <where>          where modules run, default auto: a module approved after a
                               byte-identical rebuild (adec approve) whose code this host
                               verifies runs in this process, any other in a sandbox process;
                               process or in-process: every module there
  --log-level <level>          fatal, error, warn, info (default), debug, trace, silent
Logs are JSON lines on standard output. SIGTERM or SIGINT stops the service gracefully: it
stops accepting, closes idle and half-sent connections at once, answers and records the
decisions in flight, flushes and closes the audit store, and exits 0. Past --shutdown-grace-ms,
or at a second SIGTERM or SIGINT, it ends at once, killed by that signal: every decision
answered is already recorded (a decision is answered only once its record is committed).`;

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

/** `adec serve`: the decision service, until a signal stops it. */
export async function run(args: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process, forceExit: ForceExit = dieBy): Promise<ExitCode> {
  const { values } = parseOptions(args, usage, settingOptions(), []);
  const settings = await readServeSettings(values, io, usage);
  const deployment = await loadDeployment(settings, io);
  if (!deployment.ok) return fail(io, deployment.message);
  const anchorSigner = settings.anchorKey === undefined ? undefined : await readAnchorSigner(settings.anchorKey, io.cwd);
  if (anchorSigner !== undefined && !anchorSigner.ok) return fail(io, anchorSigner.message);
  const started = await startDecisionHost({ ...hostConfig(settings, deployment), logger: { level: settings.logLevel } });
  if (!started.ok) return fail(io, `${started.code}: ${started.message}`);
  const { host } = started;
  host.app.log.info({ url: host.url, modules: settings.modules, audit: shownLocation(settings.audit) }, 'adec serve is ready');
  const anchoring = anchorSigner === undefined || settings.anchors === undefined ? undefined : anchorEvery(host.store, anchorSigner.signer, settings.anchors, settings.anchorIntervalSeconds, host.app.log);
  await new Promise<void>((stopped) => {
    let first: { readonly signal: NodeJS.Signals; readonly at: number } | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const force = (signal: NodeJS.Signals, reason: string) => {
      host.app.log.warn({ reason }, 'adec serve is exiting before every decision in flight was answered: each decision answered was recorded first');
      forceExit(signal);
    };
    const stop = (signal: NodeJS.Signals) => {
      if (first !== undefined) {
        // Ctrl-C reaches both the launcher and this process, and the launcher passes it on (so
        // does a supervisor that signals the whole process group): the copy that arrives with
        // the first signal is the same request to stop, not a second one.
        if (Date.now() - first.at >= SAME_SIGNAL_MS) force(signal, `a second ${signal}`);
        return;
      }
      first = { signal, at: Date.now() };
      host.app.log.info({ signal, graceMs: settings.shutdownGraceMs }, 'adec serve is stopping: draining decisions in flight and flushing the audit store');
      deadline = setTimeout(() => force(signal, `${settings.shutdownGraceMs} ms grace period over`), settings.shutdownGraceMs);
      void (anchoring?.stop() ?? Promise.resolve())
        .then(() => host.close())
        .then(() => {
          clearTimeout(deadline);
          stopped();
        });
    };
    signals.on('SIGTERM', () => stop('SIGTERM'));
    signals.on('SIGINT', () => stop('SIGINT'));
  });
  return EXIT.ok;
}

/** Signals this close together are one request to stop. */
const SAME_SIGNAL_MS = 1_000;

function fail(io: CliIo, message: string): ExitCode {
  io.stderr.write(`adec serve: ${message}\n`);
  return EXIT.inputErrors;
}
