/**
 * The sandbox processes of a host: a fixed number of shared processes (one per core by
 * default, and at least two), each hosting the isolates of many modules, plus spares booted
 * ahead of need; and the budget of modules and isolate memory they hold (resident-modules.ts).
 *
 * Placement: a module is placed, when it loads, on the shared process hosting the fewest
 * modules (the lowest-numbered on a tie), and stays on that slot while it is loaded, except
 * that it moves when another module's crossing stalls its process (sandbox-connection.ts): then
 * it goes to the process hosting the fewest modules among those not stalled, so a predicate
 * that loops until its limit holds up the decisions of its own module only. Hence at least two
 * processes: with k, a host keeps deciding for every other module while up to k - 1 modules
 * loop at once. When a slot's process dies it is replaced, and each module placed there loads
 * again on its next decision. A module whose process died while its own predicate ran is attributed on a
 * private process of its own (`private()`), so finding which predicate kills a process never
 * kills its neighbours again.
 *
 * Why shared: a process costs about 49 MB RSS; an extra isolate with a 528-rule script inside an
 * existing process about 1.8 MB (issue 14's measurements). Why a few and not one: a fatal error
 * in one module's isolate takes down only the decisions in flight on its process.
 *
 * Starting a process (a Node process that loads isolated-vm and the evaluator) takes about
 * 200 ms; spares make replacing one, or starting an attribution, take a process that is up.
 * Idle processes do not keep the host alive, and each exits by itself when the host goes away
 * (sandbox-process.ts exits on disconnect).
 *
 * Recycling: a shared process that has taken `recycleAfterDecisions` decisions, or reported a
 * resident set above `recycleAboveRssMb` (asked every RSS_CHECK_DECISIONS decisions), is
 * replaced by a booted spare (one is booted first if there is none). Every module loaded on it
 * loads on the replacement first, while the process keeps deciding; then it is retired: it
 * answers what it was given and is then stopped, while every new decision goes to the
 * replacement, where its module is already loaded, so no decision waits for a load. The next
 * spare boots once the replacement has warmed up (WARM_AFTER_RECYCLE_DECISIONS). Nothing fails
 * and nothing runs twice. A second line of defence: the memory a process keeps levels off
 * (runtime README, "Memory of a sandbox process"), but a native leak in a future isolated-vm
 * or Node would otherwise grow without bound.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ResidentModules } from './resident-modules.js';
import { DEFAULT_QUEUE_LIMIT, framePipe, SandboxConnection, setReferenced, type TransportCounters } from './sandbox-connection.js';
import type { SandboxProcessMemory } from './sandbox-memory.js';

// Two levels below the package root in both src/ and dist/; the entry only exists compiled.
const ENTRY = fileURLToPath(new URL('../../dist/sandbox/sandbox-process.js', import.meta.url));

/** The first message of a sandbox process: it is booted and listening. */
export const READY_MESSAGE = 'adec:sandbox-ready';

/** Modules loaded at once in a pool's processes, by default. */
export const DEFAULT_MODULE_BUDGET = 1_000;

/** Under `recycleAboveRssMb`, a shared process is asked for its memory every this many decisions. */
export const RSS_CHECK_DECISIONS = 10_000;

/**
 * After a recycle, the next spare boots once the replacement has taken this many decisions:
 * until then its modules load and its predicates compile, and a process booting beside it
 * starved it (a 5 ms predicate limit ran out in one decision of 1,000,000 recycled every
 * 100,000 on 2 cores; none with the boot put off).
 */
const WARM_AFTER_RECYCLE_DECISIONS = 1_000;

export interface SandboxPoolOptions {
  /** Shared processes (default: one per core, at least 2). */
  readonly processes?: number;
  /** Processes kept booted ahead of need (default 1). */
  readonly spares?: number;
  /** The memory limit most modules use: each process prepares an isolate of it while it waits. */
  readonly memoryLimitMb: number;
  /** Decisions queued or in flight per process before more are refused as `OVERLOADED` (default 1,000). */
  readonly queueLimit?: number;
  /** Modules loaded at once; beyond it the least recently used idle ones are unloaded (default 1,000). */
  readonly moduleBudget?: number;
  /**
   * Isolate memory of the modules loaded at once (the sum of their memory limits), in MiB;
   * beyond it the least recently used idle ones are unloaded (default: half the machine's memory).
   */
  readonly memoryBudgetMb?: number;
  /** Decisions after which a shared process is recycled (default: never). */
  readonly recycleAfterDecisions?: number;
  /** Resident set in MiB above which a shared process is recycled (default: never). */
  readonly recycleAboveRssMb?: number;
}

