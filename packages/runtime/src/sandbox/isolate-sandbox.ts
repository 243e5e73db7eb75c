/**
 * One isolated-vm isolate holding one module (ARCHITECTURE.md "Sandbox").
 *
 * The isolate has a memory limit, no host objects (only JSON text crosses, in both
 * directions), no clock, no randomness, no timers, and frozen intrinsics. Each call runs under
 * a time limit; an isolate that ran out of memory, or whose execution was terminated at its
 * time limit in any entry but a resumable batch's, is disposed and rebuilt from the same
 * verified source before the next call, so one hostile predicate never leaves a half-dead
 * isolate behind for the next decision. A batch's crossings are built to stop anywhere and
 * resume (isolate-prelude.ts): everything a predicate can reach is frozen, so a terminated one
 * leaves nothing behind but the batch's own progress, which is the point. A stop that came late
 * (`late`) rebuilds the isolate all the same: something heavy ran there that its limit could
 * not stop, and the next call should not start in what it left.
 */
import ivm from 'isolated-vm';
import { messageOf } from '../error-message.js';
import { LEGACY_ABI1_SHIM } from '../module/legacy-abi1.js';
import { EVALUATOR_AFTER_BUNDLE, HARDEN_BEFORE_BUNDLE, SEAL } from './isolate-prelude.js';
import type { BoxedEntry, IsolateGlobals } from './isolate/isolate-globals.js';

export interface IsolateOptions {
  /** Heap limit of the isolate in MiB (isolated-vm's minimum is 8). */
  readonly memoryLimitMb: number;
  /** Shown in stack traces of the bundle's code. */
  readonly filename: string;
  /**
   * Trusted scripts run after the evaluator and before the isolate is sealed; each may call
   * `__adec_extend((module, { messageOf }) => { globalThis.__my_entry = (json) => … })`.
   */
  readonly extensions?: readonly string[];
}

/**
 * Why a call into the isolate did not return a value. `crash`: the supervised process hosting
 * the isolate died or stopped answering (process-evaluator.ts); never produced in-process.
 */
export type CrossingFailureKind = 'timeout' | 'memory' | 'exception' | 'crash';

export type CrossingResult = { readonly ok: true; readonly value: string } | CrossingFailure;

export interface CrossingFailure {
  readonly ok: false;
  readonly kind: CrossingFailureKind;
  readonly message: string;
  /**
   * A time limit's stop: the CPU time the isolate had in the call (its limit is wall time: a
   * call the scheduler starved stops having done less than its limit's worth). `late` when
   * that is more than LATE_STOP_MS past the limit: a built-in that cannot be interrupted
   * (building a string of hundreds of MiB) ran past it, and the termination landed wherever
   * the code went next, not in what overran.
   */
  readonly cpuMs?: number;
  readonly late?: true;
}

const LATE_STOP_MS = 10;

interface LiveIsolate {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
  /** Entry points looked up so far, by global name, each boxed (`boxedEntry`). */
  readonly entries: Map<string, ivm.Reference<BoxedEntry>>;
}

/**
 * An isolate with its context, hardened: all a load does before the bundle arrives, so a
 * sandbox process can do it while it waits (sandbox-process.ts).
 */
export interface BlankIsolate {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
  readonly memoryLimitMb: number;
}

export function blankIsolate(memoryLimitMb: number): BlankIsolate {
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  try {
    const context = isolate.createContextSync();
    isolate.compileScriptSync(HARDEN_BEFORE_BUNDLE, { filename: 'adec:harden' }).runSync(context);
    return { isolate, context, memoryLimitMb };
  } catch (error) {
    isolate.dispose();
    throw error;
  }
}

/** Entry points whose time limit stops a batch that resumes: the isolate is kept. */
const RESUMABLE_ENTRIES: ReadonlySet<string> = new Set(['__adec_evaluate_batch', '__adec_resume']);

/** Copying the module's static tables out is plain data work; a module that needs longer is broken. */
const METADATA_TIME_LIMIT_MS = 1_000;

export class IsolateSandbox {
  #live: LiveIsolate | undefined;

  private constructor(
    private readonly source: string,
    private readonly options: IsolateOptions,
  ) {}

  /**
   * Compiles and runs the bundle in a fresh isolate and reads the module's static tables (the
   * JSON `module-metadata.ts` parses). A bundle whose top level throws, that does not define
   * the module, or whose tables cannot be read is refused with the error as a value.
   * `blank`, when its memory limit is the module's, is used instead of a new isolate.
   */
  static create(
    source: string,
    options: IsolateOptions,
    blank?: BlankIsolate,
  ): { ok: true; sandbox: IsolateSandbox; metadataJson: string } | { ok: false; message: string } {
    const sandbox = new IsolateSandbox(source, options);
    const usable = blank?.memoryLimitMb === options.memoryLimitMb ? blank : undefined;
    if (blank !== undefined && usable === undefined) blank.isolate.dispose();
    try {
      sandbox.#live = sandbox.#start(usable);
    } catch (error) {
      sandbox.dispose();
      return { ok: false, message: `the bundle could not be loaded into an isolate: ${(error as Error).message}` };
    }
    const metadata = sandbox.call('__adec_metadata', [], METADATA_TIME_LIMIT_MS);
    if (metadata.ok) return { ok: true, sandbox, metadataJson: metadata.value };
    sandbox.dispose();
    return { ok: false, message: `the module's tables could not be read: ${metadata.message}` };
  }

