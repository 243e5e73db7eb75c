/**
 * The supervisor of `adec serve --workers N` (packages/server/README.md "Worker processes"): it
 * starts N worker processes, each a whole decision service (its HTTP server, its in-process
 * isolates, its connection to the audit store), on one listening port that the cluster module
 * shares among them, a connection at a time, round robin. It answers no request itself; it:
 *
 * - replaces a worker that dies, in the same slot, at once the first time and then with a
 *   growing delay while the slot keeps dying (a worker that cannot start must not spin the CPU);
 *   the dead worker's connections are lost with it, and only their unanswered requests, since a
 *   decision is answered only after its record is committed;
 * - holds every tenant's rate-limit bucket, from which the workers lease tokens
 *   (leased-rate-limits.ts), so a tenant's limit is the service's, not a worker's;
 * - adds up the workers' metrics for `/metrics`, whichever worker is asked;
 * - stops every worker, gracefully or at once, and makes every worker scan the bundle
 *   directory now, when the `adec serve` process is told to (worker-messages.ts).
 *
 * The audit chain needs nothing from it: every worker writes to the store, and a chain is
 * extended under the database's own lock (packages/audit/README.md "Several writers").
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import { TenantRateLimits, type RateLimit } from '../tenant-rate-limits.js';
import { isProtocolMessage, type MetricsJson, type SupervisorMessage, type WorkerMessage } from './worker-messages.js';

export interface SupervisorOptions {
  readonly workers: number;
  /** The script every worker runs, with its arguments and Node's (`adec serve` with the same settings). */
  readonly exec: string;
  readonly args: readonly string[];
  readonly execArgv: readonly string[];
  readonly cwd: string;
  readonly rateLimit: RateLimit;
  readonly log: FastifyBaseLogger;
}

/** The environment variable that tells a worker its slot. */
export const WORKER_SLOT_VARIABLE = 'ADEC_SERVE_WORKER_SLOT';

export type SupervisorStart = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly message: string };

export interface WorkersEnded {
  /** The signal any worker was ended by (it was forced to stop), or null when all exited by themselves. */
  readonly signal: NodeJS.Signals | null;
  /** Whether any worker exited with a failure code. */
  readonly failed: boolean;
}

export interface Supervisor {
  /** Resolves once every worker listens, with the URL they share; or with why one could not start (every worker is then stopped). */
  readonly started: Promise<SupervisorStart>;
  /** Tells every worker to stop gracefully (as `signal` asked) and replaces none from now on; resolves once every worker has exited. */
  stop(signal: NodeJS.Signals): Promise<WorkersEnded>;
  /** Tells every worker to end at once, for `reason` (a second signal). */
  force(signal: NodeJS.Signals, reason: string): void;
  /** Kills every worker still running (SIGKILL): one that did not end when told to. */
  kill(): void;
  /** Tells every worker to scan the bundle directory now. */
  scan(): void;
  /** The process ids of the workers running now, by slot. */
  pids(): readonly (number | undefined)[];
}

/** Restart delays while a slot keeps dying: none for a first death, then doubling up to 30 s. */
const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that lived this long before dying resets its slot's delay. */
const STABLE_AFTER_MS = 60_000;
/** A worker that has not sent its metrics by then is left out of that scrape. */
const COLLECT_TIMEOUT_MS = 2_000;

interface Slot {
  worker: Worker | undefined;
  startedAt: number;
  /** Deaths in a row, each within STABLE_AFTER_MS of its start. */
  failures: number;
  ready: boolean;
  restart: NodeJS.Timeout | undefined;
}