/** A sandbox process that prepares an isolate of `memoryLimitMb` while it waits for its first module. */
function forkSandboxProcess(memoryLimitMb: number): ChildProcess {
  // No stdio but the IPC channel (readiness, and the host's death) and the frame pipe.
  const child = fork(ENTRY, [String(memoryLimitMb)], { execArgv: ['--no-node-snapshot'], serialization: 'json', stdio: ['ignore', 'ignore', 'ignore', 'ipc', 'pipe'] });
  // A write to a process that just died fails here; the death itself is reported by 'exit'.
  framePipe(child).on('error', () => {});
  return child;
}

/** What a pool is doing, for a host's metrics. */
export interface SandboxPoolStats {
  /** Decisions queued or in flight on the shared processes now. */
  readonly queued: number;
  /** Batch frames sent since the pool started, and the decisions they carried. */
  readonly frames: number;
  readonly decisions: number;
  /** Modules loaded now, and the sum of their isolates' memory limits in MiB. */
  readonly resident: number;
  readonly residentMemoryMb: number;
  /** Modules unloaded to keep within the budget since the pool started. */
  readonly evictions: number;
  /** Modules placed on each shared process. */
  readonly placement: readonly number[];
  /** Shared processes replaced under the recycle policy, and replaced because they died. */
  readonly recycles: number;
  readonly restarts: number;
}

interface Spare {
  readonly child: ChildProcess;
  /** Resolves when the process has booted, or has died trying. */
  readonly booted: Promise<void>;
  /** Whether it has announced that it is ready. */
  up: boolean;
}

export class SandboxProcessPool {
  readonly #shared: (SandboxConnection | undefined)[];
  /** Modules placed on each shared process. */
  readonly #placed: number[];
  #spares: Spare[] = [];
  #closed = false;
  /** A refill scheduled by `refillSoon`, until it has run. */
  #scheduled: Promise<void> | undefined;
  readonly #spareCount: number;
  readonly #memoryLimitMb: number;
  readonly #queueLimit: number;
  readonly #counters: TransportCounters = { frames: 0, decisions: 0 };
  readonly #resident: ResidentModules;
  readonly #recycleAfterDecisions: number;
  readonly #recycleAboveRssBytes: number;
  #recycles = 0;
  #restarts = 0;
  /** The decision count at which each shared process was last asked for its memory. */
  readonly #rssChecks = new WeakMap<SandboxConnection, number>();
  /** Recycled processes still answering what they were given. */
  readonly #retiring = new Set<SandboxConnection>();
  /** Replacements of recycled processes, with the decision count at which the next spare boots. */
  readonly #warming = new WeakMap<SandboxConnection, number>();
  /** Slots whose process is being replaced, with the replacement their modules are loading on. */
  readonly #preparing = new Map<number, SandboxConnection>();

