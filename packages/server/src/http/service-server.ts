/**
 * The Node HTTP server under the Fastify application, with every connection limit of
 * connection-limits.ts: Node's own deadlines for the headers and the whole request (checked
 * often enough to hold them), the idle and keep-alive timeouts, the requests a connection may
 * carry, and the two caps on open connections, which are applied before Node reads a byte of
 * the connection, so a refused client costs one short answer. The one request Node answers
 * itself, an `Expect` it does not know (417), is answered in the service's error shape too.
 *
 * Closing it (`close()`, which Fastify's `close()` calls) stops accepting and, at once, closes
 * every connection that has no whole request to answer: idle ones, kept-alive ones between
 * requests, and half-sent ones, whose headers or body are still arriving (Node's own close
 * keeps a connection open while a request is being read, so one client that sent part of a
 * request and stopped held the process until it went away: SECURITY.md, "Slow and numerous
 * clients"). A connection whose request has arrived whole is in flight: it is answered, with
 * `Connection: close`, and closed after its answer.
 */
import { Server, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { apiError, errorBody } from '../api-error.js';
import { deadlineCheckIntervalMs, type ConnectionLimits } from './connection-limits.js';
import { refuseConnection } from './socket-answer.js';

interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

/** Tells the client that the connection closes after this answer, if its headers are not out yet. */
function lastAnswer(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
}

/** Called for each connection refused, with its code (for the metrics and the log). */
export type OnConnectionRefused = (code: string, address: string) => void;

export function serviceServer(handler: RequestListener, limits: ConnectionLimits, onRefused: OnConnectionRefused): Server {
  return new ConnectionGatedServer(handler, limits, onRefused);
}

const TOO_MANY_CONNECTIONS = (limit: number) => apiError(503, 'TOO_MANY_CONNECTIONS', `the service has its limit of ${limit} connections open; try again shortly`, [], 1);
const TOO_MANY_FROM_ADDRESS = (limit: number) => apiError(429, 'TOO_MANY_CONNECTIONS_FROM_ADDRESS', `this client address has its limit of ${limit} connections open; reuse one (keep-alive) or close one first`, [], 1);

class ConnectionGatedServer extends Server {
  readonly #limits: ConnectionLimits;
  readonly #onRefused: OnConnectionRefused;
  readonly #perAddress = new Map<string, number>();
  readonly #requestsOn = new WeakMap<Socket, number>();
  readonly #connections = new Set<Socket>();
  /** The requests each connection is reading or answering (more than one when pipelined), until each is answered. */
  readonly #exchanges = new Map<Socket, Set<Exchange>>();
  #open = 0;
  #closing = false;

  constructor(handler: RequestListener, limits: ConnectionLimits, onRefused: OnConnectionRefused) {
    super(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: deadlineCheckIntervalMs(limits),
        // A request without Host is refused by the application (create-app.ts), in the
        // service's error shape; Node's own refusal has an empty body.
        requireHostHeader: false,
      },
      handler,
    );
    this.#limits = limits;
    this.#onRefused = onRefused;
    this.keepAliveTimeout = limits.keepAliveTimeoutMs;
    this.setTimeout(limits.idleTimeoutMs);
    // Node's own maxRequestsPerSocket answers a request past it with an empty 503; instead the
    // last request allowed is answered with `Connection: close`, and the connection ends there.
    this.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const served = (this.#requestsOn.get(request.socket) ?? 0) + 1;
      this.#requestsOn.set(request.socket, served);
      if (served >= limits.maxRequestsPerConnection) response.setHeader('connection', 'close');
      this.#track(request, response);
    });
    this.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
      const body = JSON.stringify(errorBody(apiError(417, 'EXPECTATION_FAILED', 'the only expectation the service meets is `Expect: 100-continue`')));
      response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
    });
  }

  /** Stops accepting, closes every connection without a whole request at once, and calls back when the last in-flight answer is sent. */
  override close(callback?: (error?: Error) => void): this {
    this.#closing = true;
    this.closeIdleConnections();
    return super.close(callback);
  }

  /**
   * Closes every connection that has no whole request to answer (idle, kept alive, or with a
   * request still arriving); each one in flight is marked to close after its answer. Node calls
   * this from `close()`; so does Fastify.
   */
  override closeIdleConnections(): void {
    if (!this.#closing) {
      super.closeIdleConnections();
      return;
    }
    for (const socket of this.#connections) {
      const exchanges = [...(this.#exchanges.get(socket) ?? [])];
      if (!exchanges.some((exchange) => exchange.request.complete)) socket.destroy();
      else for (const { response } of exchanges) lastAnswer(response);
    }
  }

  #track(request: IncomingMessage, response: ServerResponse): void {
    const socket = request.socket;
    const exchange = { request, response };
    const exchanges = this.#exchanges.get(socket) ?? new Set<Exchange>();
    this.#exchanges.set(socket, exchanges.add(exchange));
    response.once('close', () => {
      exchanges.delete(exchange);
      if (exchanges.size > 0) return;
      this.#exchanges.delete(socket);
      // Its last answer sent, a connection in flight when the service began to close is closed.
      if (this.#closing) socket.destroySoon();
    });
    // A request that arrives while closing (on a connection that was in flight) is refused 503 SHUTTING_DOWN by the application.
    if (this.#closing) lastAnswer(response);
  }

  /**
   * Every accepted connection passes here before any listener sees it: a refused one never
   * reaches Node's HTTP parser (a `connection` listener would run beside the parser, not before it).
   */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'connection' && !this.#admit(args[0] as Socket)) return true;
    return super.emit(event as string, ...args);
  }

  #admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.#perAddress.get(address) ?? 0;
    const refusal = this.#open >= this.#limits.maxConnections ? TOO_MANY_CONNECTIONS(this.#limits.maxConnections) : fromAddress >= this.#limits.maxConnectionsPerAddress ? TOO_MANY_FROM_ADDRESS(this.#limits.maxConnectionsPerAddress) : undefined;
    if (refusal !== undefined) {
      refuseConnection(socket, refusal);
      this.#onRefused(refusal.code, address);
      return false;
    }
    this.#open += 1;
    this.#perAddress.set(address, fromAddress + 1);
    this.#connections.add(socket);
    socket.once('close', () => {
      this.#connections.delete(socket);
      this.#exchanges.delete(socket);
      this.#open -= 1;
      const left = this.#perAddress.get(address)! - 1;
      if (left === 0) this.#perAddress.delete(address);
      else this.#perAddress.set(address, left);
    });
    return true;
  }
}
