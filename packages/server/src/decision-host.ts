/**
 * A running decision service: the module loader (verified bundles in the pooled sandbox host),
 * the audit store, the service and its HTTP application, started together and stopped in the
 * order that loses nothing. Stopping first refuses new requests (readiness goes false, the
 * listener closes, idle and half-sent connections are closed at once: http/service-server.ts),
 * lets every decision in flight finish, commit its record and be answered, then flushes the
 * audit queue and closes the store, and only then stops the sandbox processes. How long that may
 * take is the caller's to bound (`adec serve --shutdown-grace-ms`: packages/server/README.md
 * "Stopping").
 */
import { DEFAULT_RETENTION_DAYS, openAuditStore, type AuditStore } from '@adec/audit';
import { cloudLlmExecutor, cloudLlmFromEnvironment, prepareSelection, SELECTION_EXTENSION, type CloudLlmOptions, type LlmExecutor, type TraceSigner } from '@adec/engine';
import { DEFAULT_REQUEST_LIMITS, DirectoryModuleStore, ModuleLoader, type RequestLimits, type SandboxOptions, type TrustConfig } from '@adec/runtime';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { TokenVerifier, type AuthConfig } from './auth/index.js';
import { Admission } from './admission.js';
import { DecisionService } from './decision-service.js';
import { FeedbackService } from './feedback-service.js';
import { SelectionService } from './selection-service.js';
import { createApp } from './http/create-app.js';
import { connectionLimits, type ConnectionLimits } from './http/connection-limits.js';
import { DEFAULT_MODULE_SCAN_MS, watchModules } from './module-watch.js';
import { ServiceMetrics } from './service-metrics.js';
import { LeasedRateLimits } from './leased-rate-limits.js';
import { TenantRateLimits, type RateLimit } from './tenant-rate-limits.js';
import type { WorkerLink } from './workers/worker-link.js';

export interface DecisionHostConfig {
  /** Where bundles live: `<modules>/<org>/<domain>/<version>/`. */
  readonly modules: string;
  readonly trust: TrustConfig;
  readonly auth: AuthConfig;
  /**
   * The audit store: a SQLite file path or a `postgres://` URL, or a store the embedding
   * application opened itself (the host closes it; its commits are not in the metrics).
   */
  readonly audit: string | AuditStore;
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** false: everything but the HTTP listener, for `adec mcp`, which serves the decide tool over stdio (default true). */
  readonly listen?: boolean;
  readonly rateLimit?: RateLimit;
  readonly maxInFlight?: number;
  readonly decisionTimeoutMs?: number;
  readonly requestLimits?: RequestLimits;
  /** Deadlines for a request's headers, body and whole, and caps on connections (defaults: DEFAULT_CONNECTION_LIMITS). */
  readonly connectionLimits?: Partial<ConnectionLimits>;
  readonly sandbox?: SandboxOptions;
  /** How often the bundle directory is scanned for new, replaced and expired modules (default 10 s). */
  readonly moduleScanMs?: number;
  /**
   * The model behind LLM skills: an OpenAI-compatible endpoint (default: `ADEC_LLM_URL`,
   * `ADEC_LLM_MODEL`, `ADEC_LLM_API_KEY`; none set: LLM skills run their deterministic fallback,
   * flagged). `executors` replaces it entirely (tests pass a scripted llm_stub).
   */
  readonly llm?: CloudLlmOptions | null;
  readonly executors?: readonly LlmExecutor[];
  /** Names no skill output may mention (docs/spec/skill-contract.md §4). */
  readonly competitorNames?: readonly string[];
  /** The Ed25519 key that signs every selection's reasoning trace (docs/spec/contracts.md §4); none: traces are unsigned. */
  readonly traceSigner?: TraceSigner;
  /** Audit records older than this are purged at start and then daily (default 90). */
  readonly retentionDays?: number;
  readonly logger?: FastifyServerOptions['logger'];
  /**
   * A worker process of `adec serve --workers N` (packages/server/README.md "Worker processes"):
   * rate limits are leased from the supervisor's buckets, /metrics adds up every worker's, and
   * only the worker in slot 0 purges old records.
   */
  readonly worker?: WorkerLink;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 1_000, burst: 2_000 };
export const DEFAULT_MAX_IN_FLIGHT = 1_024;
export const DEFAULT_DECISION_TIMEOUT_MS = 5_000;

export interface DecisionHost {
  /** `http://host:port` the service listens on; null when it was started with `listen: false`. */
  readonly url: string | null;
  readonly app: FastifyInstance;
  /** The decide operation every transport shares: the HTTP routes and the MCP tool. */
  readonly service: DecisionService;
  /** The select operation (the ADE cycle), shared the same way. */
  readonly selections: SelectionService;
  readonly store: AuditStore;
  readonly loader: ModuleLoader;
  /** Scans the bundle directory now (as the host does every `moduleScanMs`). */
  scanModules(): Promise<void>;
  /** Drains in-flight decisions, flushes the audit queue, stops the sandbox processes. */
  close(): Promise<void>;
}

export type StartedHost = { readonly ok: true; readonly host: DecisionHost } | { readonly ok: false; readonly code: string; readonly message: string };