  constructor(options: SandboxPoolOptions) {
    const size = Math.max(1, options.processes ?? Math.max(2, availableParallelism()));
    this.#shared = new Array<SandboxConnection | undefined>(size).fill(undefined);
    this.#placed = new Array<number>(size).fill(0);
    this.#spareCount = options.spares ?? 1;
    this.#memoryLimitMb = options.memoryLimitMb;
    this.#queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.#recycleAfterDecisions = options.recycleAfterDecisions ?? Infinity;
    this.#recycleAboveRssBytes = (options.recycleAboveRssMb ?? Infinity) * 2 ** 20;
    this.#resident = new ResidentModules({
      modules: options.moduleBudget ?? DEFAULT_MODULE_BUDGET,
      memoryMb: options.memoryBudgetMb ?? Math.floor(totalmem() / 2 ** 21),
    });
    this.#refill();
  }

  /** The modules loaded in the processes, held to the budget. */
  get resident(): ResidentModules {
    return this.#resident;
  }

  /** A slot for a module that is loading: the one hosting the fewest modules. */
  place(): number {
    const slot = this.#placed.indexOf(Math.min(...this.#placed));
    this.#placed[slot]!++;
    return slot;
  }

  /** The module placed on `slot` was unloaded. */
  release(slot: number): void {
    this.#placed[slot] = Math.max(0, this.#placed[slot]! - 1);
  }

  /**
   * A slot for a module leaving `slot`, whose process another module's crossing stalled: the
   * one hosting the fewest modules among those not stalled; `slot` itself when all are.
   */
  move(slot: number): number {
    const to = this.#moveTarget(slot);
    if (to !== slot) {
      this.release(slot);
      this.#placed[to]!++;
    }
    return to;
  }

  #moveTarget(slot: number): number {
    let to = slot;
    for (let candidate = 0; candidate < this.#shared.length; candidate++) {
      if (candidate === slot || this.#shared[candidate]?.stalledBy !== undefined) continue;
      if (to === slot || this.#placed[candidate]! < this.#placed[to]!) to = candidate;
    }
    return to;
  }

  /** The live process of `slot`, replacing a dead one, and one due to be recycled once a replacement has booted. */
  connection(slot: number): SandboxConnection {
    const connection = this.#shared[slot];
    if (connection === undefined || !connection.alive) {
      if (connection !== undefined) this.#restarts++;
      return this.#start(slot, this.#take());
    }
    this.#refillOnceWarm(connection);
    if (this.#preparing.has(slot)) return connection;
    const due = this.#recycleDue(connection);
    const spare = due === undefined ? undefined : this.#takeBooted();
    if (due !== undefined && spare !== undefined) this.#prepareRecycle(slot, connection, spare, due);
    return connection;
  }

  /** Loads the modules of `slot`'s process on `spare`, then recycles the process: it decides meanwhile. */
  #prepareRecycle(slot: number, retiring: SandboxConnection, spare: ChildProcess, why: string): void {
    const replacement = this.#connect(slot, spare);
    this.#preparing.set(slot, replacement);
    const preloads = [...this.#resident].map((module) => module.preload(retiring, replacement));
    void Promise.all(preloads).then(() => {
      this.#preparing.delete(slot);
      // The process died meanwhile (and was replaced like any dead one), or the replacement did:
      // no recycle; a dead replacement's modules load where they go next, as after a crash.
      if (this.#shared[slot] !== retiring || !retiring.alive || !replacement.alive) {
        replacement.kill('the recycle it was booted for did not take place');
        return;
      }
      this.#recycle(slot, retiring, replacement, why);
    });
  }

  /** Retires the process of `slot` for `replacement`; the next spare boots once it is warm. */
  #recycle(slot: number, retired: SandboxConnection, replacement: SandboxConnection, why: string): void {
    this.#recycles++;
    for (const connection of this.#retiring) if (!connection.alive) this.#retiring.delete(connection);
    this.#retiring.add(retired);
    retired.retire(`the sandbox process was recycled (${why})`);
    this.#shared[slot] = replacement;
    this.#warming.set(replacement, WARM_AFTER_RECYCLE_DECISIONS);
  }

  /** Boots the next spare once the replacement of a recycled process has warmed up. */
  #refillOnceWarm(connection: SandboxConnection): void {
    const warmAt = this.#warming.get(connection);
    if (warmAt === undefined || connection.decisions < warmAt) return;
    this.#warming.delete(connection);
    this.refillSoon();
  }

  /** Starts `child` as the process of `slot`, and boots the next spare. */
  #start(slot: number, child: ChildProcess): SandboxConnection {
    const connection = this.#connect(slot, child);
    this.#shared[slot] = connection;
    this.refillSoon();
    return connection;
  }

  /** A connection to `child` as a process of `slot` (its stalled decisions move off the slot). */
  #connect(slot: number, child: ChildProcess): SandboxConnection {
    return new SandboxConnection(child, this.#queueLimit, this.#counters, () => this.#moveTarget(slot) !== slot);
  }

  /**
   * Why `connection` is to be recycled, or undefined. Its memory is asked for every
   * RSS_CHECK_DECISIONS decisions under an RSS limit, and read when the answer is back.
   */
  #recycleDue(connection: SandboxConnection): string | undefined {
    if (connection.decisions >= this.#recycleAfterDecisions) return `after ${connection.decisions} decisions`;
    if (this.#recycleAboveRssBytes === Infinity) return undefined;
    const rss = connection.lastMemory?.rssBytes ?? 0;
    if (rss > this.#recycleAboveRssBytes) return `its resident set reached ${Math.round(rss / 2 ** 20)} MiB`;
    if (connection.decisions >= (this.#rssChecks.get(connection) ?? 0) + RSS_CHECK_DECISIONS) {
      this.#rssChecks.set(connection, connection.decisions);
      void connection.memory();
    }
    return undefined;
  }

  /**
   * A spare that has booted, to replace a process being recycled; when there is none, one is
   * booted (even in a pool that keeps no spares) and the process serves until it is up.
   */
  #takeBooted(): ChildProcess | undefined {
    this.#spares = this.#spares.filter((spare) => isAlive(spare.child));
    const at = this.#spares.findIndex((spare) => spare.up);
    if (at !== -1) return this.#spares.splice(at, 1)[0]!.child;
    if (this.#spares.length === 0) this.#refill(1);
    return undefined;
  }

  /** What each shared process reports about its memory now, in slot order (undefined: none running, or no answer). */
  memory(): Promise<(SandboxProcessMemory | undefined)[]> {
    return Promise.all(this.#shared.map((connection) => (connection?.alive ? connection.memory() : Promise.resolve(undefined))));
  }

  /** A process of the caller's own, to kill when done (crash attribution). */
  private(): SandboxConnection {
    const connection = new SandboxConnection(this.#take());
    this.refillSoon();
    return connection;
  }

  stats(): SandboxPoolStats {
    const queued = this.#shared.reduce((sum, connection) => sum + (connection?.queued ?? 0), 0);
    const resident = this.#resident;
    return { queued, ...this.#counters, resident: resident.count, residentMemoryMb: resident.memoryMb, evictions: resident.evictions, placement: [...this.#placed], recycles: this.#recycles, restarts: this.#restarts };
  }

  /** Resolves when every spare has booted: a host can wait for it before reporting ready. */
  async ready(): Promise<void> {
    await this.#scheduled;
    await Promise.all(this.#spares.map((spare) => spare.booted));
  }

  /**
   * Refills once the work in hand is done (the load that took a spare, and whatever its caller
   * does next): forking a process takes 3–8 ms of this thread, which a load should not wait for.
   */
  refillSoon(): void {
    this.#scheduled ??= new Promise((resolve) => {
      setImmediate(() => {
        this.#scheduled = undefined;
        this.#refill();
        resolve();
      });
    });
  }

  /** Stops every process. */
  close(): void {
    this.#closed = true;
    for (const spare of this.#spares.splice(0)) spare.child.kill('SIGKILL');
    for (const connection of [...this.#shared, ...this.#retiring, ...this.#preparing.values()]) connection?.kill('the sandbox pool was closed');
  }

  /** A booted spare when one is ready or booting, else a fresh fork. */
  #take(): ChildProcess {
    this.#spares = this.#spares.filter((candidate) => isAlive(candidate.child));
    return this.#spares.shift()?.child ?? forkSandboxProcess(this.#memoryLimitMb);
  }

  /** Boots spares until there are `count` again. */
  #refill(count = this.#spareCount): void {
    this.#spares = this.#spares.filter((spare) => isAlive(spare.child));
    while (!this.#closed && this.#spares.length < count) {
      const child = forkSandboxProcess(this.#memoryLimitMb);
      // Referenced while booting, so a host awaiting `ready()` is not left with an empty event
      // loop; once idle, a spare must not keep the host alive (a connection references it while busy).
      const settle = () => {
        if (this.#spares.some((spare) => spare.child === child)) setReferenced(child, false);
      };
      const ready = once(child, 'message');
      const spare: Spare = { child, booted: Promise.race([ready, once(child, 'exit')]).then(settle, settle), up: false };
      ready.then(() => (spare.up = true), () => {});
      this.#spares.push(spare);
    }
  }
}

function isAlive(child: ChildProcess): boolean {
  return child.connected && child.exitCode === null && child.signalCode === null;
}

let defaultPool: SandboxProcessPool | undefined;

/** The pool of a host that loads modules without a ModuleLoader (`loadModule` alone). */
export function defaultSandboxPool(memoryLimitMb: number): SandboxProcessPool {
  defaultPool ??= new SandboxProcessPool({ spares: 0, memoryLimitMb });
  return defaultPool;
}
