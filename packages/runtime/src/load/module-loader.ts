/**
 * The loader (ARCHITECTURE.md pipeline step 7; seed 002 phase 2): routing key → verified,
 * loaded module.
 *
 * A cache miss fetches the bundle's bytes from the module store once, verifies hash, signature
 * and approval against the trust configuration, and only then starts a sandbox with those same
 * bytes: nothing from a refused bundle ever runs. Concurrent misses for one key share one load
 * (single flight). One bundle holds every action of a world, so all routing keys of a world
 * share one loaded module and one sandbox; `unload` releases it. A failed load is not cached:
 * the next request tries again, so a fixed bundle is picked up without a restart.
 */
import type { TrustConfig } from '../trust/trust-config.js';
import type { VerificationCode } from '../trust/verification-failure.js';
import { verifyBundle } from '../trust/verify-bundle.js';
import { LoadedApprovals } from '../trust/loaded-approvals.js';
import { SandboxProcessPool, type SandboxPoolStats } from '../sandbox/sandbox-process-pool.js';
import { DEFAULT_MEMORY_LIMIT_MB, loadModule, type SandboxOptions } from './load-module.js';
import type { LoadedModule } from './loaded-module.js';
import type { ModuleStore } from './module-store.js';
import { messageOf } from '../error-message.js';

/** `(org_id, domain, action, world_model_version)`: what a request names. */
export interface RoutingKey {
  readonly org: string;
  readonly domain: string;
  readonly action: string;
  readonly version: string;
}

export type LoadErrorCode = 'ROUTING_KEY_INVALID' | 'MODULE_NOT_FOUND' | 'UNKNOWN_ACTION' | 'MODULE_INVALID' | 'MODULE_UNAVAILABLE' | 'HOST_AT_CAPACITY' | VerificationCode;

export interface LoadError {
  readonly code: LoadErrorCode;
  readonly message: string;
}

export type ModuleLookup = { readonly ok: true; readonly module: LoadedModule } | { readonly ok: false; readonly error: LoadError };

/** What a host's metrics report about its modules. */
export interface ModuleLoaderStats {
  /** Loads that ended with a module in a sandbox, and loads that failed (each retry counts). */
  readonly loads: number;
  readonly failedLoads: number;
  /** Worlds loaded now. */
  readonly worlds: number;
  /** The shared sandbox processes (process isolation), or null in-process. */
  readonly sandbox: SandboxPoolStats | null;
}

export interface ModuleLoaderOptions {
  readonly store: ModuleStore;
  readonly trust: TrustConfig;
  readonly sandbox?: SandboxOptions;
}

/**
 * After a failed load, a world is retried no sooner than this, doubling with each failure in a
 * row up to MAX_RETRY_BACKOFF_MS: a transient store failure heals by itself, and a broken or
 * refused bundle is not fetched and verified again for every request in the meantime.
 */
export const RETRY_BACKOFF_MS = 100;
export const MAX_RETRY_BACKOFF_MS = 10_000;
/** The longest routing key segment accepted. */
const MAX_SEGMENT_LENGTH = 200;

interface RecentFailure {
  readonly lookup: ModuleLookup;
  readonly failures: number;
  readonly retryAt: number;
}

export class ModuleLoader {
  /** Loads in flight or done, by world (org, domain, version). */
  readonly #worlds = new Map<string, Promise<ModuleLookup>>();
  /** Worlds whose last load failed, until their retry time. */
  readonly #failures = new Map<string, RecentFailure>();

  /** The newest approval loaded per world version: an older one cannot replace it (trust/loaded-approvals.ts). */
  readonly #approvals = new LoadedApprovals();

  /** Booted sandbox processes, in `process` isolation, started with the loader (host start). */
  readonly #processes: SandboxProcessPool | undefined;

  #loads = 0;
  #failedLoads = 0;

  constructor(private readonly options: ModuleLoaderOptions) {
    if ((options.sandbox?.isolation ?? 'process') === 'process') {
      const { processes, spareProcesses: spares, queueLimit, moduleBudget, memoryBudgetMb, memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB } = options.sandbox ?? {};
      this.#processes = new SandboxProcessPool({ processes, spares, queueLimit, moduleBudget, memoryBudgetMb, memoryLimitMb });
    }
  }

  /** Resolves when the spare sandbox processes have booted (e.g. before a host reports ready). */
  async ready(): Promise<void> {
    await this.#processes?.ready();
  }

