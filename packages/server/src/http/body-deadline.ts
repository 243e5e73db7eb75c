/**
 * The body's deadline: a request that announced a body must deliver all of it within
 * `bodyTimeoutMs` of its headers, or it is answered 408 REQUEST_TIMEOUT and its connection
 * closed. Node's deadlines cover the headers and the whole request; this one stops a client
 * that sends its headers at once and then a byte now and then (SECURITY.md, "Slow and numerous clients"), whoever
 * it is: the clock runs from the headers, before the token is checked. (The whole-request
 * deadline, Node's, also covers a body still arriving after its request was refused.)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../api-error.js';
import { socketAnswer } from './socket-answer.js';

/** `onRefused` hears each request timed out (for the metrics). */
export function enforceBodyDeadline(app: FastifyInstance, bodyTimeoutMs: number, onRefused: (code: string) => void): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (hasBody(request)) {
      const deadline = setTimeout(() => timedOut(request, reply, bodyTimeoutMs, onRefused), bodyTimeoutMs);
      // Cleared when the request is done with (all of it read, or its connection gone), not
      // when the answer is sent: after a refusal Node still reads and drops the rest of the
      // body, and that must end in time too.
      request.raw.once('close', () => clearTimeout(deadline));
    }
    done();
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function timedOut(request: FastifyRequest, reply: FastifyReply, bodyTimeoutMs: number, onRefused: (code: string) => void): void {
  if (request.raw.complete) return;
  onRefused('REQUEST_TIMEOUT');
  const socket = request.raw.socket;
  request.log.debug({ remoteAddress: socket.remoteAddress }, 'request body not received in time; connection closed');
  if (!reply.raw.headersSent && socket.writable) {
    // The application is still waiting for the body: it must not answer after this.
    reply.hijack();
    socket.write(socketAnswer(apiError(408, 'REQUEST_TIMEOUT', `the request body did not arrive within ${bodyTimeoutMs} ms of its headers`)));
  }
  socket.destroy();
}
