/**
 * `adec serve`'s settings, from three sources in order of precedence: command-line flags, then
 * `ADEC_*` environment variables, then an optional JSON config file, then the defaults. Every
 * value is checked, and every problem is reported together, each naming where the value came
 * from (`--port`, `ADEC_PORT` or `serve.json: port`), so a deployment is fixed in one go.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Isolation } from '@adec/runtime';
import { DEFAULT_CONNECTION_LIMITS as CONNECTIONS, type ConnectionLimits } from '@adec/server';

/**
 * Every setting; the HTTP edge's deadlines and connection caps are ConnectionLimits'
 * (packages/server/README.md "Slow and numerous clients").
 */
export interface ServeSettings extends ConnectionLimits {
  /** The bundle directory: `<modules>/<org>/<domain>/<version>/`. */
  readonly modules: string;
  /** The trust file (`adec verify --trust`): signing and approval keys. */
  readonly trust: string;
  /** A JWK set file with the public keys tokens are signed with. */
  readonly jwks: string;
  readonly issuer: string;
  readonly audience: string;
  /** A SQLite file or a `postgres://` URL. */
  readonly audit: string;
  readonly host: string;
  readonly port: number;
  readonly ratePerSecond: number;
  readonly burst: number;
  readonly maxInFlight: number;
  readonly decisionTimeoutMs: number;
  readonly retentionDays: number;
  /**
   * After SIGTERM or SIGINT, how long decisions in flight may take to be answered and recorded
   * before the process exits anyway (packages/server/README.md "Stopping").
   */
  readonly shutdownGraceMs: number;
  /**
   * Signed anchors of every chain's head (packages/audit/README.md "Anchors"): the JSON lines
   * file they are appended to, the Ed25519 private key that signs them, and how often. Both or
   * neither of the file and the key.
   */
  readonly anchors?: string;
  readonly anchorKey?: string;
  readonly traceKey?: string;
  readonly anchorIntervalSeconds: number;
  /**
   * Recycle each sandbox process after this many decisions, or once its resident set is above
   * this many MiB (packages/runtime/README.md "Recycling"); off when not set.
   */
  readonly recycleAfterDecisions?: number;
  readonly recycleAboveRssMb?: number;
  /** Where modules run (packages/runtime/README.md "Isolation"): `auto`, `process` or `in-process`. */
  readonly isolation: Isolation;
  /**
   * Worker processes, each a whole service on the shared port, under a supervisor
   * (packages/server/README.md "Worker processes"); 1 runs the service in this one process.
   */
  readonly workers: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

type Kind = 'path' | 'text' | 'location' | 'port' | 'positive' | 'count' | 'level' | 'isolation';

interface SettingSpec {
  readonly name: keyof ServeSettings;
  readonly flag: string;
  readonly kind: Kind;
  readonly fallback?: string | number;
  /** A setting without a default that may be left out. */
  readonly optional?: true;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ISOLATIONS: readonly Isolation[] = ['auto', 'process', 'in-process'];

/** Every setting: its flag (also its config file key), its kind, and its default if it has one. */
export const SETTINGS: readonly SettingSpec[] = [
  { name: 'modules', flag: 'modules', kind: 'path' },
  { name: 'trust', flag: 'trust', kind: 'path' },
  { name: 'jwks', flag: 'jwks', kind: 'path' },
  { name: 'issuer', flag: 'issuer', kind: 'text' },
  { name: 'audience', flag: 'audience', kind: 'text' },
  { name: 'audit', flag: 'audit', kind: 'location', fallback: 'adec-audit.db' },
  { name: 'host', flag: 'host', kind: 'text', fallback: '127.0.0.1' },
  { name: 'port', flag: 'port', kind: 'port', fallback: 8080 },
  { name: 'ratePerSecond', flag: 'rate-limit', kind: 'positive', fallback: 1_000 },
  { name: 'burst', flag: 'burst', kind: 'positive', fallback: 2_000 },
  { name: 'maxInFlight', flag: 'max-in-flight', kind: 'count', fallback: 1_024 },
  { name: 'decisionTimeoutMs', flag: 'decision-timeout-ms', kind: 'count', fallback: 5_000 },
  { name: 'retentionDays', flag: 'retention-days', kind: 'count', fallback: 90 },
  // Below the 30 s a Kubernetes pod has by default between SIGTERM and SIGKILL: the service exits on its own first.
  { name: 'shutdownGraceMs', flag: 'shutdown-grace-ms', kind: 'count', fallback: 25_000 },
  { name: 'headersTimeoutMs', flag: 'headers-timeout-ms', kind: 'count', fallback: CONNECTIONS.headersTimeoutMs },
  { name: 'bodyTimeoutMs', flag: 'body-timeout-ms', kind: 'count', fallback: CONNECTIONS.bodyTimeoutMs },
  { name: 'requestTimeoutMs', flag: 'request-timeout-ms', kind: 'count', fallback: CONNECTIONS.requestTimeoutMs },
  { name: 'idleTimeoutMs', flag: 'idle-timeout-ms', kind: 'count', fallback: CONNECTIONS.idleTimeoutMs },
  { name: 'keepAliveTimeoutMs', flag: 'keep-alive-timeout-ms', kind: 'count', fallback: CONNECTIONS.keepAliveTimeoutMs },
  { name: 'maxRequestsPerConnection', flag: 'max-requests-per-connection', kind: 'count', fallback: CONNECTIONS.maxRequestsPerConnection },
  { name: 'maxConnections', flag: 'max-connections', kind: 'count', fallback: CONNECTIONS.maxConnections },
  { name: 'maxConnectionsPerAddress', flag: 'max-connections-per-address', kind: 'count', fallback: CONNECTIONS.maxConnectionsPerAddress },
  { name: 'anchors', flag: 'anchors', kind: 'path', optional: true },
  { name: 'anchorKey', flag: 'anchor-key', kind: 'path', optional: true },
  { name: 'anchorIntervalSeconds', flag: 'anchor-interval-seconds', kind: 'count', fallback: 300 },
  { name: 'traceKey', flag: 'trace-key', kind: 'path', optional: true },
  { name: 'recycleAfterDecisions', flag: 'recycle-after-decisions', kind: 'count', optional: true },
  { name: 'recycleAboveRssMb', flag: 'recycle-above-rss-mb', kind: 'count', optional: true },
  { name: 'isolation', flag: 'isolation', kind: 'isolation', fallback: 'auto' },
  { name: 'workers', flag: 'workers', kind: 'count', fallback: availableParallelism() },
  { name: 'logLevel', flag: 'log-level', kind: 'level', fallback: 'info' },
];

/** `ADEC_` and the flag in upper snake case: `--max-in-flight` → `ADEC_MAX_IN_FLIGHT`. */
export function environmentName(flag: string): string {
  return `ADEC_${flag.toUpperCase().replaceAll('-', '_')}`;
}

export interface SettingSources {
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The parsed config file and how messages name it, if one was given. */
  readonly file?: { readonly name: string; readonly values: unknown };
  /** Relative paths resolve against this (a config file's paths: against its directory). */
  readonly cwd: string;
  readonly fileDir?: string;
}

export type SettingsResult = { readonly ok: true; readonly settings: ServeSettings } | { readonly ok: false; readonly problems: readonly string[] };

export function resolveServeSettings(sources: SettingSources): SettingsResult {
  const problems: string[] = [];
  const fileValues = configFileValues(sources, problems);
  const settings: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const found = lookup(spec, sources, fileValues);
    if (found === undefined) {
      if (spec.optional) continue;
      if (spec.fallback === undefined) problems.push(`missing --${spec.flag} (or ${environmentName(spec.flag)}, or \`${spec.flag}\` in a --config file)`);
      else settings[spec.name] = spec.kind === 'path' || spec.kind === 'location' ? resolvePath(String(spec.fallback), sources.cwd) : spec.fallback;
      continue;
    }
    const checked = checkValue(spec.kind, found.value, found.baseDir);
    if (typeof checked === 'object') problems.push(`${found.source} ${checked.problem}`);
    else settings[spec.name] = checked;
  }
  problems.push(...inconsistencies(settings));
  if ((settings['anchors'] === undefined) !== (settings['anchorKey'] === undefined)) problems.push('--anchors and --anchor-key go together: the file signed anchors are appended to, and the key that signs them');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: settings as unknown as ServeSettings };
}

