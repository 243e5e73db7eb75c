/**
 * Worker processes lease rate-limit tokens from the supervisor's buckets (leased-rate-limits.ts).
 * Over generated schedules (worker counts, limits, bursts, arrival patterns, lease delays): the
 * decisions admitted over all workers never exceed what one bucket would admit, so a tenant's
 * limit is the service's whatever N is; and one worker alone (a client on one keep-alive
 * connection) can still use the whole limit.
 */
import { describe, expect, it } from 'vitest';
import { LeasedRateLimits } from '../src/leased-rate-limits.js';
import { TenantRateLimits, type RateLimit } from '../src/tenant-rate-limits.js';

/** A deterministic generator (mulberry32), so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  readonly workers: number;
  readonly limit: RateLimit;
  /** Decisions asked for, each (worker, time in ms), in time order. */
  readonly arrivals: readonly { readonly worker: number; readonly at: number }[];
  /** How long a lease takes to come back (ms). */
  readonly leaseDelayMs: number;
}

function generatedCase(seed: number): Case {
  const next = random(seed);
  const workers = 1 + Math.floor(next() * 4);
  const perSecond = [1, 5, 50, 1_000][Math.floor(next() * 4)]!;
  const burst = Math.max(1, Math.round(perSecond * [0.5, 1, 2][Math.floor(next() * 3)]!));
  // Several times what the limit allows, in bursts and lulls, spread over workers unevenly.
  const skew = next();
  const arrivals: { worker: number; at: number }[] = [];
  let at = 0;
  while (at < 3_000) {
    at += next() < 0.1 ? next() * 300 : next() * (1_000 / (perSecond * 4));
    arrivals.push({ worker: next() < skew ? 0 : Math.floor(next() * workers), at });
  }
  return { workers, limit: { perSecond, burst }, arrivals, leaseDelayMs: Math.floor(next() * 3) };
}

/** Runs `c` on a simulated clock; the times at which decisions were admitted. */
async function admittedTimes(c: Case): Promise<number[]> {
  let now = 0;
  const clock = () => now;
  const buckets = new TenantRateLimits(c.limit);
  const leasesDue: { at: number; resolve: () => void }[] = [];
  const request = (tenant: string, wanted: number) => {
    const lease = buckets.lease(tenant, wanted, now);
    return new Promise<typeof lease>((resolve) => leasesDue.push({ at: now + c.leaseDelayMs, resolve: () => resolve(lease) }));
  };
  const workers = Array.from({ length: c.workers }, () => new LeasedRateLimits(c.limit, request, clock));
  const admitted: number[] = [];
  const waiting: Promise<void>[] = [];
  const deliverUntil = async (time: number) => {
    for (;;) {
      const due = leasesDue.filter((lease) => lease.at <= time).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      leasesDue.splice(leasesDue.indexOf(due), 1);
      now = Math.max(now, due.at);
      due.resolve();
      // Let the decisions waiting on the lease take their tokens.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    now = Math.max(now, time);
  };
  for (const { worker, at } of c.arrivals) {
    await deliverUntil(at);
    const decision = workers[worker]!.take('acme', now);
    if (decision instanceof Promise) {
      waiting.push(
        decision.then((settled) => {
          if (settled.allowed) admitted.push(now);
        }),
      );
    }
    else if (decision.allowed) admitted.push(now);
  }
  // The leases still due, on the clock: a decision waiting for one is admitted when it comes.
  await deliverUntil(c.arrivals.at(-1)!.at + 1_000);
  await Promise.all(waiting);
  return admitted;
}

describe('rate limits leased by worker processes', () => {
  it.each(Array.from({ length: 60 }, (_, i) => [i + 1]))('case %i: never admit more over all workers than the one bucket allows', async (seed) => {
    const c = generatedCase(seed);
    const admitted = await admittedTimes(c);
    // Over every window from the start: at most the burst plus what refilled meanwhile.
    for (const [i, at] of admitted.sort((a, b) => a - b).entries()) {
      expect(i + 1, `${JSON.stringify({ ...c, arrivals: c.arrivals.length })}: decision ${i + 1} at ${at} ms`).toBeLessThanOrEqual(c.limit.burst + (at * c.limit.perSecond) / 1000 + 1e-9);
    }
  });

  it.each([
    [{ perSecond: 50, burst: 100 }],
    [{ perSecond: 200, burst: 400 }],
  ])('lets one worker alone use the whole limit %o (a client on one connection)', async (limit) => {
    // Four times the limit for 2 s, all on worker 0 of 4.
    const arrivals = Array.from({ length: limit.perSecond * 8 }, (_, i) => ({ worker: 0, at: (i * 2_000) / (limit.perSecond * 8) }));
    const admitted = await admittedTimes({ workers: 4, limit, arrivals, leaseDelayMs: 1 });
    // Over the 2 s: the burst and two seconds' refill, less at most one lease's worth left unspent.
    expect(admitted.length).toBeGreaterThanOrEqual(limit.burst + 2 * limit.perSecond - Math.ceil(limit.perSecond / 50) - 1);
    expect(admitted.length).toBeLessThanOrEqual(limit.burst + 2 * limit.perSecond);
  });

  it('refuses, and says when to retry, when the supervisor cannot be asked', async () => {
    const limits = new LeasedRateLimits({ perSecond: 10, burst: 10 }, () => Promise.reject(new Error('the channel to the supervisor is closed')));
    expect(await limits.take('acme', Date.now())).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
