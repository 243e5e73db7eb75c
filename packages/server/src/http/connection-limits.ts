/**
 * How long a client may take and how many connections it may hold: the service's defence
 * against slow and numerous clients (SECURITY.md, "Slow and numerous clients": connections that sent
 * their headers and then a body byte every 5 s were held for minutes, with no token, because
 * every timeout was off and nothing capped connections).
 *
 * Each phase of a request has its own deadline, so a client cannot stay under one by spreading
 * its bytes over another: the headers, the body once the headers are in, and the whole request.
 * Then the connection itself: idle (a client that stops reading its answer), kept alive between
 * requests, reused for at most so many requests, and counted against the service's cap and
 * against its address's share of it.
 */

export interface ConnectionLimits {
  /** The request line and every header must arrive within this of the request's first byte. */
  readonly headersTimeoutMs: number;
  /** The body must arrive within this of the end of the headers. */
  readonly bodyTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this. */
  readonly requestTimeoutMs: number;
  /** A connection on which nothing is received or sent for this long is closed (a client that stops reading). */
  readonly idleTimeoutMs: number;
  /** How long an idle kept-alive connection waits for its next request. */
  readonly keepAliveTimeoutMs: number;
  /** After this many requests a connection is closed (the answer says `Connection: close`). */
  readonly maxRequestsPerConnection: number;
  /** Connections open at once; one more is answered 503 TOO_MANY_CONNECTIONS and closed. */
  readonly maxConnections: number;
  /** Connections open at once from one client address; one more is answered 429 TOO_MANY_CONNECTIONS_FROM_ADDRESS and closed. */
  readonly maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Above the default decision deadline (5 s): a connection waiting for its decision is idle.
  idleTimeoutMs: 30_000,
  // Fastify's default: longer than the 60 s idle timeout of common load balancers, so the
  // balancer closes a kept-alive connection first and never sends on one the service closed.
  keepAliveTimeoutMs: 72_000,
  maxRequestsPerConnection: 10_000,
  maxConnections: 4_096,
  maxConnectionsPerAddress: 512,
};

/** `limits` over the defaults; the headers deadline never exceeds the whole request's (Node refuses that). */
export function connectionLimits(limits: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const merged = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  return { ...merged, headersTimeoutMs: Math.min(merged.headersTimeoutMs, merged.requestTimeoutMs) };
}

/**
 * How often Node looks for requests past their headers or whole-request deadline. Node's
 * default is every 30 s, which would let a slow client stay up to 30 s past a 10 s deadline.
 * Here a quarter of the shortest deadline, between 50 and 250 ms: a pass over the connections
 * with a request in progress, a few microseconds for hundreds of them.
 */
export function deadlineCheckIntervalMs(limits: ConnectionLimits): number {
  return Math.min(250, Math.max(50, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}
