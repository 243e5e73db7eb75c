/**
 * What `adec serve` and `adec mcp` share: reading their settings (flags, `ADEC_*` environment,
 * config file), loading the trust file and the token issuer's keys they name, and the host
 * configuration they start with. The two commands differ only in how callers reach the service.
 */
import { dirname, resolve } from 'node:path';
import { loadTrustConfig, readRegularFile, type TrustConfig } from '@adec/runtime';
import { loadJwks, type AuthConfig, type DecisionHostConfig } from '@adec/server';
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';
import { environmentName, resolveServeSettings, SETTINGS, type ServeSettings, type SettingSources } from './serve-settings.js';

type Values = Readonly<Record<string, string | boolean | undefined>>;

/** The parseArgs options of every setting, plus `--config` and the command's `extra` options. */
export function settingOptions(...extra: string[]): Record<string, { readonly type: 'string' }> {
  const names = ['config', ...extra, ...SETTINGS.map((spec) => spec.flag)];
  return Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
}

/** The settings from `values` (parsed flags), the environment and the config file; usage errors name every problem. */
export async function readServeSettings(values: Values, io: CliIo, usage: string): Promise<ServeSettings> {
  const resolved = resolveServeSettings(await settingSources(values, io, usage));
  if (!resolved.ok) throw new UsageError(`${resolved.problems.join('\n')}\n\n${usage}`);
  return resolved.settings;
}

async function settingSources(values: Values, io: CliIo, usage: string): Promise<SettingSources> {
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

export type Deployment = { readonly ok: true; readonly trust: TrustConfig; readonly auth: AuthConfig } | { readonly ok: false; readonly message: string };

/** The trust file and the token issuer's keys the settings name, each refusal naming its file. */
export async function loadDeployment(settings: ServeSettings, io: CliIo): Promise<Deployment> {
  const trust = await loadTrustConfig(settings.trust, io.cwd);
  if (!trust.ok) return { ok: false, message: trust.message };
  const jwks = await loadJwks(settings.jwks);
  if (!jwks.ok) return { ok: false, message: jwks.message };
  return { ok: true, trust: trust.trust, auth: { issuer: settings.issuer, audience: settings.audience, keys: jwks.keys } };
}

/**
 * The host configuration of a deployment (without how it listens and logs). A worker process
 * (`share` of the service's `--workers`) holds its share of the caps on connections and on
 * decisions in flight, so the service's caps are what the settings say whatever N is.
 */
export function hostConfig(settings: ServeSettings, deployment: Extract<Deployment, { ok: true }>, share = 1): DecisionHostConfig {
  const shareOf = (cap: number) => Math.ceil(cap / share);
  return {
    modules: settings.modules,
    trust: deployment.trust,
    auth: deployment.auth,
    audit: settings.audit,
    host: settings.host,
    port: settings.port,
    rateLimit: { perSecond: settings.ratePerSecond, burst: settings.burst },
    maxInFlight: shareOf(settings.maxInFlight),
    decisionTimeoutMs: settings.decisionTimeoutMs,
    retentionDays: settings.retentionDays,
    connectionLimits: {
      headersTimeoutMs: settings.headersTimeoutMs,
      bodyTimeoutMs: settings.bodyTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
      idleTimeoutMs: settings.idleTimeoutMs,
      keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
      maxRequestsPerConnection: settings.maxRequestsPerConnection,
      maxConnections: shareOf(settings.maxConnections),
      maxConnectionsPerAddress: shareOf(settings.maxConnectionsPerAddress),
    },
    sandbox: {
      isolation: settings.isolation,
      ...(settings.recycleAfterDecisions !== undefined && { recycleAfterDecisions: settings.recycleAfterDecisions }),
      ...(settings.recycleAboveRssMb !== undefined && { recycleAboveRssMb: settings.recycleAboveRssMb }),
    },
  };
}

/** The audit location as a log line may show it: a PostgreSQL URL without its credentials. */
export function shownLocation(audit: string): string {
  return audit.replace(/\/\/[^@/]*@/, '//…@');
}