/** Settings valid alone but not together. */
function inconsistencies(settings: Partial<ServeSettings>): string[] {
  const { headersTimeoutMs, requestTimeoutMs, idleTimeoutMs, decisionTimeoutMs } = settings;
  const problems: string[] = [];
  if (headersTimeoutMs !== undefined && requestTimeoutMs !== undefined && headersTimeoutMs > requestTimeoutMs) {
    problems.push(`--headers-timeout-ms (${headersTimeoutMs}) must not be longer than --request-timeout-ms (${requestTimeoutMs}): the headers are part of the request`);
  }
  // A connection waiting for its decision sends and receives nothing: it must outlast the decision.
  if (idleTimeoutMs !== undefined && decisionTimeoutMs !== undefined && idleTimeoutMs <= decisionTimeoutMs) {
    problems.push(`--idle-timeout-ms (${idleTimeoutMs}) must be longer than --decision-timeout-ms (${decisionTimeoutMs}): a connection waiting for its decision is idle`);
  }
  return problems;
}

interface Found {
  readonly value: unknown;
  readonly source: string;
  readonly baseDir: string;
}

function lookup(spec: SettingSpec, sources: SettingSources, fileValues: Record<string, unknown>): Found | undefined {
  const flag = sources.flags[spec.flag];
  if (flag !== undefined) return { value: flag, source: `--${spec.flag}`, baseDir: sources.cwd };
  const env = sources.env[environmentName(spec.flag)];
  if (env !== undefined && env !== '') return { value: env, source: environmentName(spec.flag), baseDir: sources.cwd };
  if (spec.flag in fileValues) return { value: fileValues[spec.flag], source: `${sources.file!.name}: \`${spec.flag}\``, baseDir: sources.fileDir ?? sources.cwd };
  return undefined;
}

