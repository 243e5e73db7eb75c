/**
 * Unauthenticated operations routes: liveness (the process answers), readiness (sandbox
 * processes booted, store open, not shutting down), Prometheus metrics and the OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.js';
import { OPENAPI_DOCUMENT } from '../openapi.js';
import { sendError } from './error-handling.js';

/** The Prometheus text /metrics answers, and its content type. */
export type MetricsText = () => Promise<{ readonly text: string; readonly contentType: string }>;

export function operationsRoutes(app: FastifyInstance, metricsText: MetricsText, isReady: () => boolean): void {
  app.get('/health/live', async () => ({ status: 'live' }));
  app.get('/health/ready', async (_request, reply) => (isReady() ? { status: 'ready' } : sendError(reply, apiError(503, 'NOT_READY', 'the service is starting or shutting down', [], 1))));
  app.get('/metrics', async (_request, reply) => {
    let metrics: Awaited<ReturnType<MetricsText>>;
    try {
      metrics = await metricsText();
    } catch {
      return sendError(reply, apiError(503, 'METRICS_UNAVAILABLE', 'the worker processes\' metrics could not be gathered (the service is stopping or a worker did not answer); try again shortly', [], 1));
    }
    return reply.type(metrics.contentType).send(metrics.text);
  });
  app.get('/openapi.json', async () => OPENAPI_DOCUMENT);
}
