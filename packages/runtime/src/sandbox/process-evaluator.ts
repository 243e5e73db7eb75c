/**
 * Evaluation in a supervised sandbox process (sandbox-process.ts): the default isolation,
 * because a fatal V8 error inside isolated-vm aborts the process hosting the isolate, and that
 * process must not be the decision host.
 *
 * A module's handle on its slot in the pool (sandbox-process-pool.ts): its isolate lives in a
 * process shared with other modules, and its decisions are sent as they come, many in flight,
 * batched when they wait (sandbox-connection.ts). When the process dies:
 * - a decision of this module that was waiting behind another's is re-run once on the
 *   replacement process, and answered exactly;
 * - a decision whose batch was running is re-run alone, which shows whether it was the cause;
 * - the decision whose predicate was running is attributed on a private process: the rules of
 *   the request are re-run one per request, so the failure is pinned on exactly the rule that
 *   causes it (kind `crash`) and every other result is exact;
 * - the module loads again on the replacement process with its next decision, after a backoff
 *   if it caused the crash, and is quarantined if it keeps causing them.
 * When another module's crossing stalls the process, this module's waiting decisions are handed
 * back and it moves to another process (`SandboxProcessPool.move`), loading there. It counts
 * against the pool's budget while loaded (resident-modules.ts), and may be unloaded when idle
 * to make room for another; its next decision loads it again.
 */
import type { ActionEvaluator, EvaluationControl } from '../load/loaded-module.js';
import type { ActionSpec } from '../module/module-metadata.js';
import { crossingLimitMs, decodeEvaluation, everyRuleErrored, type ActionEvaluation, type FailedDerivation, type RuleEvaluation, type Unevaluated } from './evaluate-action.js';
import type { CrossingResult } from './isolate-sandbox.js';
import type { DecisionReply, Outcome, SandboxConnection } from './sandbox-connection.js';
import type { EvaluateMessage } from './sandbox-process.js';
import type { SandboxProcessPool } from './sandbox-process-pool.js';
import type { ResidentModule } from './resident-modules.js';

/** Added to a request's own time limits before the watchdog gives up on the process. */
const WATCHDOG_GRACE_MS = 1_000;
const LOAD_TIMEOUT_MS = 10_000;
/**
 * The crash-loop cap: a module whose process dies in this many decisions within the window is
 * quarantined (every later decision is a fail-safe YELLOW naming why) until it is unloaded and
 * loaded again. Reloads before that wait 10 ms, doubling with each recent crash (at most 320 ms).
 */
export const CRASH_LOOP_LIMIT = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;
const RESTART_BACKOFF_MS = 10;

export interface ProcessSandboxOptions {
  readonly source: string;
  readonly memoryLimitMb: number;
  readonly filename: string;
  readonly extensions?: readonly string[];
  readonly processes: SandboxProcessPool;
}

/** `atCapacity`: the pool's budget had no room for the module. */
type LoadFailure = { ok: false; message: string; atCapacity?: true };
type Loaded = { ok: true; connection: SandboxConnection; metadataJson: string } | LoadFailure;

let modulesStarted = 0;

export class ProcessEvaluator implements ActionEvaluator, ResidentModule {
  /** This module's name in the processes that host it. */
  readonly #module = `module-${++modulesStarted}`;
  #slot: number;
  /** Decisions, calls and loads of this module in flight. */
  #inFlight = 0;
  /** The load on `#loadedOn`, the slot's process when it was last asked for, done or in flight. */
  #loaded: Promise<Loaded> | undefined;
  #loadedOn: SandboxConnection | undefined;
  #disposed = false;
  /** When recent decisions crashed the process (the crash-loop cap). */
  #crashes: number[] = [];
  /** Why the module is quarantined, once it is. */
  #quarantined: string | undefined;
  /** The module loaded ahead on the replacement of a process being recycled (`preload`). */
  #preloaded: { connection: SandboxConnection; loaded: Loaded } | undefined;

  private constructor(private readonly options: ProcessSandboxOptions) {
    this.#slot = options.processes.place();
  }

