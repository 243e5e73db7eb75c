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
import { SandboxProcessPool } from '../sandbox/sandbox-process-pool.js';
import { DEFAULT_MEMORY_LIMIT_MB, loadModule, type SandboxOptions } from './load-module.js';
import type { LoadedModule } from './loaded-module.js';
import type { ModuleStore } from './module-store.js';

/** `(org_id, domain, action, world_model_version)`: what a request names. */
export interface RoutingKey {
  readonly org: string;
  readonly domain: string;
  readonly action: string;
  readonly version: string;
}

export type LoadErrorCode = 'MODULE_NOT_FOUND' | 'UNKNOWN_ACTION' | 'MODULE_INVALID' | VerificationCode;

export interface LoadError {
  readonly code: LoadErrorCode;
  readonly message: string;
}

export type ModuleLookup = { readonly ok: true; readonly module: LoadedModule } | { readonly ok: false; readonly error: LoadError };

export interface ModuleLoaderOptions {
  readonly store: ModuleStore;
  readonly trust: TrustConfig;
  readonly sandbox?: SandboxOptions;
}

export class ModuleLoader {
  /** Loads in flight or done, by world (org, domain, version). */
  readonly #worlds = new Map<string, Promise<ModuleLookup>>();

  /** Booted sandbox processes, in `process` isolation, started with the loader (host start). */
  readonly #processes: SandboxProcessPool | undefined;

  constructor(private readonly options: ModuleLoaderOptions) {
    if ((options.sandbox?.isolation ?? 'process') === 'process') {
      this.#processes = new SandboxProcessPool(options.sandbox?.spareProcesses ?? 1, options.sandbox?.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB);
    }
  }

  /** Resolves when the spare sandbox processes have booted (e.g. before a host reports ready). */
  async ready(): Promise<void> {
    await this.#processes?.ready();
  }

  /** The module serving `key`, loading it on a miss. */
  async get(key: RoutingKey): Promise<ModuleLookup> {
    const world = worldKey(key);
    let load = this.#worlds.get(world);
    if (load === undefined) {
      load = this.#load(key);
      this.#worlds.set(world, load);
      // Failures are not cached; a successful load stays until unloaded.
      void load.then((lookup) => {
        if (!lookup.ok && this.#worlds.get(world) === load) this.#worlds.delete(world);
      });
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

  async #load(key: RoutingKey): Promise<ModuleLookup> {
    const read = await this.options.store.read(key);
    if (!read.ok) return { ok: false, error: read.error };
    const verified = verifyBundle(read.files, this.options.trust);
    if (!verified.ok) return { ok: false, error: { code: verified.failure.code, message: `${describeWorld(key)} was refused: ${verified.failure.message}` } };
    const routedWorld = verified.bundle.manifest['world'] as Record<string, unknown> | undefined;
    if (routedWorld?.['org'] !== key.org || routedWorld['domain'] !== key.domain || routedWorld['version'] !== key.version) {
      return { ok: false, error: { code: 'MODULE_INVALID', message: `the store returned ${JSON.stringify(routedWorld)} for ${describeWorld(key)}` } };
    }
    const loaded = await loadModule(verified.bundle, this.options.sandbox, this.#processes);
    return loaded.ok ? { ok: true, module: loaded.module } : { ok: false, error: { code: loaded.code, message: `${describeWorld(key)}: ${loaded.message}` } };
  }
}

function worldKey(key: Omit<RoutingKey, 'action'>): string {
  return JSON.stringify([key.org, key.domain, key.version]);
}

function describeWorld(key: Omit<RoutingKey, 'action'>): string {
  return `module ${key.org}/${key.domain}@${key.version}`;
}
