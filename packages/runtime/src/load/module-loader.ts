/**
 * The loader (ARCHITECTURE.md pipeline step 7; docs/spec/adjudication.md §2.2): routing key → verified,
 * loaded module.
 *
 * A cache miss fetches the bundle's bytes from the module store once, verifies hash, signature
 * and approval against the trust configuration, and only then starts a sandbox with those same
 * bytes: nothing from a refused bundle ever runs. Concurrent misses for one key share one load
 * (single flight). One bundle holds every action of a world, so all routing keys of a world
 * share one loaded module and one sandbox; `unload` releases it. A failed load is not cached:
 * a refused bundle is tried again after a backoff, so a fixed bundle is picked up without a
 * restart, and a store that could not be read now (store-read.ts) is read again by the next
 * request, after a few quick retries within the load.
 *
 * Where a module runs is chosen per module (isolation-choice.ts). In `auto` isolation a module
 * approved after a rebuild starts in a sandbox process while a worker thread verifies its code
 * (code-verifier.ts), so no load waits for the parse; once the code is verified it is loaded in
 * process and takes over, as a replacement does, and the sandbox one is released after its
 * decisions finish. A verdict is kept per module hash: a module loaded again starts where it ran.
 */
import { isJsonObject } from '@adec/abi';
import type { TrustConfig } from '../trust/trust-config.js';
import type { VerificationCode } from '../trust/verification-failure.js';
import { verifyBundle } from '../trust/verify-bundle.js';
import { LoadedApprovals } from '../trust/loaded-approvals.js';
import type { SandboxProcessMemory } from '../sandbox/sandbox-memory.js';
import { SandboxProcessPool, type SandboxPoolStats } from '../sandbox/sandbox-process-pool.js';
import { CodeVerifier } from './code-verifier.js';
import { chooseIsolation, type Isolation, type IsolationChoice, type IsolationMode, type IsolationReason } from './isolation-choice.js';
import { DEFAULT_MEMORY_LIMIT_MB, loadModule, type SandboxOptions } from './load-module.js';
import type { LoadedModule } from './loaded-module.js';
import type { ModuleStore, WorldKey } from './module-store.js';
import { isTransientLoadError, readFromStore } from './store-read.js';
import type { VerifiedBundle } from '../trust/verify-bundle.js';
import { messageOf } from '../error-message.js';

/** `(org_id, domain, action, world_model_version)`: what a request names. */
export interface RoutingKey {
  readonly org: string;
  readonly domain: string;
  readonly action: string;
  readonly version: string;
}

/** `MODULE_UNAVAILABLE`: the store could not be read now (a transient failure, store-read.ts); the others are refusals. */
export type LoadErrorCode = 'ROUTING_KEY_INVALID' | 'MODULE_NOT_FOUND' | 'UNKNOWN_ACTION' | 'MODULE_INVALID' | 'MODULE_UNAVAILABLE' | 'HOST_AT_CAPACITY' | VerificationCode;

export interface LoadError {
  readonly code: LoadErrorCode;
  readonly message: string;
}

export type ModuleLookup = { readonly ok: true; readonly module: LoadedModule } | { readonly ok: false; readonly error: LoadError };

/** What `refresh` did to one loaded world. */
export interface RefreshOutcome {
  readonly world: WorldKey;
  readonly result: 'unchanged' | 'replaced' | 'refused' | 'unloaded' | 'unavailable';
  /** The module serving the world after the refresh (before it, for `unloaded`). */
  readonly moduleHash: string;
  /** For `replaced`: the module it replaced. */
  readonly replacedHash?: string;
  /** Why a bundle was refused or the world unloaded or not read. */
  readonly error?: LoadError;
}

/**
 * A replaced module is released this long after its replacement took over, so that decisions
 * already routed to it finish there (decisions have a deadline of seconds).
 */
export const REPLACED_MODULE_GRACE_MS = 30_000;

