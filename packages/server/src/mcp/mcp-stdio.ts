/**
 * The decide tool over stdio, for a local agent that starts `adec mcp` itself. There is one
 * caller, the holder of the token `adec mcp` was given: it is verified before the tool is
 * offered (a token that does not verify is a refusal to start, with its reason) and again before
 * every call, so a token that expires while the agent runs turns each later call into a
 * TOKEN_EXPIRED error result instead of a decision. Standard output carries only the protocol.
 */
import type { Readable, Writable } from 'node:stream';
import { apiError } from '../api-error.js';
import type { TokenVerifier } from '../auth/index.js';
import type { CallerOfCall, DecisionOperations } from './decide-tool.js';

/** The holder of `token`, verified by `verifier` each time it is asked; a refusal is a 401 with the token's code. */
export function tokenCaller(verifier: TokenVerifier, token: string): CallerOfCall {
  return async () => {
    const verified = await verifier.verify(`Bearer ${token}`);
    return verified.ok ? { ok: true, value: verified.caller } : { ok: false, error: apiError(401, verified.code, verified.message) };
  };
}

export interface StdioToolOptions {
  readonly service: DecisionOperations;
  readonly caller: CallerOfCall;
  /** Default: the process's standard input and output. */
  readonly input?: Readable;
  readonly output?: Writable;
}

export interface StdioTool {
  /** Settles once the input has ended or `close()` was called, and every decision in flight is recorded. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveDecideToolOverStdio(options: StdioToolOptions): Promise<StdioTool> {
  // Imported here, not with @adec/server: `adec serve` does not load the SDK at start (mcp-http.ts).
  const [{ decideToolServer }, { StdioServerTransport }] = await Promise.all([import('./decide-tool.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const input = options.input ?? process.stdin;
  // The decisions still being made when the agent goes away: the host's audit store must not be
  // closed under them (over HTTP, Fastify's close waits for their requests instead).
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(operation: Promise<T>): Promise<T> => {
    inFlight.add(operation);
    const settled = () => inFlight.delete(operation);
    void operation.then(settled, settled);
    return operation;
  };
  const tracked: DecisionOperations = {
    decide: (caller, body) => track(options.service.decide(caller, body)),
    select: (caller, body) => track(options.service.select(caller, body)),
  };
  const server = decideToolServer(tracked, options.caller);
  const transportClosed = new Promise<void>((resolve) => (server.server.onclose = resolve));
  // The SDK's stdio transport does not notice the end of its input: an agent ends the session by
  // closing it (the SDK's client does, then waits for the process to exit).
  input.once('end', () => void server.close());
  await server.connect(new StdioServerTransport(input, options.output ?? process.stdout));
  const closed = (async () => {
    await transportClosed;
    await Promise.allSettled(inFlight);
  })();
  return { closed, close: () => server.close() };
}