export function superviseWorkers(options: SupervisorOptions): Supervisor {
  const { log } = options;
  const buckets = new TenantRateLimits(options.rateLimit);
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({ worker: undefined, startedAt: 0, failures: 0, ready: false, restart: undefined }));
  const metrics = supervisorMetrics(slots);
  const collecting = new Map<number, (metrics: MetricsJson) => void>();
  let nextCollect = 0;
  let stopping = false;
  let allExited: (() => void) | undefined;
  const ended: { signal: NodeJS.Signals | null; failed: boolean } = { signal: null, failed: false };
  let onStarted!: (start: SupervisorStart) => void;
  const started = new Promise<SupervisorStart>((resolve) => (onStarted = resolve));
  let startedUrl: string | undefined;

  const live = () => slots.filter((slot) => slot.worker !== undefined);
  const send = (worker: Worker, message: SupervisorMessage) => {
    // A worker that died meanwhile cannot be answered; its requests died with it.
    if (worker.isConnected()) worker.send(message, undefined, ignored);
  };

  const collectOwn = async (): Promise<MetricsJson[]> => {
    const asked = slots.filter((slot) => slot.ready && slot.worker !== undefined).map(
      (slot) =>
        new Promise<MetricsJson>((resolve) => {
          const id = nextCollect++;
          const timer = setTimeout(() => {
            collecting.delete(id);
            resolve([]);
          }, COLLECT_TIMEOUT_MS);
          collecting.set(id, (json) => {
            clearTimeout(timer);
            collecting.delete(id);
            resolve(json);
          });
          send(slot.worker!, { type: 'adec.own-metrics', id });
        }),
    );
    return Promise.all(asked);
  };

  const answer = async (worker: Worker, message: WorkerMessage) => {
    switch (message.type) {
      case 'adec.lease':
        send(worker, { type: 'adec.lease', id: message.id, ...buckets.lease(message.tenant, message.wanted, Date.now()) });
        return;
      case 'adec.own-metrics':
        collecting.get(message.id)?.(message.metrics);
        return;
      case 'adec.service-metrics': {
        const all = [...(await collectOwn()), await metrics.registry.getMetricsAsJSON()];
        const aggregated = AggregatorRegistry.aggregate(all);
        send(worker, { type: 'adec.service-metrics', id: message.id, text: await aggregated.metrics(), contentType: aggregated.contentType });
        return;
      }
      case 'adec.ready':
        readied(worker, message.url);
        return;
    }
  };

  const slotOf = (worker: Worker) => slots.find((slot) => slot.worker === worker);

  const readied = (worker: Worker, url: string) => {
    const slot = slotOf(worker);
    if (slot === undefined) return;
    slot.ready = true;
    const index = slots.indexOf(slot);
    if (startedUrl !== undefined) {
      log.info({ slot: index, workerPid: worker.process.pid }, 'a replacement worker is serving');
      return;
    }
    if (slots.every((each) => each.ready)) {
      startedUrl = url;
      onStarted({ ok: true, url });
    }
  };

  const fork = (index: number) => {
    const slot = slots[index]!;
    slot.restart = undefined;
    // Settings are read at each fork: set them right before it, for this supervisor's workers.
    cluster.setupPrimary({ exec: options.exec, args: [...options.args], execArgv: [...options.execArgv], cwd: options.cwd });
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(index) });
    slot.worker = worker;
    slot.ready = false;
    slot.startedAt = Date.now();
    worker.on('message', (message: unknown) => {
      if (isProtocolMessage(message)) void answer(worker, message as WorkerMessage);
    });
    worker.once('exit', (code, signal) => exited(index, worker, code, signal as NodeJS.Signals | null));
  };

  const exited = (index: number, worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    const slot = slots[index]!;
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    slot.ready = false;
    if (signal !== null) ended.signal ??= signal;
    else if (code !== 0) ended.failed = true;
    if (stopping) {
      if (live().length === 0) allExited?.();
      return;
    }
    if (startedUrl === undefined) {
      log.error({ slot: index, workerPid: worker.process.pid, code, signal }, 'a worker exited before it was ready');
      onStarted({ ok: false, message: `worker ${index} exited (${signal ?? `code ${code}`}) before it was ready; what it reported is above` });
      void stop('SIGTERM');
      return;
    }
    slot.failures = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.failures + 1;
    const delayMs = slot.failures <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.failures - 2));
    metrics.restarted();
    log.error({ slot: index, workerPid: worker.process.pid, code, signal, restartInMs: delayMs }, 'a worker died: its connections are lost, its unanswered requests with them; the other workers serve meanwhile and a replacement is starting');
    slot.restart = setTimeout(() => fork(index), delayMs);
  };

  const tell = (message: SupervisorMessage) => {
    for (const slot of live()) send(slot.worker!, message);
  };

  const stop = (sent: NodeJS.Signals): Promise<WorkersEnded> => {
    stopping = true;
    // What the workers are ended by from here on, not how one died before.
    ended.signal = null;
    ended.failed = false;
    for (const slot of slots) clearTimeout(slot.restart);
    const done = new Promise<WorkersEnded>((resolve) => {
      allExited = () => resolve({ ...ended });
      if (live().length === 0) allExited();
    });
    tell({ type: 'adec.stop', signal: sent, force: false, reason: 'stop' });
    // A worker still starting does not listen yet, and has answered nothing: it is ended.
    for (const slot of live()) if (!slot.ready) slot.worker!.process.kill('SIGTERM');
    return done;
  };

  for (let index = 0; index < options.workers; index++) fork(index);
  return {
    started,
    stop,
    force: (sent, reason) => tell({ type: 'adec.stop', signal: sent, force: true, reason }),
    kill: () => {
      for (const slot of live()) slot.worker!.process.kill('SIGKILL');
    },
    scan: () => tell({ type: 'adec.scan' }),
    pids: () => slots.map((slot) => slot.worker?.process.pid),
  };
}

/** The supervisor's own metrics, added to the workers' at each scrape. */
function supervisorMetrics(slots: readonly Slot[]) {
  const registry = new Registry();
  new Gauge({ name: 'adec_workers', help: 'Worker processes serving', registers: [registry], collect() { this.set(slots.filter((slot) => slot.ready).length); } });
  const restarts = new Counter({ name: 'adec_worker_restarts_total', help: 'Worker processes replaced because they died', registers: [registry] });
  return { registry, restarted: () => restarts.inc() };
}

const ignored = (): void => undefined;