  /** Places the module on a process and loads it there; returns its metadata JSON. */
  static async start(options: ProcessSandboxOptions): Promise<{ ok: true; evaluator: ProcessEvaluator; metadataJson: string } | LoadFailure> {
    const evaluator = new ProcessEvaluator(options);
    const loaded = await evaluator.#busyWhile(() => evaluator.#ensureLoaded());
    if (loaded.ok) return { ok: true, evaluator, metadataJson: loaded.metadataJson };
    await evaluator.dispose();
    return loaded;
  }

  get memoryLimitMb(): number {
    return this.options.memoryLimitMb;
  }

  get busy(): boolean {
    return this.#inFlight > 0;
  }

  /**
   * Unloads the module's isolate (to make room for another, to leave a stalled process, or for
   * good); its next decision loads it again. The unload follows the load it undoes, so a load
   * still waiting out its backoff cannot arrive after it and leave the isolate behind; and it
   * is not sent when the module has come back to that process meanwhile (moved away and back,
   * or away and back while a recycle drained the other), where the newer load replaces the
   * older and an unload after it would leave the module missing.
   */
  evict(): void {
    const loaded = this.#loaded;
    this.#loaded = undefined;
    this.#loadedOn = undefined;
    this.#dropPreloaded();
    void loaded?.then((done) => {
      if (done.ok && done.connection !== this.#loadedOn) this.#unloadFrom(done.connection);
    });
  }

  /**
   * Loads the module on the replacement of `retired`, the process it is loaded on, which is
   * being recycled; its decisions go on on `retired` meanwhile. The replacement takes over once
   * every module of the process has loaded there, and this load is taken as the module's there.
   * A load that fails is not kept: the module then loads with its next decision, as after a crash.
   */
  async preload(retired: SandboxConnection, replacement: SandboxConnection): Promise<void> {
    if (this.#disposed || this.#quarantined !== undefined || this.#loadedOn !== retired) return;
    const loaded = await this.#busyWhile(() => this.#loadOn(replacement));
    if (!loaded.ok) return;
    // Unloaded, moved or disposed while it loaded (each clears `#loadedOn`): nothing will take it.
    if (this.#loadedOn !== retired) {
      this.#unloadFrom(replacement);
      return;
    }
    this.#dropPreloaded();
    this.#preloaded = { connection: replacement, loaded };
  }

  /** Unloads what `preload` loaded and was not taken (evicted, moved, or disposed meanwhile). */
  #dropPreloaded(): void {
    const preloaded = this.#preloaded;
    this.#preloaded = undefined;
    if (preloaded !== undefined) this.#unloadFrom(preloaded.connection);
  }

  #unloadFrom(connection: SandboxConnection): void {
    if (connection.alive) void connection.request({ module: this.#module, unload: true }, LOAD_TIMEOUT_MS);
  }

  async evaluate(spec: ActionSpec, ctxJson: string, control: EvaluationControl = {}): Promise<ActionEvaluation | Unevaluated> {
    this.#assertLive();
    return this.#busyWhile(() => this.#evaluate(spec, ctxJson, control));
  }

  async #evaluate(spec: ActionSpec, ctxJson: string, control: EvaluationControl): Promise<ActionEvaluation | Unevaluated> {
    if (this.#quarantined !== undefined) return everyRuleErrored(spec, 'crash', this.#quarantined);
    const watchdogMs = watchdogFor(spec, ctxJson);
    const send = (alone: boolean) => this.#send((connection, moved) => connection.decide(this.#module, spec.name, ctxJson, watchdogMs, { alone, stay: moved, signal: control.signal }));
    let outcome = await send(false);
    // Its batch killed the process: alone, this decision shows whether it was the cause.
    if (!outcome.ok && outcome.fault === 'batched') outcome = await send(true);
    if (outcome.ok) return decided(outcome.value, spec);
    switch (outcome.fault) {
      case 'running':
        this.#recordCrash(outcome.message);
        return this.#attributeCrash(spec, ctxJson, outcome.message);
      case 'OVERLOADED':
      case 'CANCELLED':
      case 'DEADLINE_EXCEEDED':
        return { unevaluated: outcome.fault, message: outcome.message };
      default:
        return everyRuleErrored(spec, 'crash', outcome.message);
    }
  }

  /** A call to another entry point; a process that dies under it is a `crash`. */
  async call(entry: string, args: readonly string[], timeLimitMs: number): Promise<CrossingResult> {
    this.#assertLive();
    return this.#busyWhile(() => this.#call(entry, args, timeLimitMs));
  }

  async #call(entry: string, args: readonly string[], timeLimitMs: number): Promise<CrossingResult> {
    const outcome = await this.#send((connection) => connection.request({ module: this.#module, call: { entry, args, timeLimitMs } }, 2 * timeLimitMs + WATCHDOG_GRACE_MS));
    if (outcome.ok) return outcome.value.crossing ?? { ok: false, kind: 'exception', message: outcome.value.error ?? 'no reply' };
    return { ok: false, kind: 'crash', message: `${outcome.message}; the sandbox process was restarted` };
  }

  /**
   * Sends a request of this module to its slot's process, loading the module there first. A
   * request that waited behind another module's crash is sent once more, on the replacement.
   * One handed back by a stalled process is sent again where the module moves to (nothing ran,
   * so that is no attempt), marked `moved` so that it stays there whatever stalls next.
   */
  async #send<T>(send: (connection: SandboxConnection, moved: boolean) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    for (let attempt = 1, moved = false; ; ) {
      const loaded = await this.#ensureLoaded();
      if (!loaded.ok && loaded.atCapacity) return { ok: false, fault: 'OVERLOADED', message: loaded.message };
      if (!loaded.ok) return { ok: false, fault: 'unloadable', message: `the sandbox process could not load the module: ${loaded.message}` };
      const outcome = await send(loaded.connection, moved);
      if (outcome.ok || (outcome.fault !== 'waiting' && outcome.fault !== 'moved')) return outcome;
      if (outcome.fault === 'moved') moved = true;
      else if (++attempt > 2) return { ...outcome, message: `${outcome.message}, twice` };
    }
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.options.processes.release(this.#slot);
    this.options.processes.resident.leave(this);
    const loaded = this.#loaded;
    this.evict();
    await loaded;
  }

