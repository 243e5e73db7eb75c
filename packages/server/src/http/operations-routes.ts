/**
 * Unauthenticated operations routes: liveness (the process answers), readiness (sandbox
 * processes booted, store open, not shutting down), Prometheus metrics, the OpenAPI document and
 * the contracts' JSON Schemas (nothing in them is the caller's).
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT_SCHEMAS, plainSchema } from '@adec/contracts';
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
  app.get<{ Params: { name: string } }>('/v1/schemas/:name', async (request, reply) => {
    const { name } = request.params;
    // Own names only: `constructor` or `__proto__` name no contract.
    if (!Object.hasOwn(CONTRACT_SCHEMAS, name)) {
      return sendError(reply, apiError(404, 'SCHEMA_NOT_FOUND', `no contract is named \`${name.slice(0, 64)}\`; the contracts are ${Object.keys(CONTRACT_SCHEMAS).join(', ')}`));
    }
    return reply.type('application/schema+json').send({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: name, ...plainSchema(CONTRACT_SCHEMAS[name]!) });
  });
}
