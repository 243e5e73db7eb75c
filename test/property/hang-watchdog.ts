/**
 * A real hang check. A synchronous infinite loop in `checkSources` can never be timed from
 * the thread it blocks, so a watchdog thread watches the clock instead: before each source
 * the test thread publishes the source and its start time in shared memory; if a source is
 * still running after the bound, the watchdog writes it to a file and to stderr and kills
 * the test process, which then fails loudly instead of hanging CI forever.
 */
import { Worker } from 'node:worker_threads';

const SOURCE_BYTES = 1 << 20;

/** Plain CommonJS: the watchdog must not need the TypeScript transform the tests use. */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const state = new Int32Array(workerData.state);
const started = new Float64Array(workerData.started);
const text = new Uint8Array(workerData.text);
setInterval(() => {
  if (Atomics.load(state, 0) !== 1) return;
  const elapsed = Date.now() - started[0];
  if (elapsed <= workerData.boundMs) return;
  const source = new TextDecoder().decode(text.slice(0, Atomics.load(state, 1)));
  const file = path.join(os.tmpdir(), 'adec-hang-' + process.pid + '.adec');
  fs.writeFileSync(file, source);
  fs.writeSync(2, '\\n[adec property test] ' + workerData.what + ' has not returned after ' + Math.round(elapsed) +
    ' ms (bound ' + workerData.boundMs + ' ms): a hang in adec. The source is saved in ' + file +
    ':\\n\\n' + source.slice(0, 4000) + '\\n\\nKilling the test process.\\n');
  process.kill(process.pid, 'SIGKILL');
}, 100);
`;

export class HangWatchdog {
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly started = new Float64Array(new SharedArrayBuffer(8));
  private readonly text = new Uint8Array(new SharedArrayBuffer(SOURCE_BYTES));
  private readonly encoder = new TextEncoder();
  private readonly worker: Worker;

  /** `what` names the watched work in the report: `checkSources`, `buildWorld`. */
  constructor(boundMs: number, what = 'checkSources') {
    this.worker = new Worker(WATCHDOG, {
      eval: true,
      workerData: { state: this.state.buffer, started: this.started.buffer, text: this.text.buffer, boundMs, what },
    });
    this.worker.unref();
  }

  /** Runs `work` on `source` (shown if it hangs) under the watchdog. */
  watch<T>(source: string, work: () => T): T {
    const { written } = this.encoder.encodeInto(source, this.text);
    Atomics.store(this.state, 1, written);
    this.started[0] = Date.now();
    Atomics.store(this.state, 0, 1);
    try {
      return work();
    } finally {
      Atomics.store(this.state, 0, 0);
    }
  }

  /** `watch` for asynchronous work (a build): the watchdog checks the clock until it settles. */
  async watchAsync<T>(source: string, work: () => Promise<T>): Promise<T> {
    const { written } = this.encoder.encodeInto(source, this.text);
    Atomics.store(this.state, 1, written);
    this.started[0] = Date.now();
    Atomics.store(this.state, 0, 1);
    try {
      return await work();
    } finally {
      Atomics.store(this.state, 0, 0);
    }
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