  /** A disposed evaluator never loads its module again. */
  #assertLive(): void {
    if (this.#disposed) throw new Error('the module was unloaded');
  }

  async #busyWhile<T>(work: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await work();
    } finally {
      this.#inFlight--;
    }
  }

  /**
   * The module loaded on its slot's live process: loaded there first if that process is new, or
   * if it moved off a process another module's crossing stalls (unloaded there when it frees).
   */
  #ensureLoaded(): Promise<Loaded> {
    const { processes } = this.options;
    let connection = processes.connection(this.#slot);
    if (connection.stalledBy !== undefined && connection.stalledBy !== this.#module) {
      this.#slot = processes.move(this.#slot);
      connection = processes.connection(this.#slot);
    }
    if (this.#loaded === undefined || this.#loadedOn !== connection) {
      const admission = processes.resident.admit(this);
      if (admission !== undefined) return Promise.resolve({ ok: false, message: admission, atCapacity: true });
      const preloaded = this.#preloaded?.connection === connection ? this.#preloaded.loaded : undefined;
      if (preloaded !== undefined) this.#preloaded = undefined;
      this.evict();
      this.#loadedOn = connection;
      // Loaded ahead on a recycle's replacement; else loaded now, after a crash this module
      // caused only once the crash-loop backoff has passed.
      this.#loaded = preloaded !== undefined ? Promise.resolve(preloaded) : this.#loadAfterBackoff(connection);
    } else {
      processes.resident.touch(this);
    }
    return this.#loaded;
  }

  async #loadAfterBackoff(connection: SandboxConnection): Promise<Loaded> {
    await delay(this.#backoffMs());
    const loaded = await this.#loadOn(connection);
    if (!loaded.ok) this.options.processes.resident.leave(this);
    return loaded;
  }

  async #loadOn(connection: SandboxConnection): Promise<Loaded> {
    const { source, memoryLimitMb, filename, extensions } = this.options;
    const outcome = await connection.request({ module: this.#module, load: { memoryLimitMb, filename, ...(extensions && { extensions }) } }, LOAD_TIMEOUT_MS, source);
    if (!outcome.ok) return { ok: false, message: outcome.message };
    const { metadata, error } = outcome.value;
    return metadata !== undefined ? { ok: true, connection, metadataJson: metadata } : { ok: false, message: error ?? 'the sandbox process did not load the module' };
  }

  #recordCrash(cause: string): void {
    const now = Date.now();
    this.#crashes = this.#crashes.filter((at) => now - at < CRASH_LOOP_WINDOW_MS);
    this.#crashes.push(now);
    if (this.#crashes.length >= CRASH_LOOP_LIMIT) {
      this.#quarantined = `the module is quarantined: its sandbox process died in ${this.#crashes.length} decisions within ${CRASH_LOOP_WINDOW_MS / 1000} s (last: ${cause}); unload it and load it again to retry`;
    }
  }

  #backoffMs(): number {
    const recent = this.#crashes.filter((at) => Date.now() - at < CRASH_LOOP_WINDOW_MS).length;
    return recent === 0 ? 0 : RESTART_BACKOFF_MS * 2 ** (recent - 1);
  }

  /**
   * The process died while this decision ran: find what kills it, on a private process. Each
   * derivation is derived with the ones before it, in order, so a crashing derivation is pinned
   * by name and treated as failed from then on (reading it throws); then each rule runs alone.
   * Every other result is exact.
   */
  async #attributeCrash(spec: ActionSpec, ctxJson: string, cause: string): Promise<ActionEvaluation> {
    const lane = new AttributionLane(this.options.processes, (connection) => this.#loadOn(connection));
    try {
      const failed: Record<string, string> = {};
      const crashed: FailedDerivation[] = [];
      for (let derive = 1; derive <= spec.computed.length; derive++) {
        const outcome = await lane.attempt(this.#module, { action: spec.name, only: [], derive, failed }, ctxJson, watchdogFor(spec, ctxJson), cause);
        if (!outcome.ok) {
          const name = spec.computed[derive - 1]!;
          failed[name] = `${outcome.message}; the sandbox process was restarted`;
          crashed.push({ attribute: name, kind: 'crash', message: failed[name] });
        }
      }
      const rules: RuleEvaluation[] = [];
      let last: ActionEvaluation | undefined;
      for (const rule of spec.rules) {
        const outcome = await lane.attempt(this.#module, { action: spec.name, only: [rule.id], failed }, ctxJson, watchdogFor({ ...spec, rules: [rule] }, ctxJson), cause);
        if (outcome.ok) {
          last = outcome.evaluation;
          rules.push(last.rules[0]!);
        } else {
          rules.push({ state: 'errored', kind: 'crash', phase: null, message: `${outcome.message}; the sandbox process was restarted` });
        }
      }
      return { computed: last?.computed ?? {}, failedDerivations: [...(last?.failedDerivations ?? []), ...crashed], rules };
    } finally {
      lane.close();
    }
  }
}

/** A private process for crash attribution, replaced (and the module loaded again) each time it dies. */
class AttributionLane {
  #connection: SandboxConnection | undefined;

  constructor(
    private readonly processes: SandboxProcessPool,
    private readonly load: (connection: SandboxConnection) => Promise<Loaded>,
  ) {}

  async attempt(module: string, evaluate: EvaluateMessage['evaluate'], ctxJson: string, watchdogMs: number, cause: string): Promise<{ ok: true; evaluation: ActionEvaluation } | { ok: false; message: string }> {
    if (this.#connection === undefined || !this.#connection.alive) {
      this.#connection = this.processes.private();
      if (!(await this.load(this.#connection)).ok) return { ok: false, message: cause };
    }
    const outcome = await this.#connection.request({ module, evaluate }, watchdogMs, ctxJson);
    if (outcome.ok && outcome.value.evaluation !== undefined) return { ok: true, evaluation: outcome.value.evaluation };
    return { ok: false, message: outcome.ok ? (outcome.value.error ?? cause) : outcome.message };
  }

  close(): void {
    this.#connection?.kill();
  }
}

/** A decision's evaluation from its part of a batch's reply. */
function decided(reply: DecisionReply, spec: ActionSpec): ActionEvaluation {
  if ('answer' in reply) return decodeEvaluation(reply.answer, spec);
  if ('evaluation' in reply) return reply.evaluation;
  return everyRuleErrored(spec, 'exception', reply.error);
}

function delay(ms: number): Promise<void> {
  return ms === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** Twice the one-crossing limit (the in-process attribution pass may follow it), plus grace. */
function watchdogFor(spec: ActionSpec, ctxJson: string): number {
  return 2 * crossingLimitMs(spec, ctxJson) + WATCHDOG_GRACE_MS;
}
