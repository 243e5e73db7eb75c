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

export class TenantRateLimits {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly maxTenants = 100_000,
  ) {}

  take(tenant: string, now: number): RateDecision {
    const bucket = this.#refilled(tenant, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitSeconds = (1 - bucket.tokens) / this.limit.perSecond;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)) };
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
