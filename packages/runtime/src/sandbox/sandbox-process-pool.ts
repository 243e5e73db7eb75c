/**
 * Sandbox processes booted ahead of need. Starting one (a Node process that loads isolated-vm
 * and the evaluator) takes about 200 ms, several times the cost of verifying and compiling a
 * 1,000-rule bundle. A host keeps spares booted, so loading a module, or restarting its
 * sandbox after a crash, takes a process that is already up instead of waiting for one.
 *
 * A spare does not keep the host alive (it is unreferenced until taken) and exits by itself when
 * the host goes away (sandbox-process.ts exits on disconnect).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BULK_FD } from './bulk-frames.js';

// Two levels below the package root in both src/ and dist/; the entry only exists compiled.
const ENTRY = fileURLToPath(new URL('../../dist/sandbox/sandbox-process.js', import.meta.url));

/** The first message of a sandbox process: it is booted and listening. */
export const READY_MESSAGE = 'adec:sandbox-ready';

/** A sandbox process that prepares an isolate of `memoryLimitMb` while it waits for its module. */
export function forkSandboxProcess(memoryLimitMb: number): ChildProcess {
  // No stdio but the IPC channel and the bulk pipe (bulk-frames.ts): a sandbox has nothing to
  // say outside its replies. An open pipe keeps the host alive, so idle spares unref both.
  const child = fork(ENTRY, [String(memoryLimitMb)], { execArgv: ['--no-node-snapshot'], serialization: 'json', stdio: ['ignore', 'ignore', 'ignore', 'ipc', 'pipe'] });
  // A write to a process that just died fails here; the death itself is reported by 'exit'.
  bulkPipe(child).on('error', () => {});
  return child;
}

/** The pipe a sandbox process reads frames from. */
export function bulkPipe(child: ChildProcess): Socket {
  return child.stdio[BULK_FD] as Socket;
}

interface Spare {
  readonly child: ChildProcess;
  /** Resolves when the process has booted, or has died trying. */
  readonly booted: Promise<void>;
}

export class SandboxProcessPool {
  #spares: Spare[] = [];
  #closed = false;
  /** A refill scheduled by `refillSoon`, until it has run. */
  #scheduled: Promise<void> | undefined;

  /**
   * @param size how many booted processes to keep ready
   * @param memoryLimitMb the isolate memory limit of the modules they will load
   */
  constructor(
    private readonly size: number,
    private readonly memoryLimitMb: number,
  ) {
    this.#refill();
  }

  /**
   * A live sandbox process: a spare when one is ready or booting, else a fresh fork. The caller
   * calls `refillSoon` once it has loaded its module: a replacement booting during the load
   * would compete with it for the CPU.
   */
  take(): ChildProcess {
    this.#spares = this.#spares.filter((candidate) => isAlive(candidate.child));
    const spare = this.#spares.shift();
    if (spare === undefined) return forkSandboxProcess(this.memoryLimitMb);
    // Taken while booting it is still referenced; taken idle, it must be referenced again.
    spare.child.ref();
    spare.child.channel?.ref();
    bulkPipe(spare.child).ref();
    return spare.child;
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

  /** Stops the spares; processes already taken belong to their evaluators. */
  close(): void {
    this.#closed = true;
    for (const spare of this.#spares.splice(0)) spare.child.kill('SIGKILL');
  }

  /** Boots spares until there are `size` of them again. */
  #refill(): void {
    this.#spares = this.#spares.filter((spare) => isAlive(spare.child));
    while (!this.#closed && this.#spares.length < this.size) {
      const child = forkSandboxProcess(this.memoryLimitMb);
      // Referenced while booting, so a host awaiting `ready()` is not left with an empty event
      // loop; once idle, a spare must not keep the host alive (unless it was taken meanwhile).
      const settle = () => {
        if (this.#spares.some((spare) => spare.child === child)) idle(child);
      };
      const booted = Promise.race([once(child, 'message'), once(child, 'exit')]).then(settle, settle);
      this.#spares.push({ child, booted });
    }
  }
}

function idle(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
  bulkPipe(child).unref();
}

function isAlive(child: ChildProcess): boolean {
  return child.connected && child.exitCode === null && child.signalCode === null;
}
