import { errors, type JWTPayload } from 'jose';
import { authFailure, type AuthFailure } from './auth-failure.js';
import type { ResolvedAuthConfig } from './auth-config.js';
import { quoted, quotedList, shownValue } from './quoted-value.js';
import type { VerificationKey } from './verification-key.js';

/**
 * Translating what jose's `jwtVerify` throws (jose 6, dist/webapi/util/errors.js and
 * lib/jwt_claims_set.js) into catalogued refusals. jose checks the signature before any claim,
 * so a claim it complains about is one the key's holder really issued.
 */
export interface VerificationAttempt {
  readonly key: VerificationKey;
  readonly config: ResolvedAuthConfig;
  readonly now: Date;
}

/** The claims jose reads as NumericDates (RFC 7519 §2), and refuses with reason `invalid` when they are not numbers. */
const NUMERIC_DATE_CLAIMS = new Set(['exp', 'nbf', 'iat']);

/** The refusal for a jose error, or undefined for anything else (a fault, to be rethrown). */
export function joseFailure(error: unknown, attempt: VerificationAttempt): AuthFailure | undefined {
  const { key, config, now } = attempt;
  const times = { now: now.toISOString(), tolerance: String(config.clockToleranceSeconds) };
  if (error instanceof errors.JWTExpired) return authFailure('TOKEN_EXPIRED', { expiredAt: instant(error.payload.exp), ...times });
  if (error instanceof errors.JWTClaimValidationFailed) return claimFailure(error, attempt, times);
  if (error instanceof errors.JWSSignatureVerificationFailed) return authFailure('TOKEN_SIGNATURE_INVALID', { kid: quoted(key.kid), alg: key.alg });
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return authFailure('TOKEN_ALGORITHM_REFUSED', { problem: `key ${quoted(key.kid)} verifies only ${quoted(key.alg)}` });
  }
  // An unsupported `crit` extension or algorithm; selectKey refuses both first, so this is a second line.
  if (error instanceof errors.JOSENotSupported) return authFailure('TOKEN_ALGORITHM_REFUSED', { problem: error.message });
  // jose's messages for these describe the structure ("JWS Protected Header is invalid"), never the content.
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return authFailure('TOKEN_MALFORMED', { problem: error.message });
  return undefined;
}

type Times = { readonly now: string; readonly tolerance: string };

function claimFailure(error: InstanceType<typeof errors.JWTClaimValidationFailed>, attempt: VerificationAttempt, times: Times): AuthFailure {
  const { claim, reason, payload } = error;
  const { issuers, audiences } = attempt.config;
  if (claim === 'nbf' && reason === 'check_failed') return authFailure('TOKEN_NOT_YET_VALID', { notBefore: instant(payload.nbf), ...times });
  if (claim === 'iss') return authFailure('TOKEN_ISSUER_INVALID', { issuer: shownClaim(payload.iss), accepted: quotedList(issuers) });
  if (claim === 'aud') return authFailure('TOKEN_AUDIENCE_INVALID', { audience: shownClaim(payload.aud), accepted: quotedList(audiences) });
  if (reason === 'missing') return authFailure('TOKEN_CLAIMS_INVALID', { problem: `the required claim ${quoted(claim)} is missing` });
  if (reason === 'invalid' && NUMERIC_DATE_CLAIMS.has(claim)) {
    return authFailure('TOKEN_CLAIMS_INVALID', {
      problem: `${quoted(claim)} must be a number of seconds since 1970 (a NumericDate), not ${shownValue(claimValue(payload, claim))}`,
    });
  }
  return authFailure('TOKEN_CLAIMS_INVALID', { problem: `${quoted(claim)} is not accepted (${error.message})` });
}

/** `iss` or `aud` as a message shows it: `missing`, `` `a` ``, or `` [`a`, `b`] `` for a list of strings. */
function shownClaim(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return `[${quotedList(value)}]`;
  return shownValue(value);
}

/** A NumericDate as an ISO instant, or as the number when it is beyond what a Date holds. */
function instant(seconds: unknown): string {
  if (typeof seconds !== 'number') return shownValue(seconds);
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}

function claimValue(payload: JWTPayload, claim: string): unknown {
  return (payload as Readonly<Record<string, unknown>>)[claim];
}
