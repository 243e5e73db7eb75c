import { jwtVerify, type JWTPayload } from 'jose';
import { resolveAuthConfig, type AuthConfig, type ResolvedAuthConfig } from './auth-config.js';
import type { AuthFailure } from './auth-failure.js';
import { bearerToken } from './bearer-token.js';
import type { Caller } from './caller.js';
import { callerOf } from './caller-claims.js';
import { joseFailure } from './jose-failure.js';
import { selectKey } from './key-selection.js';
import { VerifiedTokens } from './verified-tokens.js';

export type { AuthErrorCode } from './auth-failure.js';
export type { Actor, Caller } from './caller.js';

/** The caller a request's token proves, or why the token is refused (every refusal is HTTP 401). */
export type TokenVerification = { readonly ok: true; readonly caller: Caller } | AuthFailure;

/**
 * Verifies `Authorization: Bearer <jwt>` headers against the configured keys. In order:
 * the header's form (bearer-token.ts), the key and its algorithm (key-selection.ts), then jose
 * checks the signature with that key's algorithm only, and the issuer, audience and times
 * (jose-failure.ts), and last the claims adec reads (caller-claims.ts). A refusal is a value;
 * a throw means a fault in adec or in its configuration.
 */
export class TokenVerifier {
  readonly #config: ResolvedAuthConfig;
  readonly #verified = new VerifiedTokens();

  /** Throws a TypeError when the configuration cannot work (no keys, a private or symmetric key, an empty issuer …). */
  constructor(config: AuthConfig) {
    this.#config = resolveAuthConfig(config);
  }

  /** `now`: milliseconds since 1970, the instant tokens are judged at (default: the clock). */
  async verify(authorization: string | undefined, now?: number): Promise<TokenVerification> {
    const bearer = bearerToken(authorization);
    if (!bearer.ok) return bearer;
    const at = now ?? Date.now();
    const known = this.#verified.get(bearer.token, at);
    if (known !== undefined) return { ok: true, caller: known };
    const config = this.#config;
    const selection = selectKey(bearer.token, config.keys);
    if (!selection.ok) return selection;
    const { key } = selection;
    const cryptoKey = await config.keys.cryptoKey(key);
    const currentDate = new Date(at);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(bearer.token, cryptoKey, {
        algorithms: [key.alg],
        issuer: [...config.issuers],
        audience: [...config.audiences],
        clockTolerance: config.clockToleranceSeconds,
        currentDate,
        requiredClaims: ['exp', 'sub', config.tenantClaim],
      }));
    } catch (error) {
      const failure = joseFailure(error, { key, config, now: currentDate });
      if (failure === undefined) throw error;
      return failure;
    }
    const verified = callerOf(payload, config.tenantClaim);
    if (verified.ok) this.#verified.remember(bearer.token, verified.caller, payload, config.clockToleranceSeconds);
    return verified;
  }
}
