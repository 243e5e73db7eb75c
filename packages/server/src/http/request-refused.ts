/** An ApiError thrown through Fastify's hooks and parsers, answered as it says by the error handler. */
import type { ApiError } from '../api-error.js';

export class RequestRefused extends Error {
  constructor(readonly refusal: ApiError) {
    super(refusal.message);
  }
}
