/**
 * Refusals every route shares, before authentication: a request during shutdown (503
 * SHUTTING_DOWN, in place of Fastify's own 503 body) and an HTTP/1.1 request without a Host
 * header (400, as RFC 9112 §3.2 requires; Node's own refusal has an empty body).
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.js';
import { sendError } from './error-handling.js';

export function refuseUnservableRequests(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      void reply.header('connection', 'close');
      return sendError(reply, apiError(503, 'SHUTTING_DOWN', 'the service is shutting down; retry, and another instance may answer', [], 1));
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return sendError(reply, apiError(400, 'MALFORMED_REQUEST', 'an HTTP/1.1 request must have a Host header'));
    }
    return undefined;
  });
}