export async function startDecisionHost(config: DecisionHostConfig): Promise<StartedHost> {
  const metrics = new ServiceMetrics(config.worker?.slot);
  // Undefined until the app exists, which needs the services these callbacks are given first.
  let log: FastifyInstance['log'] | undefined = undefined;
  // Rows inserted past a chain's head outside adec are set aside and the decision recorded after the true head (packages/audit/README.md).
  const onRowsSetAside = (tenant: string, seqs: readonly number[]) => log?.error({ code: 'ROWS_BEYOND_HEAD', tenant, seqs }, `the audit chain of ${tenant} had ${seqs.length} record(s) past its head, inserted outside adec; they were set aside in decision_records_beyond_head and the decision was recorded after the true head: run adec audit verify`);
  const opened = typeof config.audit === 'string' ? await openAuditStore(config.audit, { onCommit: metrics.onCommit, onRowsSetAside }) : { ok: true as const, store: config.audit };
  if (!opened.ok) return opened;
  const store = opened.store;
  const modules = new DirectoryModuleStore(config.modules);
  // Every module can select as well as decide: the engine's stages run inside its isolate, and
  // what a selection needs is prepared while the module loads (docs/spec/selection.md §7.4).
  const loader = new ModuleLoader({ store: modules, trust: config.trust, sandbox: { ...config.sandbox, extensions: [...(config.sandbox?.extensions ?? []), SELECTION_EXTENSION], prepare: prepareSelection } });
  metrics.watch(loader, store);
  const rateLimit = config.rateLimit ?? DEFAULT_RATE_LIMIT;
  const admission = new Admission(config.worker === undefined ? new TenantRateLimits(rateLimit) : new LeasedRateLimits(rateLimit, config.worker.leases), config.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  const selections = new SelectionService({
    loader,
    store,
    admission,
    executors: config.executors ?? executorsFor(config.llm === undefined ? cloudLlmFromEnvironment() : config.llm),
    ...(config.competitorNames !== undefined && { competitorNames: config.competitorNames }),
    ...(config.traceSigner !== undefined && { traceSigner: config.traceSigner }),
    observer: {
      selected: (outcome, seconds) => metrics.selected(outcome, seconds),
      refused: (code) => metrics.refused(code),
      authorityViolation: (tenant, skill, failures) => log?.warn({ tenant, skill, failures }, 'a skill output tried to cross the authority boundary; it was rejected and the fallback answered'),
    },
  });
  const service = new DecisionService({ loader, store, admission, selections, observer: metrics, decisionTimeoutMs: config.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS });
  let ready = false;
  const feedback = new FeedbackService({ loader, store, admission, onRefused: (code) => metrics.refused(code) });
  const metricsText = config.worker?.serveMetrics(metrics.registry) ?? (async () => ({ text: await metrics.registry.metrics(), contentType: metrics.registry.contentType }));
  const app = createApp({ service, selections, feedback, verifier: new TokenVerifier(config.auth), metrics, metricsText, requestLimits: config.requestLimits ?? DEFAULT_REQUEST_LIMITS, connectionLimits: connectionLimits(config.connectionLimits), isReady: () => ready, logger: config.logger });
  log = app.log;
  try {
    await loader.ready();
    const watch = watchModules(loader, modules, app.log, config.moduleScanMs ?? DEFAULT_MODULE_SCAN_MS);
    await watch.scan();
    // The loads took booted spares (and prepared their modules): the first requests should not
    // share the machine with booting their replacements (docs/spec/selection.md §7.4).
    await loader.ready();
    const url = config.listen === false ? null : await app.listen({ host: config.host ?? '127.0.0.1', port: config.port ?? 0 });
    ready = true;
    // One purge for the service: with worker processes, slot 0's.
    const retention = config.worker === undefined || config.worker.slot === 0 ? retainFor(app, store, (config.retentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS) : undefined;
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= (async () => {
      ready = false;
      clearInterval(retention);
      watch.stop();
      await app.close();
      await store.close();
      await loader.close();
    })());
    return { ok: true, host: { url, app, service, selections, store, loader, scanModules: watch.scan, close } };
  } catch (error) {
    await app.close();
    await store.close();
    await loader.close();
    return { ok: false, code: 'LISTEN_FAILED', message: `the service could not listen on ${config.host ?? '127.0.0.1'}:${config.port ?? 0}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function executorsFor(llm: CloudLlmOptions | null | undefined): LlmExecutor[] {
  return llm === null || llm === undefined ? [] : [cloudLlmExecutor(llm)];
}

/** Purges records older than `retentionMs` now and once a day; each purge is logged. */
function retainFor(app: FastifyInstance, store: AuditStore, retentionMs: number): NodeJS.Timeout {
  const purge = async () => {
    const purged = await store.purge(Date.now() - retentionMs);
    if (!purged.ok) app.log.error({ code: purged.code }, `audit retention purge failed: ${purged.message}`);
    else if (purged.value.some((report) => report.removed > 0 || report.memoryRemoved > 0)) app.log.info({ purged: purged.value.filter((report) => report.removed > 0 || report.memoryRemoved > 0) }, 'audit retention purge');
  };
  void purge();
  return setInterval(() => void purge(), DAY_MS).unref();
}
