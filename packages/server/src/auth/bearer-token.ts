import { authFailure, type AuthFailure } from './auth-failure.js';
import { quoted } from './quoted-value.js';

/**
 * Reading the token out of `Authorization: Bearer <token>` (RFC 6750 §2.1). Code TOKEN_MISSING
 * means no bearer token was presented (no header, another scheme, nothing after `Bearer`);
 * TOKEN_MALFORMED means one was, but it cannot be a signed JWT.
 */
export type BearerToken = { readonly ok: true; readonly token: string } | AuthFailure;

/**
 * Longer tokens are refused before any parsing. Access tokens are a few KiB, and Node refuses
 * request headers over 16 KiB in all, so nothing legitimate comes near this.
 */
export const MAX_TOKEN_CHARS = 16 * 1024;

/** Room for the scheme and the spaces around it, so an oversized header is refused before it is split. */
const MAX_HEADER_CHARS = MAX_TOKEN_CHARS + 64;

/** An authentication scheme is an RFC 9110 token; longer or stranger words are not shown back. */
const SHOWN_SCHEME = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,31}$/;

/**
 * A compact JWS: three base64url parts; the signature may be empty so that `alg: none` is
 * refused by name later. Each part must be the canonical encoding of its bytes: base64url
 * decoders ignore the spare low bits of a last character, so without this one token would have
 * several spellings that all verify, and a spelling is what a replay cache or a log compares.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const JWS_PARTS = ['header', 'payload', 'signature'] as const;

export function bearerToken(authorization: string | undefined): BearerToken {
  if (authorization === undefined || authorization.trim() === '') {
    return authFailure('TOKEN_MISSING', { problem: 'it has no `Authorization` header' });
  }
  if (authorization.length > MAX_HEADER_CHARS) return tooLong(authorization.length);
  const [scheme = '', ...credentials] = authorization.trim().split(/[ \t]+/);
  if (scheme.toLowerCase() !== 'bearer') {
    const shown = SHOWN_SCHEME.test(scheme) ? `uses the ${quoted(scheme)} scheme` : 'does not start with an authentication scheme';
    return authFailure('TOKEN_MISSING', { problem: `the \`Authorization\` header ${shown}: expected \`Bearer <token>\`` });
  }
  const [token] = credentials;
  if (token === undefined) return authFailure('TOKEN_MISSING', { problem: 'the `Authorization` header says `Bearer` but holds no token' });
  if (credentials.length > 1) {
    return authFailure('TOKEN_MALFORMED', {
      problem: `the \`Authorization\` header holds ${credentials.length} space-separated values after \`Bearer\`: expected exactly one token`,
    });
  }
  if (token.length > MAX_TOKEN_CHARS) return tooLong(token.length);
  if (!COMPACT_JWS.test(token)) {
    const problem =
      token.split('.').length === 5
        ? 'it has the five parts of an encrypted token (JWE): only signed tokens (JWS) are accepted'
        : 'it is not a signed JWT: expected three base64url parts separated by dots';
    return authFailure('TOKEN_MALFORMED', { problem });
  }
  const loose = token.split('.').findIndex((part) => Buffer.from(part, 'base64url').toString('base64url') !== part);
  if (loose !== -1) {
    return authFailure('TOKEN_MALFORMED', {
      problem: `its ${JWS_PARTS[loose]} is not canonical base64url (a character too many, or spare bits that are not zero)`,
    });
  }
  return { ok: true, token };
}

function tooLong(length: number): AuthFailure {
  return authFailure('TOKEN_MALFORMED', { problem: `it is ${length} characters long, over the limit of ${MAX_TOKEN_CHARS}` });
}
