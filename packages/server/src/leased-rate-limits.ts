/**
 * A worker process's rate limiter (`adec serve --workers N`: packages/server/README.md "Worker
 * processes"). The buckets are the supervisor's, one per tenant for the whole service, so a
 * tenant's limit is the same whatever worker its connections land on; a worker takes tokens
 * from them in leases of several at a time and spends them locally, so most decisions ask
 * nothing of the supervisor.
 *
 * The limit is never exceeded: every token admitted came out of the supervisor's bucket. A
 * leased token unspent after `LEASE_LIFETIME_MS` is dropped rather than kept for later, so what
 * a worker holds cannot add to a burst after an idle spell; the cost is at most one lease's
 * worth of tokens per worker going unused when a tenant stops. A refusal is remembered until
 * the next token is due, so a tenant over its limit costs the supervisor one message per token,
 * not one per request. Decisions that find no token wait for one lease together.
 */
import { retryAfterSeconds, type Lease, type RateDecision, type RateLimit, type RateLimiter } from './tenant-rate-limits.js';

/** Asks the supervisor for up to `wanted` tokens of `tenant`'s bucket. */
export type LeaseRequest = (tenant: string, wanted: number) => Promise<Lease>;

/** Leased tokens not spent by then are dropped. */
export const LEASE_LIFETIME_MS = 1_000;
/** A lease is this share of a second's tokens: at the limit, about 50 leases a second per tenant and worker. */
const LEASES_PER_SECOND = 50;
/** Tenants remembered before those holding nothing are forgotten (as TenantRateLimits drops full buckets). */
const MAX_TENANTS = 100_000;

interface Held {
  tokens: number;
  expiresAt: number;
  refusedUntil: number;
  pending: Promise<void> | undefined;
}

export class LeasedRateLimits implements RateLimiter {
  readonly #held = new Map<string, Held>();
  readonly #leaseSize: number;

  constructor(
    readonly limit: RateLimit,
    private readonly request: LeaseRequest,
    private readonly clock: () => number = Date.now,
  ) {
    this.#leaseSize = Math.max(1, Math.min(Math.floor(limit.burst), Math.ceil(limit.perSecond / LEASES_PER_SECOND)));
  }

  take(tenant: string, now: number): RateDecision | Promise<RateDecision> {
    const held = this.#heldBy(tenant);
    const spent = this.#spend(held, now);
    return spent ?? this.#leaseThenTake(tenant, held);
  }

  /** A decision from what is held, or undefined when a lease must be asked for. */
  #spend(held: Held, now: number): RateDecision | undefined {
    if (held.tokens >= 1 && now < held.expiresAt) {
      held.tokens -= 1;
      return { allowed: true };
    }
    if (now < held.refusedUntil) return { allowed: false, retryAfterSeconds: retryAfterSeconds(held.refusedUntil - now) };
    return undefined;
  }

  async #leaseThenTake(tenant: string, held: Held): Promise<RateDecision> {
    // Every decision that found nothing waits for the one lease; each then spends from it in
    // turn, and those it did not cover ask again.
    for (;;) {
      held.pending ??= this.#lease(tenant, held).finally(() => (held.pending = undefined));
      await held.pending;
      const spent = this.#spend(held, this.clock());
      if (spent !== undefined) return spent;
    }
  }

  async #lease(tenant: string, held: Held): Promise<void> {
    let lease: Lease;
    try {
      lease = await this.request(tenant, this.#leaseSize);
    } catch {
      // The supervisor cannot be asked (it is stopping): refused, never admitted unmetered.
      lease = { granted: 0, retryAfterMs: 1_000 };
    }
    const now = this.clock();
    if (lease.granted > 0) {
      held.tokens = lease.granted;
      held.expiresAt = now + LEASE_LIFETIME_MS;
      held.refusedUntil = 0;
    } else {
      held.tokens = 0;
      held.refusedUntil = now + Math.max(1, lease.retryAfterMs);
    }
  }

  #heldBy(tenant: string): Held {
    let held = this.#held.get(tenant);
    if (held === undefined) {
      if (this.#held.size >= MAX_TENANTS) this.#dropSpent(this.clock());
      held = { tokens: 0, expiresAt: 0, refusedUntil: 0, pending: undefined };
      this.#held.set(tenant, held);
    }
    return held;
  }

  /** Forgets tenants holding nothing: no live tokens, no refusal, no lease coming. */
  #dropSpent(now: number): void {
    for (const [tenant, held] of this.#held) {
      if (held.pending === undefined && now >= held.refusedUntil && (held.tokens < 1 || now >= held.expiresAt)) this.#held.delete(tenant);
    }
  }
}