function configFileValues(sources: SettingSources, problems: string[]): Record<string, unknown> {
  if (sources.file === undefined) return {};
  const { name, values } = sources.file;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    problems.push(`${name} must hold a JSON object of settings`);
    return {};
  }
  const known = new Set(SETTINGS.map((spec) => spec.flag));
  for (const key of Object.keys(values)) {
    if (!known.has(key)) problems.push(`${name}: \`${key}\` is not a setting (settings: ${[...known].join(', ')})`);
  }
  return values as Record<string, unknown>;
}

/** The checked value, or the problem with it (the caller prefixes where it came from). */
function checkValue(kind: Kind, value: unknown, baseDir: string): string | number | { problem: string } {
  const shown = `\`${String(value).slice(0, 100)}\``;
  switch (kind) {
    case 'path':
    case 'location':
    case 'text': {
      if (typeof value !== 'string' || value.trim() === '') return { problem: `must be a non-empty string, found ${shown}` };
      if (kind === 'text') return value;
      return kind === 'location' && /^postgres(ql)?:\/\//i.test(value) ? value : resolvePath(value, baseDir);
    }
    case 'level':
      return (LOG_LEVELS as readonly unknown[]).includes(value) ? (value as string) : { problem: `${shown} is not a log level (${LOG_LEVELS.join(', ')})` };
    case 'isolation':
      return (ISOLATIONS as readonly unknown[]).includes(value) ? (value as string) : { problem: `${shown} is not an isolation (${ISOLATIONS.join(', ')})` };
    case 'port':
    case 'positive':
    case 'count': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
      if (kind === 'port') return Number.isInteger(number) && number >= 0 && number <= 65_535 ? number : { problem: `${shown} is not a port (an integer 0–65535)` };
      if (kind === 'count') return Number.isInteger(number) && number >= 1 ? number : { problem: `${shown} is not a whole number of at least 1` };
      return Number.isFinite(number) && number > 0 ? number : { problem: `${shown} is not a positive number` };
    }
  }
}

function resolvePath(path: string, baseDir: string): string {
  return resolve(baseDir, path.replace(/^sqlite:/i, ''));
}
