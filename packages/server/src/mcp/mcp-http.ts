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
import { apiError, type ApiError } from '../api-error.js';
import type { DecisionOperations } from './decide-tool.js';
import { callerOf } from '../http/authenticate.js';
import { sendError } from '../http/error-handling.js';
import { logWithheld } from '../http/public-error.js';
import { acceptStrictJson } from '../http/json-body.js';

export const MCP_PATH = '/v1/mcp';

/**
 * The MCP SDK, with zod and Ajv, takes about 0.5 s to import (measured: `adec serve` was ready
 * after ~2.2 s with it imported at start, ~1.6 s without): a service pays that at its first MCP
 * request, and one that is never asked for MCP never does.
 */
let sdkLoading: Promise<[typeof import('./decide-tool.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | undefined;
const loadSdk = () => (sdkLoading ??= Promise.all([import('./decide-tool.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

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

/**
 * One JSON-RPC exchange through the SDK's web-standard transport, whose answer comes back as a
 * `Response` for Fastify to send: a JSON-RPC answer (a tool's result or error included) as it
 * is, and a refusal of the HTTP request itself (406, 400 for a body that is not JSON-RPC, ...)
 * in the service's error shape like every other route's (the transport specification lets
 * its body be anything), without the SDK's `data`, which can quote a parser's error.
 */
async function exchange(request: FastifyRequest, reply: FastifyReply, service: DecisionOperations): Promise<FastifyReply> {
  const answer = await transportAnswer(request, service);
  if (answer.status >= 400) return sendError(reply, transportRefusal(answer.status, answer.text, request));
  answer.headers.forEach((value, name) => void reply.header(name, value));
  return reply.code(answer.status).send(answer.text === '' ? undefined : answer.text);
}

/** What the transport answered one request, its body read whole; the request's own server is closed once it has. */
async function transportAnswer(request: FastifyRequest, service: DecisionOperations): Promise<{ readonly status: number; readonly headers: Headers; readonly text: string }> {
  const caller = callerOf(request);
  const [{ decideToolServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk();
  const server = decideToolServer(service, async () => ({ ok: true, value: caller }), {
    withheld: (error) => logWithheld(request.log, error),
    failed: (error) => request.log.error({ err: error }, 'MCP tool call failed'),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // The body was read by the strict parser (json-body.ts): the transport must not read it again.
    const answer = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
    return { status: answer.status, headers: answer.headers, text: await answer.text() };
  } finally {
    void server.close();
  }
}

/** The request's method, URL and headers as the transport reads them (the body is passed parsed). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  // The transport reads only the path of the URL: the client's Host is not trusted to make a valid one.
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}

const TRANSPORT_CODES: Readonly<Record<number, string>> = { 400: 'INVALID_JSON_RPC', 406: 'NOT_ACCEPTABLE', 413: 'REQUEST_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** The transport's JSON-RPC error answer as the service's error: its status, a code for it, its message. */
function transportRefusal(status: number, text: string, request: FastifyRequest): ApiError {
  request.log.debug({ status, answer: text.slice(0, 1_000) }, 'MCP transport refused the request');
  if (status >= 500) return apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this request; the failure is logged');
  let message: unknown;
  try {
    message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
  } catch {
    message = undefined;
  }
  return apiError(status, TRANSPORT_CODES[status] ?? 'MALFORMED_REQUEST', typeof message === 'string' ? message.slice(0, 200) : 'the MCP request was refused');
}

async function methodNotAllowed(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  void reply.header('allow', 'POST');
  return sendError(reply, apiError(405, 'METHOD_NOT_ALLOWED', `${request.method} ${MCP_PATH} is not offered: MCP here is stateless, each POST one exchange, with no session to end and no stream of server-initiated messages`));
}
