/**
 * The caller of every /v1 route, from its bearer token (verified before the body is read, so an
 * unauthenticated client cannot make the service parse megabytes). A refused token is a 401
 * with the reason's code and a `WWW-Authenticate` challenge (RFC 6750 §3).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../api-error.js';
import type { Caller, TokenVerifier } from '../auth/index.js';
import { sendError } from './error-handling.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function authenticate(verifier: TokenVerifier, onRefused: (code: string) => void) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const verified = await verifier.verify(request.headers.authorization);
    if (verified.ok) {
      request.caller = verified.caller;
      return;
    }
    onRefused(verified.code);
    void reply.header('www-authenticate', `Bearer error="invalid_token", error_description="${verified.code}"`);
    await sendError(reply, apiError(401, verified.code, verified.message));
  };
}

/** The authenticated caller of a /v1 route (set by `authenticate`). */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === undefined) throw new Error(`${request.url} was routed without authentication`);
  return request.caller;
}
