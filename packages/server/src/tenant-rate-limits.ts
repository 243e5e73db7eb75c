/**
 * Per-tenant token buckets (docs/spec/adjudication.md §7: "a tenant's only lever to consume disproportionate
 * resources is call volume, which rate limiting addresses directly"). Each tenant's bucket
 * holds up to `burst` tokens and refills at `perSecond`; a call takes one token or is refused
 * with the time until one is there. Tenants come from verified tokens, so their number is the
 * number of real tenants; buckets that have refilled completely are dropped when the table
 * grows past `maxTenants`, since a full bucket is the same as none.
 */

export interface RateLimit {
  /** Sustained decisions per second per tenant. */
  readonly perSecond: number;
  /** Decisions a tenant may make at once after being idle. */
  readonly burst: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** What admission asks of a rate limiter: this process's buckets, or a lease of the supervisor's (leased-rate-limits.ts). */
export interface RateLimiter {
  readonly limit: RateLimit;
  take(tenant: string, now: number): RateDecision | Promise<RateDecision>;
}

/** Tokens taken at once: `granted` of those wanted, and when none, the milliseconds until one is there. */
export interface Lease {
  readonly granted: number;
  readonly retryAfterMs: number;
}

export class TenantRateLimits implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: RateLimit,
    private readonly maxTenants = 100_000,
  ) {}

  take(tenant: string, now: number): RateDecision {
    const { granted, retryAfterMs } = this.lease(tenant, 1, now);
    return granted === 1 ? { allowed: true } : { allowed: false, retryAfterSeconds: retryAfterSeconds(retryAfterMs) };
  }

  /** Takes up to `wanted` whole tokens at once (a worker process's lease: leased-rate-limits.ts). */
  lease(tenant: string, wanted: number, now: number): Lease {
    const bucket = this.#refilled(tenant, now);
    const granted = Math.min(wanted, Math.floor(bucket.tokens));
    bucket.tokens -= granted;
    return { granted, retryAfterMs: granted > 0 ? 0 : ((1 - bucket.tokens) / this.limit.perSecond) * 1000 };
  }

  #refilled(tenant: string, now: number): Bucket {
    let bucket = this.#buckets.get(tenant);
    if (bucket === undefined) {
      if (this.#buckets.size >= this.maxTenants) this.#dropFull(now);
      bucket = { tokens: this.limit.burst, updatedAt: now };
      this.#buckets.set(tenant, bucket);
      return bucket;
    }
    const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + elapsedSeconds * this.limit.perSecond);
    bucket.updatedAt = now;
    return bucket;
  }

  #dropFull(now: number): void {
    for (const [tenant, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.limit.perSecond >= this.limit.burst) this.#buckets.delete(tenant);
    }
  }
}

/** A Retry-After header's whole seconds, at least 1. */
export function retryAfterSeconds(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}
