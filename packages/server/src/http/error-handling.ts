/**
 * Every failure becomes `{ error: { code, message, details } }`: refusals with their own status,
 * Fastify's own refusals (oversized or empty body, unsupported media type, a URL that is not
 * percent-encoded or whose id is too long, unknown route) translated, and anything else a 500
 * INTERNAL_ERROR whose details stay in the log. A stack trace, a host path or a driver's text
 * never reaches a client (public-error.ts); the log keeps them.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, errorBody, type ApiError } from '../api-error.js';
import { logWithheld, publicError } from './public-error.js';
import { RequestRefused } from './request-refused.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const shown = publicError(error);
  if (shown !== error) logWithheld(reply.log, error);
  if (shown.retryAfterSeconds !== undefined) void reply.header('retry-after', String(shown.retryAfterSeconds));
  return reply.code(shown.status).type('application/json').send(errorBody(shown));
}

export function installErrorHandling(app: FastifyInstance, maxRequestBytes: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RequestRefused) return sendError(reply, error.refusal);
    const translated = fastifyRefusal(error, maxRequestBytes);
    if (translated !== undefined) {
      request.log.debug({ err: error }, 'request refused');
      return sendError(reply, translated);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this request; the failure is logged'));
  });
  // The client's path is not echoed: what it names is the caller's, and it need not be shown back.
  app.setNotFoundHandler((request, reply) => sendError(reply, apiError(404, 'ROUTE_NOT_FOUND', `no route answers ${request.method.slice(0, 16)} at this path; the routes are in /openapi.json`)));
}

/** Fastify's refusals before a route runs (`frameworkErrors`): a URL it cannot route. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, frameworkRefusal(error, request));
}

/** What a request Fastify failed before routing is answered (an unforeseen failure is logged). */
function frameworkRefusal(error: FastifyError, request: FastifyRequest): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return apiError(400, 'MALFORMED_URL', 'the URL\'s path is not valid percent-encoded UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return apiError(414, 'URI_TOO_LONG', 'a path segment of the URL is longer than any id the service issues (at most 128 characters)');
    default:
      request.log.error({ err: error }, 'request failed before routing');
      return apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this request; the failure is logged');
  }
}

function fastifyRefusal(error: FastifyError, maxRequestBytes: number): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError(413, 'REQUEST_TOO_LARGE', `the request body is larger than ${maxRequestBytes} bytes`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return apiError(400, 'MALFORMED_JSON', 'the request body is empty', [{ path: '$', message: 'expected a JSON object' }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiError(400, 'MALFORMED_REQUEST', 'the request\'s Content-Length does not match its body');
    default:
      // Fastify's own words name its internals: the status is kept, the words are the service's.
      return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? apiError(error.statusCode, 'MALFORMED_REQUEST', 'the request cannot be read as sent') : undefined;
  }
}