  /**
   * Calls `entry` under `timeLimitMs`, plus `copyAllowanceMs` for copying its arguments in
   * (evaluate-action.ts): a failure names the limit of what ran, not the allowance.
   */
  call(entry: string, args: readonly string[], timeLimitMs: number, copyAllowanceMs = 0): CrossingResult {
    const live = this.#ensureLive();
    const cpuBefore = live.isolate.cpuTime;
    try {
      const boxed: unknown = entryPoint(live, entry).applySync(undefined, [[...args]], { timeout: Math.max(1, Math.ceil(timeLimitMs + copyAllowanceMs)), arguments: { copy: true }, result: { copy: true } });
      const value = Array.isArray(boxed) ? (boxed[0] as unknown) : undefined;
      if (typeof value !== 'string') return { ok: false, kind: 'exception', message: `entry point ${entry} returned ${typeof value}, not text` };
      return { ok: true, value };
    } catch (error) {
      const message = messageOf(error);
      const kind = classify(live.isolate, message);
      const failure: CrossingFailure = { ok: false, kind, message: describe(kind, message, timeLimitMs, this.options.memoryLimitMb) };
      if (kind === 'memory') this.#retire();
      if (kind !== 'timeout') return failure;
      const cpuMs = Number(live.isolate.cpuTime - cpuBefore) / 1e6;
      const late = cpuMs > timeLimitMs + copyAllowanceMs + LATE_STOP_MS;
      // Terminated late or outside a resumable batch: rebuild before the next call.
      if (late || !RESUMABLE_ENTRIES.has(entry)) this.#retire();
      return late ? { ...failure, cpuMs, late } : { ...failure, cpuMs };
    }
  }

  /** V8's heap statistics of the isolate, while it is live (a rebuilt one is not until its next call). */
  heapStatistics(): ivm.HeapStatistics | undefined {
    const live = this.#live;
    return live === undefined || live.isolate.isDisposed ? undefined : live.isolate.getHeapStatisticsSync();
  }

  dispose(): void {
    this.#retire();
  }

  #ensureLive(): LiveIsolate {
    this.#live ??= this.#start();
    return this.#live;
  }

  #retire(): void {
    const live = this.#live;
    this.#live = undefined;
    if (live !== undefined && !live.isolate.isDisposed) live.isolate.dispose();
  }

  #start(blank?: BlankIsolate): LiveIsolate {
    const { isolate, context } = blank ?? blankIsolate(this.options.memoryLimitMb);
    try {
      isolate.compileScriptSync(this.source, { filename: this.options.filename }).runSync(context, { timeout: 5_000 });
      const defined: unknown = context.evalSync('typeof __adec_module === "object" && __adec_module !== null');
      if (defined !== true) throw new Error('the bundle does not define __adec_module');
      isolate.compileScriptSync(LEGACY_ABI1_SHIM, { filename: 'adec:legacy-abi1-shim' }).runSync(context);
      // Set only now that the bundle's code has run; the evaluator takes it away at once.
      context.global.setSync('__adec_clock', new ivm.Reference(() => performance.now()));
      isolate.compileScriptSync(EVALUATOR_AFTER_BUNDLE, { filename: 'adec:evaluator' }).runSync(context);
      for (const [i, source] of (this.options.extensions ?? []).entries()) {
        isolate.compileScriptSync(source, { filename: `adec:extension-${i}` }).runSync(context);
      }
      isolate.compileScriptSync(SEAL, { filename: 'adec:seal' }).runSync(context);
      return { isolate, context, entries: new Map() };
    } catch (error) {
      if (!isolate.isDisposed) isolate.dispose();
      throw error;
    }
  }
}

function entryPoint(live: LiveIsolate, name: string): ivm.Reference<BoxedEntry> {
  let entry = live.entries.get(name);
  if (entry === undefined) {
    if (live.context.global.getSync(name) === undefined) throw new Error(`the isolate has no entry point ${name}`);
    entry = boxedEntry(live.context, name);
    live.entries.set(name, entry);
  }
  return entry;
}

/**
 * The entry point `name`, boxed by the evaluator's `__adec_box_entry` (isolate/evaluator.ts): a
 * function calling it with the arguments it is given in an array, and returning its answer in an
 * array; both arrays are copied whole (`copy: true`). Why: isolated-vm
 * hands a string of 1 KiB or more across as an external string, allocated in V8's old space
 * with its text outside the heap, so only a full collection frees it, and nothing prompts one.
 * Out of the isolate, a sandbox process's own heap hardly grows (about 5 MB), so it ran none,
 * and every batch's answer stayed in its native memory: about 0.2 KB per decision, without end
 * (issue 27; runtime README, "Memory of a sandbox process"). Into it, a batch's contexts stayed
 * until the isolate neared its memory limit. Copied in an array, a string is deserialised as an
 * ordinary one, freed by the next young-generation collection.
 */
function boxedEntry(context: ivm.Context, name: string): ivm.Reference<BoxedEntry> {
  const box = context.global.getSync('__adec_box_entry', { reference: true }) as ivm.Reference<NonNullable<IsolateGlobals['__adec_box_entry']>>;
  return box.applySync(undefined, [name], { result: { reference: true } });
}

function classify(isolate: ivm.Isolate, message: string): CrossingFailureKind {
  if (isolate.isDisposed || /memory limit/i.test(message)) return 'memory';
  if (/execution timed out/i.test(message)) return 'timeout';
  return 'exception';
}

function describe(kind: CrossingFailureKind, message: string, timeLimitMs: number, memoryLimitMb: number): string {
  switch (kind) {
    case 'timeout':
      return `exceeded its time limit of ${timeLimitMs} ms`;
    case 'memory':
      return `exhausted the sandbox memory limit of ${memoryLimitMb} MiB; the isolate was rebuilt`;
    case 'exception':
    case 'crash':
      return message;
  }
}
