/**
 * Evaluation in a supervised sandbox process (sandbox-process.ts): the default isolation,
 * because a fatal V8 error inside isolated-vm can abort or wedge the process hosting the
 * isolate, and that process must not be the decision host.
 *
 * One process per loaded module, one request in flight at a time. A watchdog bounds every
 * request; when the process dies or stops answering, it is killed and restarted with the same
 * verified source, and the rules of the request are re-run one per request, so the failure is
 * pinned on exactly the rule that causes it (kind `crash`) and every other result is exact.
 */
import type { ChildProcess } from 'node:child_process';
import type { ActionEvaluator } from '../load/loaded-module.js';
import type { ActionSpec } from '../module/module-metadata.js';
import { crossingLimitMs, everyRuleErrored, type ActionEvaluation, type FailedDerivation, type RuleEvaluation } from './evaluate-action.js';
import type { CrossingResult } from './isolate-sandbox.js';
import type { EvaluateMessage, SandboxRequest } from './sandbox-process.js';
import { writeFrame } from './bulk-frames.js';
import { bulkPipe, forkSandboxProcess, type SandboxProcessPool } from './sandbox-process-pool.js';

/** Added to a request's own time limits before the watchdog gives up on the process. */
const WATCHDOG_GRACE_MS = 1_000;
const LOAD_TIMEOUT_MS = 10_000;
/**
 * The crash-loop cap: a module whose process dies in this many decisions within the window is
 * quarantined (every later decision is a fail-safe YELLOW naming why) until it is unloaded and
 * loaded again. Restarts before that wait 10 ms, doubling with each recent crash (at most 320 ms).
 */
export const CRASH_LOOP_LIMIT = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;
const RESTART_BACKOFF_MS = 10;

export interface ProcessSandboxOptions {
  readonly source: string;
  readonly memoryLimitMb: number;
  readonly filename: string;
  readonly extensions?: readonly string[];
  /** Where processes come from: booted spares when given, else a fresh fork each time. */
  readonly processes?: SandboxProcessPool;
}

type Reply = { id: number; metadata?: string; evaluation?: ActionEvaluation; crossing?: CrossingResult; error?: string };
type Outcome = { ok: true; reply: Reply } | { ok: false; message: string };

export class ProcessEvaluator implements ActionEvaluator {
  #child: ChildProcess | undefined;
  #nextId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;
  /** When recent decisions crashed the process (the crash-loop cap). */
  #crashes: number[] = [];
  /** Why the module is quarantined, once it is. */
  #quarantined: string | undefined;

  private constructor(private readonly options: ProcessSandboxOptions) {}

  /** Starts the process and loads the module; returns its metadata JSON. */
  static async start(options: ProcessSandboxOptions): Promise<{ ok: true; evaluator: ProcessEvaluator; metadataJson: string } | { ok: false; message: string }> {
    const evaluator = new ProcessEvaluator(options);
    const loaded = await evaluator.#load();
    if (loaded.ok) return { ok: true, evaluator, metadataJson: loaded.metadataJson };
    await evaluator.dispose();
    return loaded;
  }

