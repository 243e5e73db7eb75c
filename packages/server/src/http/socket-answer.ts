/**
 * An error answered on the socket itself, outside Fastify's request cycle: a connection refused
 * before its request is read, a request Node's parser gave up on (malformed, headers too large,
 * too slow). Still the service's one error shape, with `Connection: close`: after these the
 * connection is not reused.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, type ApiError } from '../api-error.js';

/** The HTTP/1.1 response text of `error`. */
export function socketAnswer(error: ApiError): string {
  const body = JSON.stringify(errorBody(error));
  const retryAfter = error.retryAfterSeconds === undefined ? '' : `Retry-After: ${error.retryAfterSeconds}\r\n`;
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`;
}

/**
 * How long a refused connection stays open after its answer is written, so the client reads
 * the answer before the connection goes (closing at once, with the client's request unread,
 * makes the kernel reset the connection, and the reset can overtake the answer).
 */
const LINGER_MS = 1_000;

/** Answers `error` on a connection that has no request in progress, then closes it. */
export function refuseConnection(socket: Socket, error: ApiError): void {
  socket.on('error', () => {});
  // Whatever the client sends is read and dropped: nothing of it is parsed.
  socket.resume();
  socket.end(socketAnswer(error));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
