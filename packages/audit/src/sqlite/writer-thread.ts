/**
 * A SQLite store's writer thread, seen from the store. better-sqlite3 is synchronous, so a group
 * commit run on the event loop stops every request while its insert and fsync run: 121 µs of
 * the 543 µs the service's main thread spent per decision (bench/RESULTS.md, "Where the
 * service's time goes"). On a worker thread the next batch gathers while one is written.
 *
 * A thread that dies fails the batches it held (their decisions get 503s, none is answered
 * unrecorded) and is started again for the next batch. User memory writes go through it too,
 * between batches (sqlite-user-memory.ts).
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AppendResult } from '../audit-store.js';
import { appendResults } from '../link-batch.js';
import { serializedEntry, type PreparedEntry } from '../prepared-entry.js';
import type { PreparedMemoryWrite } from '../prepared-memory-write.js';
import type { WriterRequest, WriterResponse } from './writer-protocol.js';

/** Compiled code runs in the thread: the tests, which run the TypeScript sources, use dist too. */
const ENTRY = fileURLToPath(new URL('../../dist/sqlite/sqlite-writer-thread.js', import.meta.url));

interface Pending {
  /** Settles the request's promise from the thread's answer (an error answer rejects it). */
  readonly answer: (response: WriterResponse) => void;
  readonly reject: (error: Error) => void;
}

export class WriterThread {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;

  constructor(private readonly path: string, private readonly busyTimeoutMs: number) {}

  append(entries: readonly PreparedEntry[]): Promise<AppendResult[]> {
    return this.#request((id) => ({ id, entries: entries.map(serializedEntry) }), (response) => {
      if (!('results' in response)) throw new Error('the audit writer thread answered a batch with no results');
      return appendResults(entries, response.results);
    });
  }

  /** Commits user memory writes in one transaction: how many signal values each set. */
  writeMemory(memory: readonly PreparedMemoryWrite[]): Promise<readonly number[]> {
    return this.#request((id) => ({ id, memory }), (response) => {
      if (!('written' in response)) throw new Error('the audit writer thread answered memory writes with no counts');
      return response.written;
    });
  }

  #request<T>(message: (id: number) => WriterRequest, result: (response: WriterResponse) => T): Promise<T> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const answer = (response: WriterResponse) => {
        try {
          if ('error' in response) throw new Error(response.error);
          resolve(result(response));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      this.#pending.set(id, { answer, reject });
      const thread = this.#thread();
      // Held while it holds requests (a caller awaiting a commit keeps the process alive), let go when idle.
      if (this.#pending.size === 1) thread.ref();
      thread.postMessage(message(id));
    });
  }

  /** Stops the thread after what it holds is written (the store drains its queue first). */
  async close(): Promise<void> {
    const worker = this.#worker;
    if (worker === undefined) return;
    this.#worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Held until it has closed the database: an idle, unreferenced thread would let the process end first.
    worker.ref();
    worker.postMessage({ close: true } satisfies WriterRequest);
    await exited;
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(ENTRY, { workerData: { path: this.path, busyTimeoutMs: this.busyTimeoutMs } });
    worker.on('message', (response: WriterResponse) => {
      const pending = this.#pending.get(response.id);
      if (pending === undefined) return;
      this.#pending.delete(response.id);
      if (this.#pending.size === 0) worker.unref();
      pending.answer(response);
    });
    const failAll = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(error);
      }
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the audit writer thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}