  /** The module serving `key`, loading it on a miss. Never throws: every failure is a value. */
  async get(key: RoutingKey): Promise<ModuleLookup> {
    const invalid = routingKeyProblem(key);
    if (invalid !== undefined) return { ok: false, error: { code: 'ROUTING_KEY_INVALID', message: invalid } };
    const world = worldKey(key);
    const failed = this.#failures.get(world);
    if (failed !== undefined && Date.now() < failed.retryAt) return failed.lookup;
    let load = this.#worlds.get(world);
    if (load === undefined) {
      load = this.#load(key).catch((error: unknown): ModuleLookup => ({ ok: false, error: { code: 'MODULE_UNAVAILABLE', message: `${describeWorld(key)} could not be loaded: ${messageOf(error)}` } }));
      this.#worlds.set(world, load);
      // Failures are not cached: they are retried after a backoff. A success stays until unloaded.
      void load.then((lookup) => this.#settled(world, load!, lookup));
    }
    const lookup = await load;
    if (!lookup.ok || lookup.module.metadata.actions.has(key.action)) return lookup;
    const actions = [...lookup.module.metadata.actions.keys()].join(', ') || 'none';
    return { ok: false, error: { code: 'UNKNOWN_ACTION', message: `${describeWorld(key)} has no action \`${key.action}\` (actions: ${actions})` } };
  }

  /** Releases the module of `key`'s world and its sandbox; the next request loads it again. */
  async unload(key: Omit<RoutingKey, 'action'>): Promise<boolean> {
    const world = worldKey(key);
    const load = this.#worlds.get(world);
    if (load === undefined) return false;
    this.#worlds.delete(world);
    const lookup = await load;
    if (lookup.ok) await lookup.module.evaluator.dispose();
    return true;
  }

  stats(): ModuleLoaderStats {
    const worlds = this.#worlds.size;
    return { loads: this.#loads, failedLoads: this.#failedLoads, worlds, sandbox: this.#processes?.stats() ?? null };
  }

  /** Unloads everything and stops the spare sandbox processes. */
  async close(): Promise<void> {
    this.#processes?.close();
    const worlds = [...this.#worlds.values()];
    this.#worlds.clear();
    await Promise.all(worlds.map(async (load) => {
      const lookup = await load;
      if (lookup.ok) await lookup.module.evaluator.dispose();
    }));
  }

  #settled(world: string, load: Promise<ModuleLookup>, lookup: ModuleLookup): void {
    if (lookup.ok) {
      this.#loads += 1;
      this.#failures.delete(world);
      return;
    }
    this.#failedLoads += 1;
    if (this.#worlds.get(world) === load) this.#worlds.delete(world);
    const failures = (this.#failures.get(world)?.failures ?? 0) + 1;
    const backoff = Math.min(RETRY_BACKOFF_MS * 2 ** (failures - 1), MAX_RETRY_BACKOFF_MS);
    this.#failures.set(world, { lookup, failures, retryAt: Date.now() + backoff });
  }

  async #load(key: RoutingKey): Promise<ModuleLookup> {
    const read: unknown = await this.options.store.read({ org: key.org, domain: key.domain, version: key.version });
    if (read === null || typeof read !== 'object' || typeof (read as { ok?: unknown }).ok !== 'boolean') {
      return { ok: false, error: { code: 'MODULE_UNAVAILABLE', message: `the module store answered ${describeWorld(key)} with something that is not a result` } };
    }
    const result = read as Awaited<ReturnType<ModuleStore['read']>>;
    if (!result.ok) return { ok: false, error: result.error };
    const verified = verifyBundle(result.files, this.options.trust);
    if (!verified.ok) return { ok: false, error: { code: verified.failure.code, message: `${describeWorld(key)} was refused: ${verified.failure.message}` } };
    const routedWorld = verified.bundle.manifest['world'] as Record<string, unknown> | undefined;
    if (routedWorld?.['org'] !== key.org || routedWorld['domain'] !== key.domain || routedWorld['version'] !== key.version) {
      return { ok: false, error: { code: 'MODULE_INVALID', message: `the store returned ${JSON.stringify(routedWorld)} for ${describeWorld(key)}` } };
    }
    const older = this.#approvals.admit(verified.bundle);
    if (older !== undefined) return { ok: false, error: { code: older.code, message: `${describeWorld(key)} was refused: ${older.message}` } };
    const loaded = await loadModule(verified.bundle, this.options.sandbox, this.#processes);
    return loaded.ok ? { ok: true, module: loaded.module } : { ok: false, error: { code: loaded.code, message: `${describeWorld(key)}: ${loaded.message}` } };
  }
}

/** Why a routing key cannot name a module: every segment a short string without control characters. */
function routingKeyProblem(key: unknown): string | undefined {
  if (key === null || typeof key !== 'object') return 'a routing key is an object with org, domain, action and version';
  for (const field of ['org', 'domain', 'action', 'version'] as const) {
    const value = (key as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value.length === 0) return `the routing key's ${field} must be a non-empty string`;
    if (value.length > MAX_SEGMENT_LENGTH) return `the routing key's ${field} is longer than ${MAX_SEGMENT_LENGTH} characters`;
    if (/[\u0000-\u001f\u007f]/.test(value)) return `the routing key's ${field} holds a control character`;
  }
  return undefined;
}

function worldKey(key: Omit<RoutingKey, 'action'>): string {
  return JSON.stringify([key.org, key.domain, key.version]);
}

function describeWorld(key: Omit<RoutingKey, 'action'>): string {
  return `module ${key.org}/${key.domain}@${key.version}`;
}
