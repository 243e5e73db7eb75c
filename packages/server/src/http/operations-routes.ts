/**
 * Unauthenticated operations routes: liveness (the process answers), readiness (sandbox
 * processes booted, store open, not shutting down), Prometheus metrics and the OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.js';
import { OPENAPI_DOCUMENT } from '../openapi.js';
import type { ServiceMetrics } from '../service-metrics.js';
import { sendError } from './error-handling.js';

export function operationsRoutes(app: FastifyInstance, metrics: ServiceMetrics, isReady: () => boolean): void {
  app.get('/health/live', async () => ({ status: 'live' }));
  app.get('/health/ready', async (_request, reply) => (isReady() ? { status: 'ready' } : sendError(reply, apiError(503, 'NOT_READY', 'the service is starting or shutting down', [], 1))));
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  app.get('/openapi.json', async () => OPENAPI_DOCUMENT);
}
