/**
 * A sandbox process as the host sees it: the frames in flight on its pipe, answered in the
 * order sent, so the oldest unanswered frame is the one running; the decisions waiting to be
 * sent; a watchdog on the running frame; and what happens to all of them when the process dies.
 *
 * Micro-batching: while fewer than MAX_FRAMES_IN_FLIGHT frames are unanswered, a decision is
 * sent at once (an idle process answers one decision with no added wait); otherwise it waits,
 * and when a reply frees the pipe every waiting decision is sent, one frame per module holding
 * up to MAX_BATCH decisions, each frame evaluated in one isolate crossing (sandbox-process.ts).
 * Two frames in flight keep the process busy: it works on one while the next is on its way.
 *
 * Backpressure: at most `queueLimit` decisions are queued or in flight; one more is refused at
 * once (`OVERLOADED`), so a burst never grows memory without bound. A decision whose caller's
 * signal aborts is answered at once (`CANCELLED`, or `DEADLINE_EXCEEDED` for a timeout signal)
 * and leaves the queue if it was not yet sent; once sent, its reply is dropped on arrival.
 *
 * A batch that runs long (STALL_MS, e.g. a predicate that loops until its limit) stalls the
 * process: the decisions of other modules waiting behind it are handed back at once (fault
 * `moved`, with a message saying why), and `stalledBy` names the module that runs, so their
 * modules move to another process (process-evaluator.ts) instead of waiting out its limit. The
 * frames already sent stay in the pipe, and their replies are dropped. Nothing is handed back
 * when the pool has no other process to take it, and a decision is handed back at most once.
 *
 * When the process dies (a fatal V8 error in some module's isolate) or stops answering, each
 * request learns its part in it (`Fault`): the one that was running alone caused it; each of a
 * batch that was running may have; every request behind them did nothing wrong, and its caller
 * re-runs it on a healthy process (a decision is deterministic).
 *
 * Recycling (sandbox-process-pool.ts): a retired process takes nothing new (`moved`: its
 * caller sends it to the replacement) and is stopped once everything it was given is answered.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { abandonedBy, batchAnswers, type ActionEvaluation, type Unevaluated } from './evaluate-action.js';
import { FRAME_FD, FrameReader, readMessage, writeMessage } from './frames.js';
import type { CrossingResult } from './isolate-sandbox.js';
import type { SandboxProcessMemory } from './sandbox-memory.js';
import type { SandboxRequest } from './sandbox-process.js';

/** Frames unanswered before decisions wait to be batched. */
const MAX_FRAMES_IN_FLIGHT = 2;
/** Decisions in one frame (one crossing): bounds the work a single reply waits for. */
const MAX_BATCH = 64;
/**
 * How long a frame may run before the process counts as stalled. A full batch (64 decisions of
 * 50 rules) takes about 1 ms on this project's machines; a predicate limit is 5 ms by default,
 * and a crossing's is the sum of its predicates'.
 */
export const STALL_MS = 10;
/** Decisions queued or in flight on one process, by default. */
export const DEFAULT_QUEUE_LIMIT = 1_000;
/** How long a process may take to report its memory. */
const MEMORY_WATCHDOG_MS = 5_000;

export interface Reply {
  readonly id: number;
  readonly metadata?: string;
  readonly evaluation?: ActionEvaluation;
  readonly evaluations?: readonly ActionEvaluation[];
  /** The isolate's answer to a batch is the payload. */
  readonly answers?: true;
  readonly crossing?: CrossingResult;
  readonly memory?: SandboxProcessMemory;
  readonly error?: string;
}

/** A decision's result from its batch: its entry of the isolate's answer (to decode), its evaluation, or why there is none. */
export type DecisionReply = { readonly answer: unknown } | { readonly evaluation: ActionEvaluation } | { readonly error: string };

/**
 * Why a request has no reply. The process died: `running` while this request ran alone (its
 * module caused it), `batched` while its batch ran (re-run it alone to learn whether it did),
 * `waiting` while it waited behind others (re-run it). Another module's crossing stalled the
 * process and the request was handed back unsent or unstarted: `moved` (send it elsewhere).
 * The module could not be loaded on the
 * process to send it to: `unloadable` (process-evaluator.ts). Or the host gave up on it:
 * `OVERLOADED`, `CANCELLED`, `DEADLINE_EXCEEDED`.
 */
export type Fault = 'running' | 'batched' | 'waiting' | 'moved' | 'unloadable' | Refusal;
export type Refusal = Unevaluated['unevaluated'];

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly fault: Fault; readonly message: string };

/** A request without its id (the connection numbers them); distributed over the request kinds. */
export type RequestBody<R = SandboxRequest> = R extends unknown ? Omit<R, 'id'> : never;

