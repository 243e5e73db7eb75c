/** `GET /v1/decisions/{id}`, `POST /v1/decisions/{id}/replay`: any stored decision, an adjudication or a selection. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { callerOf } from './authenticate.js';
import { answerQueryReader } from '../operations/decide-answer.js';
import { sendError } from './error-handling.js';

const readFormat = answerQueryReader(['format']);

export function decisionRoutes(app: FastifyInstance, service: DecisionService): void {
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/v1/decisions/:id', async (request, reply) => {
    const query = readFormat(request.query);
    if (!query.ok) return sendError(reply, query.error);
    const caller = callerOf(request);
    return answer(reply, query.value.packaged ? await service.decisionPackage(caller, request.params.id) : await service.find(caller, request.params.id));
  });

  app.post<{ Params: { id: string } }>('/v1/decisions/:id/replay', async (request, reply) => answer(reply, await service.replay(callerOf(request), request.params.id)));
}

function answer<T>(reply: FastifyReply, result: ServiceResult<T>): FastifyReply {
  return result.ok ? reply.code(200).send(result.value) : sendError(reply, result.error);
}
