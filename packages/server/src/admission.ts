/**
 * Whether the service takes one more decision now, whatever its kind (adjudication,
 * selection, feedback): the caller's tenant must be under its rate limit, and the service under
 * its bound on decisions in flight (load shedding: a 503 now instead of unbounded memory
 * later). One admission is shared by every operation, so a tenant's budget is one budget.
 */
import { apiError, type ApiError } from './api-error.js';
import type { RateDecision, RateLimiter } from './tenant-rate-limits.js';

export type Admitted = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly error: ApiError };

export class Admission {
  #inFlight = 0;

  /** `rateLimits`: this process's buckets (TenantRateLimits) or a worker's leases of the supervisor's (LeasedRateLimits). */
  constructor(
    private readonly rateLimits: RateLimiter,
    private readonly maxInFlight: number,
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Admits one decision of `tenant` at `now` (ms); `release` must be called once it is
   * answered. Synchronous unless a worker process must lease tokens from its supervisor first.
   */
  admit(tenant: string, now: number): Admitted | Promise<Admitted> {
    const limited = this.rateLimits.take(tenant, now);
    return limited instanceof Promise ? limited.then((decision) => this.#admitted(tenant, decision)) : this.#admitted(tenant, limited);
  }

  #admitted(tenant: string, limited: RateDecision): Admitted {
    if (!limited.allowed) return { ok: false, error: apiError(429, 'RATE_LIMITED', `org ${tenant} is over its rate limit of ${this.rateLimits.limit.perSecond} decisions per second`, [], limited.retryAfterSeconds) };
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
