/**
 * Who is calling: what a verified token says about its bearer. The service routes, limits and
 * records decisions by this; the tenant is never taken from anywhere else (ARCHITECTURE.md,
 * "HTTP service").
 */
export interface Caller {
  /** From the tenant claim (`org_id` by default): non-empty, at most 200 characters, no control characters. */
  readonly tenant: string;
  /** `sub`: the principal the token was issued to (or on whose behalf the actors act). */
  readonly subject: string;
  /** The RFC 8693 `act` chain, outermost (the current actor) first; empty when nobody acts for another. */
  readonly delegation: readonly Actor[];
  /** `jti`, or null when the token has none. */
  readonly tokenId: string | null;
  /** `scope` (a space-separated string) or `scp` (a list, or a string as Microsoft issues it); empty when absent. */
  readonly scopes: readonly string[];
}

/** One actor of an RFC 8693 §4.1 `act` claim. */
export interface Actor {
  readonly subject: string;
  readonly issuer: string | null;
  readonly clientId: string | null;
}