/** Counts a pool keeps over all its connections, dead ones included. */
export interface TransportCounters {
  /** Batch frames sent. */
  frames: number;
  /** Decisions sent in them. */
  decisions: number;
}

export interface DecisionOptions {
  /** Sent in a frame of its own, never batched (the re-run of a decision whose batch died). */
  readonly alone?: boolean;
  /** Never handed back when the process stalls (a decision that moved once waits where it is). */
  readonly stay?: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** A decision queued or in flight. */
interface Member {
  readonly module: string;
  readonly action: string;
  readonly ctxJson: string;
  readonly watchdogMs: number;
  readonly alone: boolean;
  readonly stay: boolean;
  /** Answers the caller once; later answers (a reply after a cancellation) are dropped. */
  readonly settle: (outcome: Outcome<DecisionReply>) => void;
}

/** A frame sent and not yet answered. */
interface InFlight {
  readonly id: number;
  /** The module the frame is for (its host name); undefined for a request about the process. */
  readonly module: string | undefined;
  readonly watchdogMs: number;
  /** Handed back when the process stalled: its reply is dropped when it arrives. */
  handedBack: boolean;
  /** The decisions of a batch frame; undefined for any other request. */
  readonly members: readonly Member[] | undefined;
  readonly settle: (outcome: Outcome<Reply>, payload: string | undefined) => void;
}

export class SandboxConnection {
  readonly #child: ChildProcess;
  readonly #pipe: Socket;
  readonly #queueLimit: number;
  readonly #counters: TransportCounters;
  readonly #canMoveAway: () => boolean;
  /** Oldest first: the head is running, the rest wait in the process's pipe. */
  readonly #inFlight: InFlight[] = [];
  /** Decisions not yet sent, in arrival order. */
  #pending: Member[] = [];
  /** Decisions pending or in flight, counted against `queueLimit`. */
  #queued = 0;
  #watchdog: NodeJS.Timeout | undefined;
  #nextId = 1;
  /** Why the process is gone, once it is. */
  #death: string | undefined;
  /** The module whose frame has run past STALL_MS, while it runs. */
  #stalledBy: string | undefined;
  /** Decisions sent to this process. */
  #decisions = 0;
  /** Why it takes nothing new, once it is retired. */
  #retired: string | undefined;
  /** What the process last reported about its memory. */
  #memory: SandboxProcessMemory | undefined;

