/**
 * A request Node's HTTP parser gave up on, before Fastify saw it (the `clientError` event):
 * past its headers or whole-request deadline (408), headers over the size limit (431), or not
 * HTTP/1.1 at all (400). Answered in the service's error shape, then the connection closed.
 * The parser's own words (`HPE_INVALID_METHOD`, byte offsets) go to the debug log only.
 */
import type { FastifyBaseLogger } from 'fastify';
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { apiError, type ApiError } from '../api-error.js';
import type { ConnectionLimits } from './connection-limits.js';
import { socketAnswer } from './socket-answer.js';

type ConnectionError = Error & { code?: string };

/** `onRefused` hears each refusal's code (for the metrics). */
export function answerClientError(limits: ConnectionLimits, log: () => FastifyBaseLogger, onRefused: (code: string) => void) {
  return (error: ConnectionError, socket: Socket): void => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = refusalOf(error, limits);
    onRefused(refusal.code);
    log().debug({ err: error, remoteAddress: socket.remoteAddress }, 'client error; connection closed');
    // Nothing is written into an answer already under way (its headers sent): the connection just ends.
    const answering = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (socket.writable && answering?.headersSent !== true) socket.write(socketAnswer(refusal));
    socket.destroy();
  };
}

function refusalOf(error: ConnectionError, limits: ConnectionLimits): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return apiError(408, 'REQUEST_TIMEOUT', `the request did not arrive in time (headers within ${limits.headersTimeoutMs} ms, the whole request within ${limits.requestTimeoutMs} ms)`);
    case 'HPE_HEADER_OVERFLOW':
      return apiError(431, 'HEADERS_TOO_LARGE', `the request line and headers are larger than the service reads (${maxHeaderSize / 1024} KiB)`);
    default:
      return apiError(400, 'MALFORMED_REQUEST', 'the request is not well-formed HTTP/1.1');
  }
}
