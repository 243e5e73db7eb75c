import { dirname, resolve } from 'node:path';
import { loadTrustConfig, readRegularFile } from '@adec/runtime';
import { loadJwks, startDecisionHost } from '@adec/server';
import { parseOptions } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { environmentName, resolveServeSettings, SETTINGS, type SettingSources } from '../serve/serve-settings.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec serve [--config <file.json>] [options]

Runs the decision service: POST /v1/decide, GET /v1/decisions/{id}, POST
/v1/decisions/{id}/replay, /health/live, /health/ready, /metrics, /openapi.json. It serves
the signed, approved bundles under <modules>/<org>/<domain>/<version>/, authenticates callers
by JWT, and commits every decision to the audit store before answering it.

Each option can also be set by an ADEC_* environment variable (--max-in-flight is
ADEC_MAX_IN_FLIGHT) or by the same key in the --config JSON file; flags win over the
environment, the environment over the file. Relative paths in the file are relative to it.

  --modules <dir>              the bundle directory (required)
  --trust <trust.json>         signing and approval keys, as for adec verify (required)
  --jwks <jwks.json>           public keys of the token issuer (required)
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
  --log-level <level>          fatal, error, warn, info (default), debug, trace, silent
Logs are JSON lines on standard output. SIGTERM or SIGINT stops the service gracefully: decisions
in flight finish and are recorded, then the audit store is flushed and closed.`;

/** `adec serve`: the decision service, until a signal stops it. */
export async function run(args: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process): Promise<ExitCode> {
  const options = Object.fromEntries([['config', { type: 'string' as const }], ...SETTINGS.map((spec) => [spec.flag, { type: 'string' as const }])]);
  const { values } = parseOptions(args, usage, options, []);
  const sources = await settingSources(values, io);
  const resolved = resolveServeSettings(sources);
  if (!resolved.ok) throw new UsageError(`${resolved.problems.join('\n')}\n\n${usage}`);
  const { settings } = resolved;
  const fail = (message: string): ExitCode => {
    io.stderr.write(`adec serve: ${message}\n`);
    return EXIT.inputErrors;
  };

  const trust = await loadTrustConfig(settings.trust, io.cwd);
  if (!trust.ok) return fail(trust.message);
  const jwks = await loadJwks(settings.jwks);
  if (!jwks.ok) return fail(jwks.message);
  const started = await startDecisionHost({
    modules: settings.modules,
    trust: trust.trust,
    auth: { issuer: settings.issuer, audience: settings.audience, keys: jwks.keys },
    audit: settings.audit,
    host: settings.host,
    port: settings.port,
    rateLimit: { perSecond: settings.ratePerSecond, burst: settings.burst },
    maxInFlight: settings.maxInFlight,
    decisionTimeoutMs: settings.decisionTimeoutMs,
    retentionDays: settings.retentionDays,
    logger: { level: settings.logLevel },
  });
  if (!started.ok) return fail(`${started.code}: ${started.message}`);
  const { host } = started;
  host.app.log.info({ url: host.url, modules: settings.modules, audit: settings.audit.replace(/\/\/[^@/]*@/, '//…@') }, 'adec serve is ready');
  await new Promise<void>((stopped) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      host.app.log.info({ signal }, 'adec serve is stopping: draining decisions in flight and flushing the audit store');
      void host.close().then(stopped);
    };
    // \`on\`, not \`once\`: a second signal (Ctrl-C reaches both the launcher and this process,
    // and the launcher passes it on) must not kill a service that is draining.
    signals.on('SIGTERM', () => stop('SIGTERM'));
    signals.on('SIGINT', () => stop('SIGINT'));
  });
  return EXIT.ok;
}

async function settingSources(values: Readonly<Record<string, string | boolean | undefined>>, io: CliIo): Promise<SettingSources> {
  const env = Object.fromEntries(SETTINGS.map((spec) => [environmentName(spec.flag), process.env[environmentName(spec.flag)]]));
  const configPath = typeof values['config'] === 'string' ? values['config'] : process.env['ADEC_CONFIG'];
  if (configPath === undefined) return { flags: values, env, cwd: io.cwd };
  const path = resolve(io.cwd, configPath);
  const read = await readRegularFile(path, { maxBytes: 1024 * 1024, followSymlinks: true });
  if (!read.ok) throw new UsageError(`cannot read --config ${configPath}: it ${read.problem}\n\n${usage}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch (error) {
    throw new UsageError(`--config ${configPath} is not JSON: ${(error as Error).message}\n\n${usage}`);
  }
  return { flags: values, env, file: { name: configPath, values: parsed }, cwd: io.cwd, fileDir: dirname(path) };
}