  /**
   * `canMoveAway`: whether another process could take the decisions a stall would hand back
   * (sandbox-process-pool.ts); without one they wait where they are.
   */
  constructor(child: ChildProcess, queueLimit = DEFAULT_QUEUE_LIMIT, counters: TransportCounters = { frames: 0, decisions: 0 }, canMoveAway: () => boolean = () => false) {
    this.#child = child;
    this.#canMoveAway = canMoveAway;
    this.#pipe = framePipe(child);
    this.#queueLimit = queueLimit;
    this.#counters = counters;
    new FrameReader(this.#pipe, (frame) => this.#answer(frame));
    child.on('exit', (code, signal) => this.#fail(`the sandbox process died (${signal ?? `exit code ${code}`})`));
    this.#setReferenced(false);
  }

  get alive(): boolean {
    return this.#death === undefined;
  }

  /** The module whose crossing has been running for more than STALL_MS, while it runs. */
  get stalledBy(): string | undefined {
    return this.#stalledBy;
  }

  /** Decisions queued or in flight on this process. */
  get queued(): number {
    return this.#queued;
  }

  /** Decisions sent to this process since it started. */
  get decisions(): number {
    return this.#decisions;
  }

  /** What the process reported about its memory the last time it was asked (`memory()`). */
  get lastMemory(): SandboxProcessMemory | undefined {
    return this.#memory;
  }

  /** The process's memory now, or undefined when it is gone or did not answer. */
  async memory(): Promise<SandboxProcessMemory | undefined> {
    const outcome = await this.request({ memory: true }, MEMORY_WATCHDOG_MS);
    if (outcome.ok && outcome.value.memory !== undefined) this.#memory = outcome.value.memory;
    return outcome.ok ? outcome.value.memory : undefined;
  }

  /**
   * Takes nothing new from now on (each request and decision is refused as `moved`, saying
   * why), and stops the process once what it holds is answered.
   */
  retire(why: string): void {
    this.#retired ??= why;
    this.#stopIfDrained();
  }

  /**
   * Sends one request (with `payload` after its header) in a frame of its own and waits for its
   * reply. The module's decisions still waiting to be batched are sent first: a module's frames
   * reach the process in the order they were asked for, so an unload never overtakes a decision
   * queued before it (which would find its module gone).
   */
  request(body: RequestBody, watchdogMs: number, payload?: string): Promise<Outcome<Reply>> {
    if (this.#death !== undefined) return Promise.resolve({ ok: false, fault: 'waiting', message: this.#death });
    if (this.#retired !== undefined) return Promise.resolve({ ok: false, fault: 'moved', message: this.#retired });
    const module = 'module' in body ? body.module : undefined;
    const [earlier, others] = partition(this.#pending, (member) => member.module === module);
    this.#pending = others;
    this.#sendBatches(earlier);
    return new Promise((resolve) => {
      const id = this.#nextId++;
      this.#send({ id, module, watchdogMs, handedBack: false, members: undefined, settle: (outcome) => resolve(outcome) }, { id, ...body }, payload);
    });
  }

  /** Queues one decision of `module`; it is sent at once or in the next batch. */
  decide(module: string, action: string, ctxJson: string, watchdogMs: number, options: DecisionOptions = {}): Promise<Outcome<DecisionReply>> {
    if (this.#death !== undefined) return Promise.resolve({ ok: false, fault: 'waiting', message: this.#death });
    if (this.#retired !== undefined) return Promise.resolve({ ok: false, fault: 'moved', message: this.#retired });
    const { signal, alone = false, stay = false } = options;
    if (signal?.aborted) return Promise.resolve(abandoned(signal));
    if (this.#queued >= this.#queueLimit) {
      return Promise.resolve({ ok: false, fault: 'OVERLOADED', message: `the sandbox process has ${this.#queued} decisions queued or in flight, its limit` });
    }
    return new Promise((resolve) => {
      let settled = false;
      const member: Member = {
        module,
        action,
        ctxJson,
        watchdogMs,
        alone,
        stay,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      // Not sent yet: it leaves the queue; sent: its reply is dropped when it arrives.
      const onAbort = () => {
        const at = this.#pending.indexOf(member);
        if (at !== -1) {
          this.#pending.splice(at, 1);
          this.#queued--;
        }
        member.settle(abandoned(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queued++;
      this.#pending.push(member);
      this.#flushIfFree();
    });
  }

  /** Kills the process; whatever is in flight or queued fails as if it had died. */
  kill(message = 'the sandbox process was stopped'): void {
    this.#fail(message);
    this.#child.kill('SIGKILL');
  }

  /** Sends every pending decision while the pipe has room. */
  #flushIfFree(): void {
    if (this.#pending.length === 0 || this.#inFlight.length >= MAX_FRAMES_IN_FLIGHT || this.#death !== undefined) return;
    this.#sendBatches(this.#pending.splice(0));
  }

  /** Sends `members`, one frame per module and MAX_BATCH decisions (one per decision sent `alone`). */
  #sendBatches(members: readonly Member[]): void {
    const batches = new Map<string, Member[][]>();
    for (const member of members) {
      if (member.alone) {
        this.#sendBatch([member]);
        continue;
      }
      const chunks = batches.get(member.module) ?? [];
      const last = chunks[chunks.length - 1];
      if (last === undefined || last.length === MAX_BATCH) chunks.push([member]);
      else last.push(member);
      batches.set(member.module, chunks);
    }
    for (const chunks of batches.values()) for (const members of chunks) this.#sendBatch(members);
  }

  #sendBatch(members: readonly Member[]): void {
    const id = this.#nextId++;
    const watchdogMs = members.reduce((sum, member) => sum + member.watchdogMs, 0);
    const settle = (outcome: Outcome<Reply>, payload: string | undefined) => {
      this.#queued -= members.length;
      const replies = outcome.ok ? batchReplies(outcome.value, payload, members.length) : undefined;
      members.forEach((member, i) => member.settle(replies !== undefined ? { ok: true, value: replies[i]! } : (outcome as Outcome<never>)));
    };
    const header = { id, module: members[0]!.module, batch: members.map((member) => member.action) };
    this.#counters.frames++;
    this.#counters.decisions += members.length;
    this.#decisions += members.length;
    this.#send({ id, module: header.module, watchdogMs, handedBack: false, members, settle }, header, members.map((member) => member.ctxJson).join('\n'));
  }

  #send(frame: InFlight, header: object, payload: string | undefined): void {
    this.#inFlight.push(frame);
    if (this.#inFlight.length === 1) {
      this.#setReferenced(true);
      this.#armWatchdog();
    }
    writeMessage(this.#pipe, header, payload);
  }

  #answer(frame: string): void {
    let message;
    try {
      message = readMessage(frame);
    } catch {
      this.kill('the sandbox process sent a reply that is not JSON and was killed');
      return;
    }
    const reply = message.header as Reply;
    const head = this.#inFlight[0];
    if (head === undefined || head.id !== reply.id) {
      this.kill(`the sandbox process answered request ${reply.id} out of order and was killed`);
      return;
    }
    this.#inFlight.shift();
    clearTimeout(this.#watchdog);
    this.#stalledBy = undefined;
    if (this.#inFlight.length > 0) this.#armWatchdog();
    if (!head.handedBack) head.settle({ ok: true, value: reply }, message.payload);
    this.#flushIfFree();
    if (this.#inFlight.length === 0) this.#setReferenced(false);
    this.#stopIfDrained();
  }

  /** A retired process with nothing left to answer is stopped. */
  #stopIfDrained(): void {
    if (this.#retired !== undefined && this.#inFlight.length === 0 && this.#pending.length === 0) this.kill(this.#retired);
  }

  /**
   * Bounds the running frame (a frame's time starts when the ones before it are answered): past
   * STALL_MS the process stalls, past the frame's watchdog it is killed. One timer per frame.
   */
  #armWatchdog(): void {
    const head = this.#inFlight[0]!;
    const started = performance.now();
    const check = () => {
      const ranMs = performance.now() - started;
      if (ranMs >= head.watchdogMs) {
        this.kill(`the sandbox process stopped responding for ${head.watchdogMs} ms and was killed`);
        return;
      }
      if (this.#stalledBy === undefined && head.members !== undefined) this.#stall(head, ranMs);
      this.#watchdog = setTimeout(check, head.watchdogMs - ranMs);
    };
    this.#watchdog = setTimeout(check, Math.min(STALL_MS, head.watchdogMs));
  }

  /**
   * Hands back every decision of another module waiting behind the running batch, except those
   * that moved here from a stall already. Only decisions stall a process: a load is bounded by
   * its bundle's size, and moving modules because of one would load them again elsewhere.
   */
  #stall(head: InFlight, ranMs: number): void {
    this.#stalledBy = head.module;
    if (!this.#canMoveAway()) return;
    const moved: Outcome<never> = { ok: false, fault: 'moved', message: `the sandbox process has been busy with another module's crossing for ${Math.round(ranMs)} ms` };
    for (const frame of this.#inFlight.slice(1)) {
      if (frame.members === undefined || frame.module === head.module || frame.handedBack || frame.members.some((member) => member.stay)) continue;
      frame.handedBack = true;
      frame.settle(moved, undefined);
    }
    const [stay, leave] = partition(this.#pending, (member) => member.stay || member.module === head.module);
    this.#pending = stay;
    this.#queued -= leave.length;
    for (const member of leave) member.settle(moved);
  }

  #fail(message: string): void {
    if (this.#death !== undefined) return;
    this.#death = message;
    clearTimeout(this.#watchdog);
    this.#setReferenced(false);
    const [running, ...waiting] = this.#inFlight.splice(0);
    const pending = this.#pending.splice(0);
    this.#queued -= pending.length;
    const behind = `${message} while the request waited behind another module's`;
    if (running !== undefined && !running.handedBack) running.settle({ ok: false, fault: (running.members?.length ?? 1) > 1 ? 'batched' : 'running', message }, undefined);
    for (const frame of waiting) if (!frame.handedBack) frame.settle({ ok: false, fault: 'waiting', message: behind }, undefined);
    for (const member of pending) member.settle({ ok: false, fault: 'waiting', message: behind });
  }

  #setReferenced(referenced: boolean): void {
    setReferenced(this.#child, referenced);
  }
}

/** Each decision's part of a batch's reply; a malformed answer is every decision's error. */
function batchReplies(reply: Reply, payload: string | undefined, count: number): DecisionReply[] {
  if (reply.evaluations !== undefined) return reply.evaluations.map((evaluation) => ({ evaluation }));
  if (reply.answers !== true) return new Array<DecisionReply>(count).fill({ error: reply.error ?? 'the sandbox process returned no evaluation' });
  const answers = batchAnswers(payload ?? '', count);
  if (typeof answers === 'string') return new Array<DecisionReply>(count).fill({ error: `the sandbox returned a malformed evaluation: ${answers}` });
  return answers.map((answer) => ({ answer }));
}

function partition<T>(items: readonly T[], keep: (item: T) => boolean): [T[], T[]] {
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const item of items) (keep(item) ? kept : dropped).push(item);
  return [kept, dropped];
}

/** The outcome of a decision whose caller's signal aborted. */
function abandoned(signal: AbortSignal): Outcome<never> {
  const why = abandonedBy(signal);
  return { ok: false, fault: why.unevaluated, message: why.message };
}

/** An idle sandbox process must not keep the host alive; a busy or booting one must. */
export function setReferenced(child: ChildProcess, referenced: boolean): void {
  for (const handle of [child, child.channel, framePipe(child)]) {
    if (referenced) handle?.ref();
    else handle?.unref();
  }
}

/** The pipe a sandbox process reads requests from and writes replies to. */
export function framePipe(child: ChildProcess): Socket {
  return child.stdio[FRAME_FD] as Socket;
}
