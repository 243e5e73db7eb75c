/**
 * The modules whose isolates are loaded in a pool's sandbox processes, held to the host's budget
 * (issue 14): at most `modules` of them, and at most `memoryMb` of isolate memory (the sum of
 * their isolates' memory limits, the most they can take). A load beyond the budget first
 * unloads the least recently used modules that have nothing in flight; an unloaded module keeps
 * its handle and loads again on its next decision. When not enough can be unloaded (every
 * other module is busy, or one module alone is larger than the budget) the load is refused
 * with a message saying which limit, never by letting the host grow past it.
 */
import type { SandboxConnection } from './sandbox-connection.js';

/** A loaded module as the budget sees it (process-evaluator.ts). */
export interface ResidentModule {
  readonly memoryLimitMb: number;
  /** A decision, call or load of the module is in flight: it is not unloaded under it. */
  readonly busy: boolean;
  /** Unloads the module's isolate; its next decision loads it again. */
  evict(): void;
  /**
   * `retired` is being replaced by `replacement` (a recycle): a module loaded on `retired`
   * loads on `replacement` now, so that its first decision there waits for no load.
   */
  preload(retired: SandboxConnection, replacement: SandboxConnection): Promise<void>;
}

export interface ModuleBudget {
  readonly modules: number;
  readonly memoryMb: number;
}

export class ResidentModules {
  /** In order of last use, least recent first (a use moves a module to the end). */
  readonly #byLastUse = new Set<ResidentModule>();
  #memoryMb = 0;
  #evictions = 0;

  constructor(readonly budget: ModuleBudget) {}

  get count(): number {
    return this.#byLastUse.size;
  }

  get memoryMb(): number {
    return this.#memoryMb;
  }

  /** Modules unloaded to make room since the pool started. */
  get evictions(): number {
    return this.#evictions;
  }

  /** Every module loaded, least recently used first. */
  [Symbol.iterator](): IterableIterator<ResidentModule> {
    return this.#byLastUse.values();
  }

  /** The module was used: it becomes the last to be unloaded. */
  touch(module: ResidentModule): void {
    if (this.#byLastUse.delete(module)) this.#byLastUse.add(module);
  }

  /**
   * Makes room for `module` and counts it resident; undefined when admitted, else why not. A
   * module already resident (loading again after its process died, or on another process) is
   * only touched.
   */
  admit(module: ResidentModule): string | undefined {
    if (this.#byLastUse.has(module)) {
      this.touch(module);
      return undefined;
    }
    const { modules, memoryMb } = this.budget;
    if (module.memoryLimitMb > memoryMb) return `the module's isolate memory limit of ${module.memoryLimitMb} MiB is larger than the host's isolate memory budget of ${memoryMb} MiB`;
    const fits = (count: number, usedMb: number) => count + 1 <= modules && usedMb + module.memoryLimitMb <= memoryMb;
    // The least recently used idle modules that must go, found before any goes: a load that
    // cannot be made room for unloads nothing.
    const victims: ResidentModule[] = [];
    let count = this.#byLastUse.size;
    let usedMb = this.#memoryMb;
    for (const resident of this.#byLastUse) {
      if (fits(count, usedMb)) break;
      if (resident.busy) continue;
      victims.push(resident);
      count--;
      usedMb -= resident.memoryLimitMb;
    }
    if (!fits(count, usedMb)) return this.#full(module);
    for (const victim of victims) {
      this.leave(victim);
      this.#evictions++;
      victim.evict();
    }
    this.#byLastUse.add(module);
    this.#memoryMb += module.memoryLimitMb;
    return undefined;
  }

  /** The module was unloaded (or evicted): it no longer counts. */
  leave(module: ResidentModule): void {
    if (this.#byLastUse.delete(module)) this.#memoryMb -= module.memoryLimitMb;
  }

  #full(module: ResidentModule): string {
    const { modules, memoryMb } = this.budget;
    const limit = this.#byLastUse.size + 1 > modules ? `${modules} modules` : `${memoryMb} MiB of isolate memory (${this.#memoryMb} MiB in use, ${module.memoryLimitMb} MiB more needed)`;
    return `the sandbox host is at its budget of ${limit}, and too few loaded modules are idle to make room (the others have decisions in flight)`;
  }
}
