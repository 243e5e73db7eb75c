/**
 * A worker process's end of the channel to its supervisor (worker-messages.ts): the requests it
 * makes (rate-limit leases, the service's metrics) and the one it answers (its own metrics). A
 * request the supervisor cannot answer, because the channel closed or it did not answer in
 * time, is rejected: the rate limiter then refuses, /metrics answers 503.
 */
import type { Registry } from 'prom-client';
import type { LeaseRequest } from '../leased-rate-limits.js';
import type { Lease } from '../tenant-rate-limits.js';
import { isProtocolMessage, type SupervisorMessage, type WorkerMessage } from './worker-messages.js';

/** A supervisor that has not answered by then will not. */
const ANSWER_TIMEOUT_MS = 5_000;

/** The IPC channel of a process started by a supervisor (`process` itself in a worker). */
export interface SupervisorChannel {
  /** Calls back with an error when the channel is closed (without a callback, Node would raise it on the process). */
  send(message: WorkerMessage, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface WorkerLink {
  /** The worker's place among the supervisor's N (0 to N − 1); a replacement takes the dead worker's. */
  readonly slot: number;
  readonly leases: LeaseRequest;
  /** Tells the supervisor this worker listens at `url` and handles its signals. */
  ready(url: string): void;
  /** Hears the supervisor tell this worker to stop: gracefully, or at once (`force`). */
  onStop(listener: (signal: NodeJS.Signals, force: boolean, reason: string) => void): void;
  /** Hears the supervisor tell this worker to scan the bundle directory. */
  onScan(listener: () => void): void;
  /** Answers the supervisor's requests for this worker's metrics from `registry`; returns the service's metrics, every worker's added up. */
  serveMetrics(registry: Registry): () => Promise<{ readonly text: string; readonly contentType: string }>;
}

type Pending = (message: SupervisorMessage) => void;

export function workerLink(slot: number, channel: SupervisorChannel = process as unknown as SupervisorChannel): WorkerLink {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let ownMetrics: Registry | undefined;
  const stopListeners: ((signal: NodeJS.Signals, force: boolean, reason: string) => void)[] = [];
  const scanListeners: (() => void)[] = [];
  channel.on('message', (message: unknown) => {
    if (!isProtocolMessage(message)) return;
    const answer = message as SupervisorMessage;
    switch (answer.type) {
      case 'adec.own-metrics':
        void collect(ownMetrics, answer.id).then((reply) => channel.send(reply, ignored));
        return;
      case 'adec.stop':
        for (const listener of stopListeners) listener(answer.signal, answer.force, answer.reason);
        return;
      case 'adec.scan':
        for (const listener of scanListeners) listener();
        return;
    }
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    waiting?.(answer);
  });
  const ask = <T extends SupervisorMessage['type']>(request: WorkerMessage & { readonly id: number }, type: T) =>
    new Promise<Extract<SupervisorMessage, { type: T }>>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(request.id);
        reject(new Error('the supervisor did not answer'));
      }, ANSWER_TIMEOUT_MS).unref();
      pending.set(request.id, (answer) => {
        clearTimeout(timer);
        if (answer.type === type) resolve(answer as Extract<SupervisorMessage, { type: T }>);
        else reject(new Error(`the supervisor answered ${answer.type} to ${type}`));
      });
      channel.send(request, (error) => {
        if (error === null) return;
        clearTimeout(timer);
        pending.delete(request.id);
        reject(error);
      });
    });
  return {
    slot,
    leases: async (tenant, wanted): Promise<Lease> => {
      const { granted, retryAfterMs } = await ask({ type: 'adec.lease', id: nextId++, tenant, wanted }, 'adec.lease');
      return { granted, retryAfterMs };
    },
    ready: (url) => channel.send({ type: 'adec.ready', url }, ignored),
    onStop: (listener) => stopListeners.push(listener),
    onScan: (listener) => scanListeners.push(listener),
    serveMetrics: (registry) => {
      ownMetrics = registry;
      return async () => {
        const { text, contentType } = await ask({ type: 'adec.service-metrics', id: nextId++ }, 'adec.service-metrics');
        return { text, contentType };
      };
    },
  };
}

/** A message the supervisor may no longer be there to read (it is stopping): nothing to do. */
const ignored = (): void => undefined;

async function collect(registry: Registry | undefined, id: number): Promise<WorkerMessage> {
  return { type: 'adec.own-metrics', id, metrics: registry === undefined ? [] : await registry.getMetricsAsJSON() };
}
