/**
 * Whether the service takes one more decision now, whatever its kind (adjudication,
 * selection, feedback): the caller's tenant must be under its rate limit, and the service under
 * its bound on decisions in flight (load shedding: a 503 now instead of unbounded memory
 * later). One admission is shared by every operation, so a tenant's budget is one budget.
 */
import { apiError, type ApiError } from './api-error.js';
import { TenantRateLimits, type RateLimit } from './tenant-rate-limits.js';

export type Admitted = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly error: ApiError };

export class Admission {
  readonly #rateLimits: TenantRateLimits;
  #inFlight = 0;

  constructor(
    private readonly rateLimit: RateLimit,
    private readonly maxInFlight: number,
  ) {
    this.#rateLimits = new TenantRateLimits(rateLimit);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Admits one decision of `tenant` at `now` (ms); `release` must be called once it is answered. */
  admit(tenant: string, now: number): Admitted {
    const limited = this.#rateLimits.take(tenant, now);
    if (!limited.allowed) return { ok: false, error: apiError(429, 'RATE_LIMITED', `org ${tenant} is over its rate limit of ${this.rateLimit.perSecond} decisions per second`, [], limited.retryAfterSeconds) };
    if (this.#inFlight >= this.maxInFlight) return { ok: false, error: apiError(503, 'OVERLOADED', `the service is at its limit of ${this.maxInFlight} decisions in flight`, [], 1) };
    this.#inFlight += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight -= 1;
      },
    };
  }
}
