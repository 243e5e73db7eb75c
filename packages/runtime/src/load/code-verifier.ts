/**
 * Verifies modules' code on a worker thread, once per module hash: the verdict of
 * `verifyGeneratedCode` (generated-code/) for the bytes a module hash names never changes, so a
 * module loaded again (a recycle, a reload, a replay) is not parsed again. A load does not wait
 * for it: the loader starts a rebuilt module in a sandbox process and moves it in process once
 * its code is verified (module-loader.ts).
 *
 * A thread that dies (out of memory on a hostile bundle, say) refuses the code it was verifying,
 * without remembering that verdict, and is started again for the next.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GeneratedCodeVerdict } from './generated-code/verify-generated-code.js';

/** Compiled code runs in the thread: the tests, which run the TypeScript sources, use dist too. */
const ENTRY = fileURLToPath(new URL('../../dist/load/code-verifier-thread.js', import.meta.url));

/** Verdicts remembered, most recent first out last; a host serves far fewer modules. */
const REMEMBERED_VERDICTS = 4_096;

/** The thread's heap: a parse of the largest bundle the store allows (64 MiB) fits, a runaway does not take the host. */
const THREAD_HEAP_MB = 1_024;

export interface VerifyRequest {
  readonly id: number;
  readonly source: string;
}

export interface VerifyResponse {
  readonly id: number;
  readonly verdict: GeneratedCodeVerdict;
}

/** A verdict, and whether it is the verifier's (final) or the loss of its thread (not remembered). */
interface Answer {
  readonly verdict: GeneratedCodeVerdict;
  readonly final: boolean;
}

/** One module hash's verification: under way, then settled. */
interface Verification {
  readonly verdict: Promise<GeneratedCodeVerdict>;
  settled?: GeneratedCodeVerdict;
}

export class CodeVerifier {
  /** By module hash, oldest first. */
  readonly #verifications = new Map<string, Verification>();
  readonly #pending = new Map<number, (answer: Answer) => void>();
  #worker: Worker | undefined;
  #nextId = 0;

  /** The verdict on a module's code, when it is known already. */
  known(moduleHash: string): GeneratedCodeVerdict | undefined {
    return this.#verifications.get(moduleHash)?.settled;
  }

  /** The verdict on `source`, whose hash is `moduleHash`: verified once, on the thread. */
  verify(moduleHash: string, source: string): Promise<GeneratedCodeVerdict> {
    const known = this.#verifications.get(moduleHash);
    if (known !== undefined) return known.verdict;
    const verification: Verification = {
      verdict: this.#request(source).then(({ verdict, final }) => {
        // A thread lost mid-verification says nothing about this code: the next load asks again.
        if (final) verification.settled = verdict;
        else this.#verifications.delete(moduleHash);
        return verdict;
      }),
    };
    this.#verifications.set(moduleHash, verification);
    this.#forgetOldest();
    return verification.verdict;
  }

  /** Stops the thread; verifications under way are refused. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failPending('the host is closing');
    await worker?.terminate();
  }

  #request(source: string): Promise<Answer> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      const thread = this.#thread();
      // Held while it verifies (a load waiting on it keeps the process alive), let go when idle.
      if (this.#pending.size === 1) thread.ref();
      thread.postMessage({ id, source } satisfies VerifyRequest);
    });
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    worker.unref();
    worker.on('message', ({ id, verdict }: VerifyResponse) => {
      const resolve = this.#pending.get(id);
      this.#pending.delete(id);
      if (this.#pending.size === 0) worker.unref();
      resolve?.({ verdict, final: true });
    });
    const lost = (why: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failPending(why);
    };
    worker.on('error', (error) => lost(`the verifier thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the verifier thread stopped (exit code ${code})`));
    this.#worker = worker;
    return worker;
  }

  #failPending(why: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const resolve of pending) resolve({ verdict: { ok: false, problem: why, line: 1, column: 1 }, final: false });
  }

  #forgetOldest(): void {
    for (const hash of this.#verifications.keys()) {
      if (this.#verifications.size <= REMEMBERED_VERDICTS) return;
      this.#verifications.delete(hash);
    }
  }
}
