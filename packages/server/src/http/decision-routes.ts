/** `POST /v1/decide`, `GET /v1/decisions/{id}`, `POST /v1/decisions/{id}/replay`. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { callerOf } from './authenticate.js';
import { sendError } from './error-handling.js';

export function decisionRoutes(app: FastifyInstance, service: DecisionService): void {
  app.post('/v1/decide', async (request, reply) => {
    const result = await service.decide(callerOf(request), request.body);
    if (!result.ok) return sendError(reply, result.error);
    const { decisionJson, decisionId, idempotentReplay } = result.value;
    void reply.header('location', `/v1/decisions/${decisionId}`);
    if (idempotentReplay) void reply.header('idempotent-replayed', 'true');
    // The text the audit record holds: Fastify sends a JSON string as it is.
    return reply.code(200).type('application/json; charset=utf-8').send(decisionJson);
  });

  app.get<{ Params: { id: string } }>('/v1/decisions/:id', async (request, reply) => answer(reply, await service.find(callerOf(request), request.params.id)));

  app.post<{ Params: { id: string } }>('/v1/decisions/:id/replay', async (request, reply) => answer(reply, await service.replay(callerOf(request), request.params.id)));
}

function answer<T>(reply: FastifyReply, result: ServiceResult<T>): FastifyReply {
  return result.ok ? reply.code(200).send(result.value) : sendError(reply, result.error);
}
