/**
 * Group commit: appends that arrive while a commit is being written (or within one turn of the
 * event loop) wait and are written together in the next transaction, so one fsync makes a
 * whole batch durable. Durability then costs one disk flush per batch, not per decision
 * (ARCHITECTURE.md "Audit store"); under light load a batch is a single record and waits for
 * nothing but its own commit.
 *
 * One commit runs at a time, in arrival order: a tenant's chain is extended in the order its
 * appends were submitted.
 */
import type { CommitObserver } from './audit-store.js';

export interface GroupCommitOptions<R> {
  /** The most items one transaction writes. */
  readonly maxBatch: number;
  /** The most items waiting; `submit` refuses beyond it (bounded memory under overload). */
  readonly maxQueued: number;
  /** The result of every item of a batch whose commit threw. */
  readonly failed: (error: unknown) => R;
  readonly onCommit?: CommitObserver;
}

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
}

export class GroupCommit<T, R> {
  #queue: Waiting<T, R>[] = [];
  #writing: Promise<void> | undefined;
  #scheduled = false;
  #commits = 0;
  #committed = 0;

  constructor(
    private readonly commit: (items: readonly T[]) => R[] | Promise<R[]>,
    private readonly options: GroupCommitOptions<R>,
  ) {}

  get queued(): number {
    return this.#queue.length;
  }

  get commits(): number {
    return this.#commits;
  }

  /** Items in batches whose transaction committed (a refused duplicate included). */
  get committed(): number {
    return this.#committed;
  }

  /** The item's result once its batch is committed, or undefined when the queue is full. */
  submit(item: T): Promise<R> | undefined {
    if (this.#queue.length >= this.options.maxQueued) return undefined;
    return new Promise<R>((resolve) => {
      this.#queue.push({ item, resolve });
      this.#schedule();
    });
  }

  /** Resolves when everything submitted so far is committed. */
  async drain(): Promise<void> {
    while (this.#queue.length > 0 || this.#writing !== undefined || this.#scheduled) {
      await (this.#writing ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing !== undefined) return;
    this.#scheduled = true;
    // setImmediate, not a microtask: requests whose I/O completed in the same turn of the event
    // loop get to submit before the batch is cut.
    setImmediate(() => {
      this.#scheduled = false;
      this.#writing = this.#writeBatches().finally(() => {
        this.#writing = undefined;
        // A caller woken by the last batch may have submitted before this ran.
        if (this.#queue.length > 0) this.#schedule();
      });
    });
  }

  async #writeBatches(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.options.maxBatch);
      const started = performance.now();
      let results: R[];
      try {
        results = await this.commit(batch.map((waiting) => waiting.item));
        if (results.length !== batch.length) throw new Error(`a commit of ${batch.length} records answered ${results.length} results`);
        this.#commits += 1;
        this.#committed += batch.length;
        this.options.onCommit?.(batch.length, performance.now() - started);
      } catch (error) {
        results = batch.map(() => this.options.failed(error));
      }
      batch.forEach((waiting, index) => waiting.resolve(results[index]!));
    }
  }
}
