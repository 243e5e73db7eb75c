/** `GET /v1/decisions/{id}`, `POST /v1/decisions/{id}/replay`: any stored decision, an adjudication or a selection. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { callerOf } from './authenticate.js';
import { apiError } from '../api-error.js';
import { sendError } from './error-handling.js';

export function decisionRoutes(app: FastifyInstance, service: DecisionService): void {
  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/v1/decisions/:id', async (request, reply) => {
    const format = formatOf(request.query);
    if (!format.ok) return sendError(reply, format.error);
    const caller = callerOf(request);
    return answer(reply, format.value === 'decision-package' ? await service.decisionPackage(caller, request.params.id) : await service.find(caller, request.params.id));
  });

  app.post<{ Params: { id: string } }>('/v1/decisions/:id/replay', async (request, reply) => answer(reply, await service.replay(callerOf(request), request.params.id)));
}

/** `?format=decision-package` asks for the stored Decision Package; no parameter, the record as stored; nothing else is asked. */
function formatOf(query: Record<string, unknown>): ServiceResult<'record' | 'decision-package'> {
  const unknown = Object.keys(query).filter((name) => name !== 'format');
  if (unknown.length > 0) return { ok: false, error: apiError(400, 'INVALID_QUERY', `unknown query parameter ${JSON.stringify(unknown[0]!.slice(0, 64))}: the only one is format`, unknown.map((name) => ({ path: `?${name.slice(0, 64)}`, message: 'is not a parameter of this route' }))) };
  const format = query['format'];
  if (format === undefined) return { ok: true, value: 'record' };
  if (format === 'decision-package') return { ok: true, value: format };
  return { ok: false, error: apiError(400, 'INVALID_QUERY', `query parameter format must be decision-package, found ${typeof format === 'string' ? JSON.stringify(format.slice(0, 64)) : 'it more than once'}`, [{ path: '?format', message: 'must be decision-package' }]) };
}

function answer<T>(reply: FastifyReply, result: ServiceResult<T>): FastifyReply {
  return result.ok ? reply.code(200).send(result.value) : sendError(reply, result.error);
}
