/**
 * The one catalogue of reasons a bearer token is refused. Verification never writes message
 * text inline: it names a code and fills the template's `{placeholders}` (the argument names
 * are checked by the type system). The codes are in check order: a token is refused with the
 * first that applies. Every code means HTTP 401; which one tells the caller what to fix.
 *
 * Message style (as in @adec/diagnostics): lowercase, no final period, user input in
 * backticks, and never the token or key material itself (quoted-value.ts).
 */
export const AUTH_FAILURE_CATALOGUE = {
  /** No bearer token was presented at all. */
  TOKEN_MISSING: 'the request carries no bearer token: {problem}',
  /** A bearer token was presented but is not a well-formed signed JWT. */
  TOKEN_MALFORMED: 'the bearer token is malformed: {problem}',
  /** The header asks for an algorithm the configured key does not verify with. */
  TOKEN_ALGORITHM_REFUSED: 'the token is refused for its algorithm: {problem}',
  /** The header names no configured key. */
  TOKEN_KEY_UNKNOWN: 'the token is signed by an unknown key: {problem}',
  TOKEN_SIGNATURE_INVALID:
    'the signature does not verify with key {kid} ({alg}): the token was changed after it was signed, or it was signed by another key',
  TOKEN_EXPIRED: 'the token expired at {expiredAt} (now {now}, clock tolerance {tolerance} s)',
  TOKEN_NOT_YET_VALID: 'the token is not valid before {notBefore} (now {now}, clock tolerance {tolerance} s)',
  TOKEN_ISSUER_INVALID: 'the token\'s `iss` is {issuer}; accepted issuers: {accepted}',
  TOKEN_AUDIENCE_INVALID: 'the token\'s `aud` is {audience}; accepted audiences (one must be listed): {accepted}',
  /** A claim adec reads (`sub`, the tenant, `act`, `jti`, scopes, or a time claim) is absent or of the wrong form. */
  TOKEN_CLAIMS_INVALID: 'the token\'s claims are invalid: {problem}',
} as const;

export type AuthErrorCode = keyof typeof AUTH_FAILURE_CATALOGUE;

/** Every catalogued code, in check order. */
export const AUTH_ERROR_CODES = Object.keys(AUTH_FAILURE_CATALOGUE) as AuthErrorCode[];

/** Why a token was refused. */
export interface AuthFailure {
  readonly ok: false;
  readonly code: AuthErrorCode;
  readonly message: string;
}

/** The `{names}` a template uses, as a union of string literals. */
type Placeholders<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

type FailureArgs<Code extends AuthErrorCode> = Readonly<Record<Placeholders<(typeof AUTH_FAILURE_CATALOGUE)[Code]>, string>>;

/** Builds a refusal from the catalogue: the only way verification creates one. */
export function authFailure<Code extends AuthErrorCode>(code: Code, args: FailureArgs<Code>): AuthFailure {
  const values: Readonly<Record<string, string>> = args;
  const message = AUTH_FAILURE_CATALOGUE[code].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  return { ok: false, code, message };
}
