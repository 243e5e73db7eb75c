/**
 * Authentication of callers: bearer JWTs verified with jose against configured public keys,
 * the tenant and the RFC 8693 delegation chain read from the verified claims.
 */
export { DEFAULT_CLOCK_TOLERANCE_SECONDS, DEFAULT_TENANT_CLAIM, JWKS_FILE_MAX_BYTES, loadJwks } from './auth-config.js';
export type { AuthConfig, JwksLoad } from './auth-config.js';
export { AUTH_ERROR_CODES, AUTH_FAILURE_CATALOGUE } from './auth-failure.js';
export type { AuthErrorCode, AuthFailure } from './auth-failure.js';
export { MAX_TOKEN_CHARS } from './bearer-token.js';
export type { Actor, Caller } from './caller.js';
export { MAX_TENANT_CHARS } from './caller-claims.js';
export { MAX_DELEGATION_DEPTH } from './delegation-chain.js';
export { ACCEPTED_ALGORITHMS } from './verification-key.js';
export type { AcceptedAlgorithm } from './verification-key.js';
export { TokenVerifier } from './verify-token.js';
export type { TokenVerification } from './verify-token.js';
