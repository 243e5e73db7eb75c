/** `GET /v1/decisions/{id}`, `POST /v1/decisions/{id}/replay`: any stored decision, an adjudication or a selection. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { callerOf } from './authenticate.js';
import { sendError } from './error-handling.js';

export function decisionRoutes(app: FastifyInstance, service: DecisionService): void {
  app.get<{ Params: { id: string } }>('/v1/decisions/:id', async (request, reply) => answer(reply, await service.find(callerOf(request), request.params.id)));

  app.post<{ Params: { id: string } }>('/v1/decisions/:id/replay', async (request, reply) => answer(reply, await service.replay(callerOf(request), request.params.id)));
}

function answer<T>(reply: FastifyReply, result: ServiceResult<T>): FastifyReply {
  return result.ok ? reply.code(200).send(result.value) : sendError(reply, result.error);
}