/** What a host's metrics report about its modules. */
export interface ModuleLoaderStats {
  /** Loads that ended with a module in a sandbox, and loads that failed (each retry counts). */
  readonly loads: number;
  readonly failedLoads: number;
  /** Worlds loaded now. */
  readonly worlds: number;
  /** The shared sandbox processes, or null when every module runs in process. */
  readonly sandbox: SandboxPoolStats | null;
  /** Loaded worlds by where they run and why. */
  readonly isolation: readonly { readonly mode: IsolationMode; readonly reason: IsolationReason; readonly worlds: number }[];
}

export interface ModuleLoaderOptions {
  readonly store: ModuleStore;
  readonly trust: TrustConfig;
  readonly sandbox?: SandboxOptions;
}

/**
 * After a load refused (a bundle not found, not verifying, not loading), a world is retried no
 * sooner than this, doubling with each refusal in a row up to MAX_RETRY_BACKOFF_MS: a broken or
 * refused bundle is not fetched and verified again for every request in the meantime. A store
 * that could not be read now is not held to it (store-read.ts).
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
  /** Worlds whose last load was refused, until their retry time. */
  readonly #failures = new Map<string, RecentFailure>();

  /** The newest approval loaded per world version: an older one cannot replace it (trust/loaded-approvals.ts). */
  readonly #approvals = new LoadedApprovals();

  /** Booted sandbox processes, in `process` isolation, started with the loader (host start). */
  readonly #processes: SandboxProcessPool | undefined;

  /** Replaced modules waiting out their grace period before they are released. */
  readonly #retired = new Set<LoadedModule>();

  /** Where each loaded world runs, for stats. */
  readonly #isolations = new Map<string, IsolationChoice>();

  /** `auto` isolation: verdicts on modules' code, verified on a thread. */
  readonly #isolation: Isolation;
  readonly #verifier: CodeVerifier | undefined;
  /** Modules started in a sandbox process while their code is verified, with their bundle. */
  readonly #verifying = new WeakMap<LoadedModule, VerifiedBundle>();

  #loads = 0;
  #failedLoads = 0;

  constructor(private readonly options: ModuleLoaderOptions) {
    this.#isolation = options.sandbox?.isolation ?? 'auto';
    this.#verifier = this.#isolation === 'auto' ? new CodeVerifier() : undefined;
    if (this.#isolation !== 'in-process') {
      const { processes, spareProcesses: spares, queueLimit, moduleBudget, memoryBudgetMb, recycleAfterDecisions, recycleAboveRssMb, memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB } = options.sandbox ?? {};
      this.#processes = new SandboxProcessPool({ processes, spares, queueLimit, moduleBudget, memoryBudgetMb, recycleAfterDecisions, recycleAboveRssMb, memoryLimitMb });
    }
  }

  /** Resolves when the spare sandbox processes have booted (e.g. before a host reports ready). */
  async ready(): Promise<void> {
    await this.#processes?.ready();
  }

  /** The module serving `key`, loading it on a miss. Never throws: every failure is a value. */
  async get(key: RoutingKey): Promise<ModuleLookup> {
    const invalid = routingKeyProblem(key, ROUTING_KEY_FIELDS);
    if (invalid !== undefined) return { ok: false, error: { code: 'ROUTING_KEY_INVALID', message: invalid } };
    const lookup = await this.#world(key);
    if (!lookup.ok || lookup.module.metadata.actions.has(key.action)) return lookup;
    const actions = [...lookup.module.metadata.actions.keys()].join(', ') || 'none';
    return { ok: false, error: { code: 'UNKNOWN_ACTION', message: `${describeWorld(key)} has no action \`${key.action}\` (actions: ${actions})` } };
  }

  /** The module of a world version, loading it on a miss (a host loading its store at start). */
  async load(key: WorldKey): Promise<ModuleLookup> {
    const invalid = routingKeyProblem(key, WORLD_KEY_FIELDS);
    return invalid === undefined ? this.#world(key) : { ok: false, error: { code: 'ROUTING_KEY_INVALID', message: invalid } };
  }

  /**
   * Reads every loaded world's bundle from the store again and acts on what changed, so that a
   * running host follows its store (docs/spec/adjudication.md §2.2):
   *
   * - a new module hash that verifies, and whose approval is not older than the loaded one's,
   *   replaces the loaded module (`replaced`); decisions already under way finish on the old one;
   * - a new module that does not verify, or is an older approval put back, is refused and the
   *   loaded module goes on serving (`refused`: bytes anyone with write access to the store can
   *   drop there never take a verified module down);
   * - the loaded module itself no longer verifying (its approval expired) unloads it
   *   (`unloaded`): the next request gets the refusal;
   * - a store that cannot be read leaves the loaded module serving (`unavailable`).
   */
  async refresh(): Promise<readonly RefreshOutcome[]> {
    const outcomes: RefreshOutcome[] = [];
    for (const [world, load] of [...this.#worlds]) {
      const lookup = await load;
      if (!lookup.ok) continue;
      const { org, domain, version } = lookup.module.metadata.world;
      outcomes.push(await this.#refreshWorld(world, load, { org, domain, version }, lookup.module));
    }
    return outcomes;
  }

  async #refreshWorld(world: string, load: Promise<ModuleLookup>, key: WorldKey, loaded: LoadedModule): Promise<RefreshOutcome> {
    const outcome = (result: RefreshOutcome['result'], detail: Partial<RefreshOutcome> = {}): RefreshOutcome => ({ world: key, result, moduleHash: loaded.moduleHash, ...detail });
    const read = await this.#readVerified(key);
    if (!read.ok) {
      if (isTransientLoadError(read.error)) return outcome('unavailable', { error: read.error });
      // Refused bytes of another module change nothing; the loaded module's own bundle refused
      // now (its approval expired, its key revoked) or taken out of the store stops it.
      if (read.error.code !== 'MODULE_NOT_FOUND' && read.claimedHash !== loaded.moduleHash) return outcome('refused', { error: read.error });
      if (this.#worlds.get(world) === load) {
        this.#worlds.delete(world);
        this.#isolations.delete(world);
      }
      await loaded.evaluator.dispose();
      return outcome('unloaded', { error: read.error });
    }
    const older = this.#approvals.admit(read.bundle);
    if (read.bundle.moduleHash === loaded.moduleHash) return outcome('unchanged');
    if (older !== undefined) return outcome('refused', { error: { code: older.code, message: `${describeWorld(key)} was refused: ${older.message}` } });
    const replacement = await this.#start(read.bundle);
    if (!replacement.ok) return outcome('refused', { error: { code: replacement.code, message: `${describeWorld(key)}: ${replacement.message}` } });
    // `loaded`, or the same module moved in process meanwhile (its code verified), is replaced;
    // unloaded or replaced by another module while the replacement loaded, it is not wanted.
    const serving = await this.#serving(world);
    if (serving?.module.moduleHash !== loaded.moduleHash) {
      await replacement.module.evaluator.dispose();
      return outcome('unloaded');
    }
    this.#takeOver(world, serving.module, replacement.module);
    return outcome('replaced', { moduleHash: replacement.module.moduleHash, replacedHash: loaded.moduleHash });
  }

  /** The module serving `world` now, and its entry in #worlds (to see later that nothing replaced it). */
  async #serving(world: string): Promise<{ readonly entry: Promise<ModuleLookup>; readonly module: LoadedModule } | undefined> {
    const entry = this.#worlds.get(world);
    if (entry === undefined) return undefined;
    const lookup = await entry;
    return lookup.ok && this.#worlds.get(world) === entry ? { entry, module: lookup.module } : undefined;
  }

  /** Loads a verified bundle where it is to run now (in a sandbox process while its code is verified). */
  async #start(bundle: VerifiedBundle): Promise<Awaited<ReturnType<typeof loadModule>>> {
    const verdict = this.#verifier?.known(bundle.moduleHash);
    const choice = chooseIsolation({ configured: this.#isolation, rebuiltBy: bundle.rebuiltBy, verdict });
    const loaded = await loadModule(bundle, this.options.sandbox, this.#processes, choice);
    if (loaded.ok && choice.reason === 'VERIFYING') this.#verifying.set(loaded.module, bundle);
    return loaded;
  }

  /** `next` serves `world` from now on; `previous` is released once its decisions had time to finish. */
  #takeOver(world: string, previous: LoadedModule, next: LoadedModule): void {
    this.#worlds.set(world, Promise.resolve({ ok: true, module: next }));
    this.#served(world, next);
    this.#retired.add(previous);
    setTimeout(() => void this.#retire(previous), REPLACED_MODULE_GRACE_MS).unref();
  }

  /** Records where `world`'s module runs, and starts verifying its code when it waits for that. */
  #served(world: string, module: LoadedModule): void {
    this.#isolations.set(world, module.isolation);
    const bundle = this.#verifying.get(module);
    if (bundle !== undefined && this.#verifier !== undefined) void this.#moveWhenVerified(world, module, bundle, this.#verifier);
  }

  /**
   * Once the code of `module` (serving `world` from a sandbox process) is verified: accepted, it
   * is loaded in process and takes over; refused, it stays where it is, with the reason. Nothing
   * changes if the world was replaced or unloaded meanwhile.
   */
  async #moveWhenVerified(world: string, module: LoadedModule, bundle: VerifiedBundle, verifier: CodeVerifier): Promise<void> {
    this.#verifying.delete(module);
    const verdict = await verifier.verify(bundle.moduleHash, bundle.bundleSource);
    const serving = await this.#serving(world);
    if (serving?.module !== module) return;
    const choice = chooseIsolation({ configured: this.#isolation, rebuiltBy: bundle.rebuiltBy, verdict });
    if (choice.mode === 'process') {
      // Refused (or the thread was lost, which the verifier does not remember: the next load asks again).
      this.#worlds.set(world, Promise.resolve({ ok: true, module: { ...module, isolation: choice } }));
      this.#isolations.set(world, choice);
      return;
    }
    const moved = await loadModule(bundle, this.options.sandbox, this.#processes, choice);
    if (!moved.ok) return;
    if (this.#worlds.get(world) !== serving.entry) {
      await moved.module.evaluator.dispose();
      return;
    }
    this.#takeOver(world, module, moved.module);
  }

  async #retire(module: LoadedModule): Promise<void> {
    if (!this.#retired.delete(module)) return;
    await module.evaluator.dispose();
  }

  async #world(key: WorldKey): Promise<ModuleLookup> {
    const world = worldKey(key);
    const failed = this.#failures.get(world);
    if (failed !== undefined && Date.now() < failed.retryAt) return failed.lookup;
    let load = this.#worlds.get(world);
    if (load === undefined) {
      load = this.#load(key).catch((error: unknown): ModuleLookup => ({ ok: false, error: { code: 'MODULE_UNAVAILABLE', message: `${describeWorld(key)} could not be loaded: ${messageOf(error)}` } }));
      this.#worlds.set(world, load);
      // Failures are not cached: they are retried, refusals after a backoff. A success stays until unloaded.
      void load.then((lookup) => this.#settled(world, load!, lookup));
    }
    return load;
  }

  /** Releases the module of `key`'s world and its sandbox; the next request loads it again. */
  async unload(key: Omit<RoutingKey, 'action'>): Promise<boolean> {
    const world = worldKey(key);
    const load = this.#worlds.get(world);
    if (load === undefined) return false;
    this.#worlds.delete(world);
    this.#isolations.delete(world);
    const lookup = await load;
    if (lookup.ok) await lookup.module.evaluator.dispose();
    return true;
  }

  /** What each shared sandbox process reports about its memory now (none in-process; undefined: not running). */
  async sandboxMemory(): Promise<readonly (SandboxProcessMemory | undefined)[]> {
    return (await this.#processes?.memory()) ?? [];
  }

  stats(): ModuleLoaderStats {
    const worlds = this.#worlds.size;
    const counts = new Map<string, { mode: IsolationMode; reason: IsolationReason; worlds: number }>();
    for (const { mode, reason } of this.#isolations.values()) {
      const count = counts.get(`${mode} ${reason}`);
      if (count === undefined) counts.set(`${mode} ${reason}`, { mode, reason, worlds: 1 });
      else count.worlds += 1;
    }
    return { loads: this.#loads, failedLoads: this.#failedLoads, worlds, sandbox: this.#processes?.stats() ?? null, isolation: [...counts.values()] };
  }

  /** Unloads everything and stops the spare sandbox processes. */
  async close(): Promise<void> {
    this.#processes?.close();
    await this.#verifier?.close();
    this.#isolations.clear();
    const worlds = [...this.#worlds.values()];
    this.#worlds.clear();
    await Promise.all([...this.#retired].map((module) => this.#retire(module)));
    await Promise.all(worlds.map(async (load) => {
      const lookup = await load;
      if (lookup.ok) await lookup.module.evaluator.dispose();
    }));
  }

  #settled(world: string, load: Promise<ModuleLookup>, lookup: ModuleLookup): void {
    if (lookup.ok) {
      this.#loads += 1;
      this.#failures.delete(world);
      if (this.#worlds.get(world) === load) this.#served(world, lookup.module);
      return;
    }
    this.#failedLoads += 1;
    if (this.#worlds.get(world) === load) this.#worlds.delete(world);
    // The store could not be read now (already retried within the load): the next request reads it again.
    if (isTransientLoadError(lookup.error)) return;
    const failures = (this.#failures.get(world)?.failures ?? 0) + 1;
    const backoff = Math.min(RETRY_BACKOFF_MS * 2 ** (failures - 1), MAX_RETRY_BACKOFF_MS);
    this.#failures.set(world, { lookup, failures, retryAt: Date.now() + backoff });
  }

  async #load(key: WorldKey): Promise<ModuleLookup> {
    const read = await this.#readVerified(key);
    if (!read.ok) return read;
    const older = this.#approvals.admit(read.bundle);
    if (older !== undefined) return { ok: false, error: { code: older.code, message: `${describeWorld(key)} was refused: ${older.message}` } };
    const loaded = await this.#start(read.bundle);
    return loaded.ok ? { ok: true, module: loaded.module } : { ok: false, error: { code: loaded.code, message: `${describeWorld(key)}: ${loaded.message}` } };
  }

  /** `key`'s bundle from the store, verified and checked to be the world it was asked for. */
  async #readVerified(key: WorldKey): Promise<{ readonly ok: true; readonly bundle: VerifiedBundle } | { readonly ok: false; readonly error: LoadError; readonly claimedHash?: unknown }> {
    const result = await readFromStore(this.options.store, key);
    if (!result.ok) return result;
    const verified = verifyBundle(result.files, this.options.trust);
    if (!verified.ok) return { ok: false, error: { code: verified.failure.code, message: `${describeWorld(key)} was refused: ${verified.failure.message}` }, claimedHash: claimedModuleHash(result.files.manifest) };
    const routedWorld = verified.bundle.world;
    if (routedWorld.org !== key.org || routedWorld.domain !== key.domain || routedWorld.version !== key.version) {
      return { ok: false, error: { code: 'MODULE_INVALID', message: `the store returned ${JSON.stringify(routedWorld)} for ${describeWorld(key)}` } };
    }
    return { ok: true, bundle: verified.bundle };
  }
}

const ROUTING_KEY_FIELDS = ['org', 'domain', 'action', 'version'] as const;
const WORLD_KEY_FIELDS = ['org', 'domain', 'version'] as const;

/** Why a routing key cannot name a module: every segment a short string without control characters. */
function routingKeyProblem(key: unknown, fields: readonly string[]): string | undefined {
  if (key === null || typeof key !== 'object') return `a routing key is an object with ${fields.join(', ')}`;
  for (const field of fields) {
    const value = (key as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value.length === 0) return `the routing key's ${field} must be a non-empty string`;
    if (value.length > MAX_SEGMENT_LENGTH) return `the routing key's ${field} is longer than ${MAX_SEGMENT_LENGTH} characters`;
    if (/[\u0000-\u001f\u007f]/.test(value)) return `the routing key's ${field} holds a control character`;
  }
  return undefined;
}

/** The module hash a manifest claims, before anything about it is verified. */
function claimedModuleHash(manifest: Uint8Array): unknown {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(manifest).toString('utf8'));
    return isJsonObject(parsed) ? parsed.module_hash : undefined;
  } catch {
    return undefined;
  }
}

function worldKey(key: Omit<RoutingKey, 'action'>): string {
  return JSON.stringify([key.org, key.domain, key.version]);
}

function describeWorld(key: Omit<RoutingKey, 'action'>): string {
  return `module ${key.org}/${key.domain}@${key.version}`;
}
