/** `POST /v1/decide`, `GET /v1/decisions/{id}`, `POST /v1/decisions/{id}/replay`. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { callerOf } from './authenticate.js';
import { readAnswerQuery, withoutTracesJson } from './decide-answer.js';
import { sendError } from './error-handling.js';

export function decisionRoutes(app: FastifyInstance, service: DecisionService): void {
  app.post('/v1/decide', async (request, reply) => {
    // Read before deciding: a refused query must not leave a record behind.
    const query = readAnswerQuery(request.query);
    if (!query.ok) return sendError(reply, query.error);
    const result = await service.decide(callerOf(request), request.body);
    if (!result.ok) return sendError(reply, result.error);
    const { decision, decisionJson, decisionId, idempotentReplay } = result.value;
    void reply.header('location', `/v1/decisions/${decisionId}`);
    if (idempotentReplay) void reply.header('idempotent-replayed', 'true');
    // The text the audit record holds (Fastify sends a JSON string as it is), or less of it.
    return reply.code(200).type('application/json; charset=utf-8').send(query.traces ? decisionJson : withoutTracesJson(decision));
  });

  app.get<{ Params: { id: string } }>('/v1/decisions/:id', async (request, reply) => answer(reply, await service.find(callerOf(request), request.params.id)));

  app.post<{ Params: { id: string } }>('/v1/decisions/:id/replay', async (request, reply) => answer(reply, await service.replay(callerOf(request), request.params.id)));
}

function answer<T>(reply: FastifyReply, result: ServiceResult<T>): FastifyReply {
  return result.ok ? reply.code(200).send(result.value) : sendError(reply, result.error);
}
