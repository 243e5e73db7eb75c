/**
 * Request bodies are read as bytes and parsed by the runtime's strict reader (runtime README
 * "Reading a request's text"), not by Fastify's: invalid UTF-8 and repeated keys are refused
 * with their position instead of being repaired, so the request that is decided and audited is
 * exactly the one that was sent.
 */
import { parseRequestJson, requestLimits, type RequestLimits } from '@adec/runtime';
import type { FastifyInstance } from 'fastify';
import { apiError, type ApiError } from '../api-error.js';
import { RequestRefused } from './request-refused.js';

export function acceptStrictJson(app: FastifyInstance, limits: RequestLimits): void {
  // The body nests the context one level down: its depth limit is the context's plus one.
  const bodyLimits = requestLimits({ ...limits, maxDepth: limits.maxDepth + 1 });
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limits.maxRequestBytes }, (_request, body, done) => {
    const parsed = parseRequestJson(body as Buffer, bodyLimits);
    if (parsed.ok) {
      done(null, parsed.value);
      return;
    }
    const { code, message, line, column } = parsed.problem;
    done(new RequestRefused(refusalOf(code, message, line, column)));
  });
}

function refusalOf(code: string, message: string, line: number, column: number): ApiError {
  const where = [{ path: '$', message: `at line ${line}, column ${column}: ${message}` }];
  if (code === 'REQUEST_LIMIT') return apiError(413, 'REQUEST_TOO_LARGE', `the request body is over a limit: ${message}`, where);
  const what = code === 'NOT_UTF8' ? 'is not UTF-8' : code === 'DUPLICATE_KEY' ? 'repeats a key' : 'is not JSON';
  return apiError(400, code === 'DUPLICATE_KEY' ? 'DUPLICATE_KEY' : 'MALFORMED_JSON', `the request body ${what}: ${message}`, where);
}
