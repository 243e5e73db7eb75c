/**
 * MCP over Streamable HTTP at `POST /v1/mcp`. It is registered inside the authenticated /v1
 * scope, so the same `authenticate` hook as `POST /v1/decide` verifies the bearer token before
 * the body is read, a refused token is the same 401, and the tool's caller is the token's.
 *
 * Stateless (no `Mcp-Session-Id`): each request gets its own McpServer and transport, so nothing
 * is shared between callers or kept between requests, and any replica can answer any request.
 * Answers are one JSON body (`enableJsonResponse`), not an SSE stream: a call has one answer.
 * GET (a stream for messages the server starts) and DELETE (ending a session) are 405, as the
 * transport specification provides for a server that has neither.
 */
import type { RequestLimits } from '@adec/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, errorBody } from '../api-error.js';
import type { DecisionOperations } from './decide-tool.js';
import { callerOf } from '../http/authenticate.js';
import { sendError } from '../http/error-handling.js';
import { acceptStrictJson } from '../http/json-body.js';

export const MCP_PATH = '/v1/mcp';

/**
 * The MCP SDK, with zod and Ajv, takes about 0.5 s to import (measured: `adec serve` was ready
 * after ~2.2 s with it imported at start, ~1.6 s without): a service pays that at its first MCP
 * request, and one that is never asked for MCP never does.
 */
let sdkLoading: Promise<[typeof import('./decide-tool.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const loadSdk = () => (sdkLoading ??= Promise.all([import('./decide-tool.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/** Registers the MCP routes on `v1`, the authenticated scope. */
export function mcpRoutes(v1: FastifyInstance, service: DecisionOperations, limits: RequestLimits): void {
  void v1.register(async (mcp) => {
    // The JSON-RPC envelope holds the context two levels deeper than /v1/decide's body does
    // (`params.arguments.context`): this scope's parser allows for it, so a context has the
    // same depth limit over both routes.
    mcp.removeContentTypeParser('application/json');
    acceptStrictJson(mcp, { ...limits, maxDepth: limits.maxDepth + 2 });
    mcp.post(MCP_PATH, (request, reply) => exchange(request, reply, service));
    mcp.get(MCP_PATH, methodNotAllowed);
    mcp.delete(MCP_PATH, methodNotAllowed);
  });
}

/** One JSON-RPC exchange: the transport writes the response, so Fastify is told not to. */
async function exchange(request: FastifyRequest, reply: FastifyReply, service: DecisionOperations): Promise<void> {
  const caller = callerOf(request);
  const [{ decideToolServer }, { StreamableHTTPServerTransport }] = await loadSdk();
  const server = decideToolServer(service, async () => ({ ok: true, value: caller }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => void server.close());
  try {
    await server.connect(transport);
    // The body was read by the strict parser (json-body.ts): the transport must not read it again.
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this request; the failure is logged'))));
    }
  }
}

async function methodNotAllowed(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  void reply.header('allow', 'POST');
  return sendError(reply, apiError(405, 'METHOD_NOT_ALLOWED', `${request.method} ${MCP_PATH} is not offered: MCP here is stateless, each POST one exchange, with no session to end and no stream of server-initiated messages`));
}
