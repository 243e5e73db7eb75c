/**
 * What a supervisor and its worker processes say to each other over the cluster's IPC channel
 * (supervisor.ts, worker-link.ts). Every request carries an id its answer repeats. A worker
 * leases rate-limit tokens and asks for the service's metrics; the supervisor asks each worker
 * for its own metrics to add them up, tells every worker to stop (gracefully, or at once when
 * the grace period is over or a second signal came) and to scan the bundle directory. Stopping
 * is a message, not a passed-on signal: a Ctrl-C reaches the workers and the supervisor
 * together, and the supervisor's copy, late on a loaded machine, must not count as a second.
 */
import type { Registry } from 'prom-client';
import type { Lease } from '../tenant-rate-limits.js';

/** A worker's Prometheus metrics as prom-client's `getMetricsAsJSON()` gives them. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export type WorkerMessage =
  | { readonly type: 'adec.ready'; readonly url: string }
  | { readonly type: 'adec.lease'; readonly id: number; readonly tenant: string; readonly wanted: number }
  | { readonly type: 'adec.service-metrics'; readonly id: number }
  | { readonly type: 'adec.own-metrics'; readonly id: number; readonly metrics: MetricsJson };

export type SupervisorMessage =
  | ({ readonly type: 'adec.lease'; readonly id: number } & Lease)
  | { readonly type: 'adec.service-metrics'; readonly id: number; readonly text: string; readonly contentType: string }
  | { readonly type: 'adec.own-metrics'; readonly id: number }
  | { readonly type: 'adec.stop'; readonly signal: NodeJS.Signals; readonly force: boolean; readonly reason: string }
  | { readonly type: 'adec.scan' };

/** Whether `value` is a message of this protocol (the channel carries Node's own messages too). */
export function isProtocolMessage(value: unknown): value is { readonly type: string } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && (value as { type: string }).type.startsWith('adec.');
}