  evaluate(spec: ActionSpec, ctxJson: string): Promise<ActionEvaluation> {
    const run = this.#queue.then(() => this.#evaluate(spec, ctxJson));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** A call to another entry point; a dead or hung process is a `crash` and is restarted. */
  call(entry: string, args: readonly string[], timeLimitMs: number): Promise<CrossingResult> {
    const run = this.#queue.then(async (): Promise<CrossingResult> => {
      this.#assertLive();
      if (!(await this.#restartIfNeeded())) return { ok: false, kind: 'exception', message: 'the sandbox process could not be restarted' };
      const outcome = await this.#request({ call: { entry, args, timeLimitMs } }, 2 * timeLimitMs + WATCHDOG_GRACE_MS);
      if (outcome.ok) return outcome.reply.crossing ?? { ok: false, kind: 'exception', message: outcome.reply.error ?? 'no reply' };
      return { ok: false, kind: 'crash', message: `${outcome.message}; the sandbox process was restarted` };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#child?.kill('SIGKILL');
    this.#child = undefined;
  }

  /** A disposed evaluator never starts a process again. */
  #assertLive(): void {
    if (this.#disposed) throw new Error('the module was unloaded');
  }

  async #evaluate(spec: ActionSpec, ctxJson: string): Promise<ActionEvaluation> {
    this.#assertLive();
    if (this.#quarantined !== undefined) return everyRuleErrored(spec, 'crash', this.#quarantined);
    // After a crash the process is gone until something loads the module again: a request to
    // a fresh process that never loaded it would find no module (and decide YELLOW forever).
    if (this.#child === undefined) await delay(this.#backoffMs());
    if (!(await this.#restartIfNeeded())) return everyRuleErrored(spec, 'crash', 'the sandbox process could not be restarted');
    const outcome = await this.#request({ evaluate: { action: spec.name, ctxJson } }, watchdogFor(spec, ctxJson));
    if (outcome.ok && outcome.reply.evaluation !== undefined) return outcome.reply.evaluation;
    const cause = outcome.ok ? (outcome.reply.error ?? 'no evaluation') : outcome.message;
    if (!outcome.ok) this.#recordCrash(cause);
    return this.#attributeCrash(spec, ctxJson, cause);
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
   * The process died during a request: find what kills it. Each derivation is derived with the
   * ones before it, in order, so a crashing derivation is pinned by name and treated as failed
   * from then on (reading it throws); then each rule runs alone. Every other result is exact.
   */
  async #attributeCrash(spec: ActionSpec, ctxJson: string, cause: string): Promise<ActionEvaluation> {
    const failed: Record<string, string> = {};
    const crashed: FailedDerivation[] = [];
    for (let derive = 1; derive <= spec.computed.length; derive++) {
      const outcome = await this.#attempt({ action: spec.name, ctxJson, only: [], derive, failed }, spec, ctxJson, cause);
      if (!outcome.ok) {
        const name = spec.computed[derive - 1]!;
        failed[name] = `${outcome.message}; the sandbox process was restarted`;
        crashed.push({ attribute: name, kind: 'crash', message: failed[name] });
      }
    }
    const rules: RuleEvaluation[] = [];
    let last: ActionEvaluation | undefined;
    for (const rule of spec.rules) {
      const outcome = await this.#attempt({ action: spec.name, ctxJson, only: [rule.id], failed }, { ...spec, rules: [rule] }, ctxJson, cause);
      if (outcome.ok) {
        last = outcome.evaluation;
        rules.push(last.rules[0]!);
      } else {
        rules.push({ state: 'errored', kind: 'crash', phase: null, message: `${outcome.message}; the sandbox process was restarted` });
      }
    }
    return { computed: last?.computed ?? {}, failedDerivations: [...(last?.failedDerivations ?? []), ...crashed], rules };
  }

  /** One attribution request, on a restarted process if the last one died. */
  async #attempt(
    evaluate: EvaluateMessage['evaluate'],
    spec: ActionSpec,
    ctxJson: string,
    cause: string,
  ): Promise<{ ok: true; evaluation: ActionEvaluation } | { ok: false; message: string }> {
    if (!(await this.#restartIfNeeded())) return { ok: false, message: cause };
    const outcome = await this.#request({ evaluate }, watchdogFor(spec, ctxJson));
    if (outcome.ok && outcome.reply.evaluation !== undefined) return { ok: true, evaluation: outcome.reply.evaluation };
    return { ok: false, message: outcome.ok ? (outcome.reply.error ?? cause) : outcome.message };
  }

  async #restartIfNeeded(): Promise<boolean> {
    if (this.#child !== undefined) return true;
    return (await this.#load()).ok;
  }

  async #load(): Promise<{ ok: true; metadataJson: string } | { ok: false; message: string }> {
    const { source, memoryLimitMb, filename, extensions } = this.options;
    const outcome = await this.#request({ load: { memoryLimitMb, filename, ...(extensions && { extensions }) } }, LOAD_TIMEOUT_MS, source);
    this.options.processes?.refillSoon();
    if (!outcome.ok) return outcome;
    return outcome.reply.metadata !== undefined ? { ok: true, metadataJson: outcome.reply.metadata } : { ok: false, message: outcome.reply.error ?? 'the sandbox process did not load the module' };
  }

  #spawn(): ChildProcess {
    const child = this.options.processes?.take() ?? forkSandboxProcess(this.options.memoryLimitMb);
    child.on('exit', () => {
      if (this.#child === child) this.#child = undefined;
    });
    this.#child = child;
    return child;
  }

  /**
   * Sends one request, and `bulk` as a frame after it (the bundle of a load), and waits for
   * the reply, the process's death, or the watchdog.
   */
  #request(body: Omit<SandboxRequest, 'id'>, watchdogMs: number, bulk?: string): Promise<Outcome> {
    const child = this.#child ?? this.#spawn();
    const id = this.#nextId++;
    return new Promise<Outcome>((resolve) => {
      const settle = (outcome: Outcome) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id === id) settle({ ok: true, reply });
      };
      const onExit = (code: number | null, signal: string | null) => {
        settle({ ok: false, message: `the sandbox process died (${signal ?? `exit code ${code}`})` });
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        if (this.#child === child) this.#child = undefined;
        settle({ ok: false, message: `the sandbox process stopped responding for ${watchdogMs} ms and was killed` });
      }, watchdogMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ id, ...body });
      if (bulk !== undefined) writeFrame(bulkPipe(child), bulk);
    });
  }
}

function delay(ms: number): Promise<void> {
  return ms === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** Twice the one-crossing limit (the in-process attribution pass may follow it), plus grace. */
function watchdogFor(spec: ActionSpec, ctxJson: string): number {
  return 2 * crossingLimitMs(spec, ctxJson) + WATCHDOG_GRACE_MS;
}
