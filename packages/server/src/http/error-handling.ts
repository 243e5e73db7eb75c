/**
 * Every failure becomes `{ error: { code, message, details } }`: refusals with their own status,
 * Fastify's own refusals (oversized or empty body, unsupported media type, unknown route)
 * translated, and anything else a 500 INTERNAL_ERROR whose details stay in the log. A stack
 * trace never reaches a client.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { apiError, errorBody, type ApiError } from '../api-error.js';
import { RequestRefused } from './request-refused.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json').send(errorBody(error));
}

export function installErrorHandling(app: FastifyInstance, maxRequestBytes: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RequestRefused) return sendError(reply, error.refusal);
    const translated = fastifyRefusal(error, maxRequestBytes);
    if (translated !== undefined) return sendError(reply, translated);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this request; the failure is logged'));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, apiError(404, 'ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}`)));
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
      return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? apiError(error.statusCode, 'MALFORMED_REQUEST', error.message) : undefined;
  }
}
