/**
 * A sandbox process as the host sees it: requests in flight on its frame pipe, answered in the
 * order sent, so the oldest unanswered request is the one running; a watchdog on that one; and
 * what happens to all of them when the process dies.
 *
 * When the process dies (a fatal V8 error in some module's isolate) or stops answering, the
 * request that was running is reported with `running: true`: its module caused it. Every
 * request queued behind it is reported with `running: false`: its module did nothing wrong, and
 * its caller re-runs it on a healthy process (a decision is deterministic).
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { ActionEvaluation } from './evaluate-action.js';
import { FRAME_FD, FrameReader, writeFrame } from './frames.js';
import type { CrossingResult } from './isolate-sandbox.js';
import type { SandboxRequest } from './sandbox-process.js';

export interface Reply {
  readonly id: number;
  readonly metadata?: string;
  readonly evaluation?: ActionEvaluation;
  readonly crossing?: CrossingResult;
  readonly error?: string;
}

export type Outcome = { readonly ok: true; readonly reply: Reply } | { readonly ok: false; readonly message: string; readonly running: boolean };

/** A request without its id (the connection numbers them); distributed over the request kinds. */
export type RequestBody<R = SandboxRequest> = R extends unknown ? Omit<R, 'id'> : never;

interface InFlight {
  readonly id: number;
  readonly watchdogMs: number;
  readonly resolve: (outcome: Outcome) => void;
}

export class SandboxConnection {
  readonly #child: ChildProcess;
  readonly #pipe: Socket;
  /** Oldest first: the head is running, the rest wait in the process's pipe. */
  readonly #inFlight: InFlight[] = [];
  #watchdog: NodeJS.Timeout | undefined;
  #nextId = 1;
  /** Why the process is gone, once it is. */
  #death: string | undefined;

  constructor(child: ChildProcess) {
    this.#child = child;
    this.#pipe = framePipe(child);
    new FrameReader(this.#pipe, (frame) => this.#answer(JSON.parse(frame) as Reply));
    child.on('exit', (code, signal) => this.#fail(`the sandbox process died (${signal ?? `exit code ${code}`})`));
    this.#setReferenced(false);
  }

  get alive(): boolean {
    return this.#death === undefined;
  }

  /** Sends one request, and `bulk` as the frame after it (a load's bundle), and waits for its outcome. */
  request(body: RequestBody, watchdogMs: number, bulk?: string): Promise<Outcome> {
    if (this.#death !== undefined) return Promise.resolve({ ok: false, message: this.#death, running: false });
    const id = this.#nextId++;
    return new Promise<Outcome>((resolve) => {
      this.#inFlight.push({ id, watchdogMs, resolve });
      if (this.#inFlight.length === 1) {
        this.#setReferenced(true);
        this.#armWatchdog();
      }
      writeFrame(this.#pipe, JSON.stringify({ id, ...body }));
      if (bulk !== undefined) writeFrame(this.#pipe, bulk);
    });
  }

  /** Kills the process; whatever is in flight fails as if it had died. */
  kill(message = 'the sandbox process was stopped'): void {
    this.#fail(message);
    this.#child.kill('SIGKILL');
  }

  #answer(reply: Reply): void {
    const head = this.#inFlight[0];
    if (head === undefined || head.id !== reply.id) {
      this.kill(`the sandbox process answered request ${reply.id} out of order and was killed`);
      return;
    }
    this.#inFlight.shift();
    clearTimeout(this.#watchdog);
    if (this.#inFlight.length > 0) this.#armWatchdog();
    else this.#setReferenced(false);
    head.resolve({ ok: true, reply });
  }

  /** Bounds the running request; a request's time starts when the ones before it are answered. */
  #armWatchdog(): void {
    const head = this.#inFlight[0]!;
    this.#watchdog = setTimeout(() => this.kill(`the sandbox process stopped responding for ${head.watchdogMs} ms and was killed`), head.watchdogMs);
  }

  #fail(message: string): void {
    if (this.#death !== undefined) return;
    this.#death = message;
    clearTimeout(this.#watchdog);
    this.#setReferenced(false);
    const [running, ...waiting] = this.#inFlight.splice(0);
    running?.resolve({ ok: false, message, running: true });
    for (const request of waiting) request.resolve({ ok: false, message: `${message} while the request waited behind another module's`, running: false });
  }

  #setReferenced(referenced: boolean): void {
    setReferenced(this.#child, referenced);
  }
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
