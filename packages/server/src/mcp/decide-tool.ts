/**
 * The MCP tools `decide` and `select`: each is its operation (operations/decide.ts, select.ts),
 * served as its HTTP route is (pipeline/served-operation.ts), so rate limits, the in-flight
 * bound, idempotency, audit-before-answer and every refusal apply to an agent's call exactly as
 * to an HTTP request. The caller always comes from a verified token (mcp-http.ts,
 * mcp-stdio.ts), never from the tool's arguments.
 *
 * The tool is served by `tools/list` and `tools/call` handlers on the McpServer's underlying
 * `server` (the SDK's way to set custom request handlers), not by `registerTool`: registerTool
 * checks the arguments against a zod schema before the handler runs, which would answer bad
 * arguments in zod's words instead of the service's codes and JSON paths, drop fields it does not
 * know (so the request audited would not be the one sent), and be a second reader of the decide
 * request to keep in step with decide-request.ts. Instead an agent is shown the operation's
 * request schema (the OpenAPI document's too) and the service's one reader checks.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { apiError, type ApiError } from '../api-error.js';
import { publicError } from '../http/public-error.js';
import type { Caller } from '../auth/index.js';
import type { DecisionService, ServiceResult } from '../decision-service.js';
import { OPENAPI_DOCUMENT } from '../openapi.js';
import { DECIDE } from '../operations/decide.js';
import { SELECT } from '../operations/select.js';
import type { Answer } from '../pipeline/operation.js';
import { jsonSchemaOf } from '../pipeline/request-schema.js';
import { served, type ServedOperation } from '../pipeline/served-operation.js';
import type { SelectionService } from '../selection-service.js';
import { SELECT_TOOL } from './select-tool.js';

/** Who makes one tool call: fixed for an HTTP request, the token verified again for each stdio call. */
export type CallerOfCall = () => Promise<ServiceResult<Caller>>;

/** What the tools need of the service: the decide and select operations. */
export interface DecisionOperations {
  readonly decide: DecisionService['decide'];
  readonly select: SelectionService['select'];
}

const DESCRIPTION = `Ask adec whether you may perform an action, before you perform it. adec decides with your organisation's signed, approved decision module for \`domain\`@\`world_model_version\` and records the decision in its audit trail before answering. Your organisation comes from your credentials, not from these arguments.

Arguments: \`domain\` and \`action\` name what you want to do (e.g. \`hr.benefits\`, \`add_dependent\`); \`world_model_version\` is the module version; \`context\` is an object with the facts of the case, checked against the action's context schema (facts that are missing or invalid give YELLOW, with what is missing); \`request_id\` (optional) makes a retry safe: the same id with the same arguments returns the decision already made.

The answer is the decision: \`status\`, \`work_frame\` (what to do now) and \`decision_metadata\` (why: the rules that matched, their traces, and \`request_id\`, the id of the recorded decision). By status:
- GREEN: do it. Perform the action.
- GREEN-SKIP: do not perform it, and that is fine: it is not needed (already done, or nothing would change). Nothing to fix.
- YELLOW: do not do it yet. Follow the work_frame: gather its \`missing_evidence\`, produce its \`required_output\`, take its \`next_action\` (often a review), then ask again.
- RED: stop. Do not do it, and do not rephrase the request to get another answer; escalate to the work_frame's \`next_human_owner\`.

An error result (\`CODE: message\`, then the JSON path of each problem) means nothing was decided: fix the arguments (INVALID_REQUEST, REQUEST_TOO_LARGE: a value over a request limit, MODULE_NOT_FOUND, UNKNOWN_ACTION), or retry after the seconds given (RATE_LIMITED, OVERLOADED); a TOKEN_* code means your credentials were refused.`;

const { Decision: DecisionSchema } = OPENAPI_DOCUMENT.components.schemas;

export const DECIDE_TOOL: Tool = {
  name: 'decide',
  title: 'Decide whether to perform an action',
  description: DESCRIPTION,
  inputSchema: jsonSchemaOf(DECIDE.schema),
  outputSchema: { ...DecisionSchema, required: [...DecisionSchema.required] },
  // Each call without a request_id is a new audited decision: not read-only, not idempotent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/**
 * The SDK server's JSON Schema validator (it checks only elicitation answers, which this server
 * never asks for), made once: by default each McpServer builds its own Ajv, about 0.45 ms, and
 * over HTTP every request makes an McpServer (measured: 0.45 ms → 0.01 ms per server).
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** Where a tool call's detail goes that the agent is not shown: a refusal's host text, a thrown error (a bug). */
export interface ToolCallLog {
  withheld(error: ApiError): void;
  failed(error: unknown): void;
}

const UNLOGGED: ToolCallLog = { withheld: () => {}, failed: () => {} };

/** An MCP server (name `adec`, the API's version) that offers the decide and select tools to `callerOfCall`. */
export function decideToolServer(service: DecisionOperations, callerOfCall: CallerOfCall, log: ToolCallLog = UNLOGGED): McpServer {
  const tools: readonly ServedTool[] = [
    { tool: DECIDE_TOOL, served: served(DECIDE, (caller, body) => service.decide(caller, body)) },
    { tool: SELECT_TOOL, served: served(SELECT, (caller, body) => service.select(caller, body)) },
  ];
  const refusal = (error: ApiError): CallToolResult => {
    const shown = publicError(error);
    if (shown !== error) log.withheld(error);
    return refusalResult(shown);
  };
  const mcp = new McpServer({ name: 'adec', version: OPENAPI_DOCUMENT.info.version }, { capabilities: { tools: {} }, jsonSchemaValidator: SCHEMA_VALIDATOR });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(({ tool }) => tool) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const called = tools.find(({ tool }) => tool.name === name);
    // An unknown tool is a protocol error (JSON-RPC -32602), not a result the agent should read.
    if (called === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown tool \`${name}\`: this server has the tools ${tools.map(({ tool }) => `\`${tool.name}\``).join(' and ')}`);
    try {
      const caller = await callerOfCall();
      if (!caller.ok) return refusal(caller.error);
      const answer = await called.served.answer(caller.value, request.params.arguments);
      return answer.ok ? toolResult(answer) : refusal(answer.error);
    } catch (error) {
      // The SDK would answer a thrown error with its message: the log gets it, the agent does not.
      log.failed(error);
      return refusalResult(apiError(500, 'INTERNAL_ERROR', 'the service failed to answer this call; the failure is logged'));
    }
  });
  return mcp;
}

interface ServedTool {
  readonly tool: Tool;
  readonly served: ServedOperation;
}

/** An answer: the object itself as structured content, and its JSON as text for clients that read only text. */
function toolResult(answer: Extract<Answer, { ok: true }>): CallToolResult {
  // A shallow copy, for its type: TypeScript does not let an interface stand for a record.
  return { content: [{ type: 'text', text: answer.json }], structuredContent: { ...answer.body } };
}

/** A refusal as a tool error: the code and message, each problem's JSON path, when to retry; never a stack. */
function refusalResult(error: ApiError): CallToolResult {
  const lines = [`${error.code}: ${error.message}`, ...error.details.map((detail) => `${detail.path}: ${detail.message}`)];
  if (error.retryAfterSeconds !== undefined) lines.push(`retry after ${error.retryAfterSeconds} s`);
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}
