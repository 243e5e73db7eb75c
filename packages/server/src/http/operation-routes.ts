/**
 * The route of each operation (pipeline/operation.ts): `POST <path>`, its body the operation's
 * request, its answer the operation's, sent as is (a body's JSON text, or the error shape).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Answer } from '../pipeline/operation.js';
import type { ServedOperation } from '../pipeline/served-operation.js';
import { callerOf } from './authenticate.js';
import { sendError } from './error-handling.js';

export function operationRoutes(app: FastifyInstance, operations: readonly ServedOperation[]): void {
  for (const served of operations) {
    app.post(served.operation.path, async (request, reply) => sendAnswer(reply, await served.answer(callerOf(request), request.body, request.query)));
  }
}

function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  for (const [name, value] of Object.entries(answer.headers)) void reply.header(name, value);
  if (!answer.ok) return sendError(reply, answer.error);
  // The JSON text the operation made (for a decision, the text its audit record holds): Fastify sends a string as it is.
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.json);
}
