/**
 * The service's one error shape (ARCHITECTURE.md "HTTP service"):
 * `{ error: { code, message, details[] } }`, each detail naming the JSON path of a problem in
 * the request. Every refusal the service makes is one of these values; a thrown error is a bug
 * and becomes a 500 INTERNAL_ERROR that says nothing about the code that threw.
 */

export interface ErrorDetail {
  /** JSONPath of the offending value (`$.context.age`), or `$` for the request as a whole. */
  readonly path: string;
  readonly message: string;
}

export interface ApiError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details: readonly ErrorDetail[];
  /** For 429 and 503: when to try again, sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;
}

export function apiError(status: number, code: string, message: string, details: readonly ErrorDetail[] = [], retryAfterSeconds?: number): ApiError {
  return retryAfterSeconds === undefined ? { status, code, message, details } : { status, code, message, details, retryAfterSeconds };
}

export function errorBody(error: ApiError): { error: { code: string; message: string; details: readonly ErrorDetail[] } } {
  return { error: { code: error.code, message: error.message, details: error.details } };
}
