/**
 * Tokens this verifier has already verified, remembered until they expire. An agent presents
 * the same token for many decisions, and checking its signature again each time was the
 * largest cost of a decision after the audit commit (bench/http: an Ed25519 verify is 110–130 µs
 * on the thread pool plus 55 µs to set up the WebCrypto job, of about 540 µs per decision).
 *
 * What is remembered is exactly what a full verification returned for exactly that token text,
 * under keys that never change for the life of the verifier. A hit checks the times again: a
 * token is never accepted at or after its `exp` (plus the clock tolerance, as jose judges it),
 * nor before its `nbf`. Refusals are not remembered. The table is bounded: least recently used
 * tokens leave first, and tokens longer than any ordinary JWT are not remembered at all.
 */
import type { Caller } from './caller.js';

interface Remembered {
  readonly caller: Caller;
  /** Milliseconds: the token is accepted from `validFrom` and until (not at) `validUntil`. */
  readonly validFrom: number;
  readonly validUntil: number;
}

/** An ordinary JWT is well under this; a longer one is verified every time. */
const MAX_REMEMBERED_CHARS = 4_096;

export class VerifiedTokens {
  readonly #tokens = new Map<string, Remembered>();

  constructor(private readonly capacity = 10_000) {}

  /** The caller `token` proved, if it was verified before and is valid at `now`. */
  get(token: string, now: number): Caller | undefined {
    const remembered = this.#tokens.get(token);
    if (remembered === undefined) return undefined;
    this.#tokens.delete(token);
    if (now >= remembered.validUntil) return undefined;
    this.#tokens.set(token, remembered);
    return now >= remembered.validFrom ? remembered.caller : undefined;
  }

  /** Remembers a verified token; `exp` and `nbf` in seconds, as in its claims. */
  remember(token: string, caller: Caller, claims: { readonly exp?: number; readonly nbf?: number }, toleranceSeconds: number): void {
    if (token.length > MAX_REMEMBERED_CHARS || claims.exp === undefined) return;
    if (this.#tokens.size >= this.capacity) this.#tokens.delete(this.#tokens.keys().next().value!);
    const validFrom = claims.nbf === undefined ? Number.NEGATIVE_INFINITY : (claims.nbf - toleranceSeconds) * 1000;
    this.#tokens.set(token, { caller, validFrom, validUntil: (claims.exp + toleranceSeconds) * 1000 });
  }
}
