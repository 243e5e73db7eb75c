/**
 * The OpenAPI 3.1 document served at `/openapi.json`. Each operation's path and request schema
 * come from its definition (operations/), the schema being the one its validator applies; the
 * other routes are written here, the words a decision shares with modules (statuses, tiers, the
 * work_frame's fields) taken from @adec/abi. A test checks that its paths are exactly the routes the
 * application registers, and that real responses match its schemas.
 */

import { RULE_OUTCOMES, SEVERITY_TIERS, WORK_FRAME_FIELDS, type WorkFrameFieldKind } from '@adec/abi';
import { ISOLATION_MODES, ISOLATION_REASONS } from '@adec/runtime';
import { CONTRACT_SCHEMAS, plainSchema } from '@adec/contracts';
import { feedbackReceipt, storedSelection } from './openapi-selection.js';
import { errorResponse, json, sharedRefusals } from './openapi-responses.js';
import { DECIDE } from './operations/decide.js';
import { OPERATIONS } from './operations/registry.js';
import { SELECT } from './operations/select.js';
import { jsonSchemaOf } from './pipeline/request-schema.js';
import type { DocumentedOperation } from './pipeline/served-operation.js';

const error = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', examples: ['INVALID_REQUEST'] },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['path', 'message'], additionalProperties: false, properties: { path: { type: 'string', examples: ['$.context.age'] }, message: { type: 'string' } } },
        },
      },
    },
  },
} as const;


const status = { type: 'string', enum: RULE_OUTCOMES } as const;

/** How the document writes each kind of work_frame field (@adec/abi's WORK_FRAME_FIELDS). */
const WORK_FRAME_FIELD_SCHEMAS = {
  text: { type: 'string' },
  texts: { type: 'array', items: { type: 'string' } },
  text_or_null: { type: ['string', 'null'] },
} as const satisfies { readonly [K in WorkFrameFieldKind]: object };

/** A decision's work_frame: every field, required, as a decision writes them. */
const workFrame = {
  type: 'object',
  required: Object.keys(WORK_FRAME_FIELDS),
  properties: Object.fromEntries(Object.entries(WORK_FRAME_FIELDS).map(([field, kind]) => [field, WORK_FRAME_FIELD_SCHEMAS[kind]])),
} as const;

const decision = {
  type: 'object',
  required: ['status', 'work_frame', 'decision_metadata'],
  additionalProperties: false,
  properties: {
    status,
    work_frame: workFrame,
    decision_metadata: {
      type: 'object',
      required: ['matched_rules', 'matched_rule_outcomes', 'suppression_chain', 'aggregation_outcome', 'errored_predicates', 'request_id', 'request_time', 'module'],
      properties: {
        matched_rules: { type: 'array', items: { type: 'string' } },
        matched_rule_outcomes: { type: 'array', items: { type: 'object', required: ['rule_id', 'outcome', 'severity'], properties: { rule_id: { type: 'string' }, outcome: status, severity: { type: 'string', enum: SEVERITY_TIERS } } } },
        suppression_chain: { type: 'array' },
        aggregation_outcome: { type: 'object', required: ['mode', 'basis'], properties: { mode: { type: 'string' }, basis: { type: 'string' } } },
        predicate_traces: { type: 'array', description: 'One per rule; always stored, and left out of the answer of `POST /v1/decide?traces=false`' },
        errored_predicates: { type: 'array', items: { type: 'object', required: ['rule_id', 'kind', 'message'], properties: { rule_id: { type: 'string' }, kind: { type: 'string' }, message: { type: 'string' } } } },
        request_id: { type: 'string' },
        request_time: { type: 'string', format: 'date-time' },
        module: {
          type: 'object',
          required: ['org', 'domain', 'world', 'version', 'action', 'module_hash', 'isolation'],
          properties: {
            org: { type: 'string' },
            domain: { type: 'string' },
            world: { type: 'string' },
            version: { type: 'string' },
            action: { type: 'string' },
            module_hash: { type: 'string' },
            isolation: {
              type: 'object',
              description: 'Where the predicates ran and why: in this process only for a module approved after a byte-identical rebuild whose code the host verified (REBUILT_AND_VERIFIED), or when the host is configured so (CONFIGURED); otherwise in a sandbox process. Not compared by a replay.',
              required: ['mode', 'reason'],
              properties: {
                mode: { type: 'string', enum: ISOLATION_MODES },
                reason: { type: 'string', enum: ISOLATION_REASONS },
              },
            },
          },
        },
      },
    },
  },
} as const;

const storedDecision = {
  type: 'object',
  required: ['decision_id', 'kind', 'recorded_at', 'chain', 'request', 'caller', 'module_hash', 'inputs_hash', 'response'],
  additionalProperties: false,
  properties: {
    decision_id: { type: 'string' },
    kind: { type: 'string', enum: ['adjudication'] },
    recorded_at: { type: 'string', format: 'date-time' },
    chain: { type: 'object', required: ['seq', 'hash', 'prev_hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' }, prev_hash: { type: 'string' } } },
    request: { type: 'object' },
    caller: {
      type: 'object',
      required: ['subject', 'token_id', 'delegation'],
      properties: { subject: { type: 'string' }, token_id: { type: ['string', 'null'] }, delegation: { type: 'array', items: { type: 'object', required: ['subject'], properties: { subject: { type: 'string' }, issuer: { type: ['string', 'null'] }, client_id: { type: ['string', 'null'] } } } } },
    },
    module_hash: { type: 'string' },
    inputs_hash: { type: 'string' },
    response: { $ref: '#/components/schemas/Decision' },
  },
} as const;

const replayReport = {
  type: 'object',
  required: ['decision_id', 'identical', 'module_hash', 'differences', 'taken_as_recorded'],
  additionalProperties: false,
  properties: {
    decision_id: { type: 'string' },
    identical: { type: 'boolean' },
    module_hash: { type: 'string' },
    differences: { type: 'array', items: { type: 'object', required: ['path'], properties: { path: { type: 'string' }, recorded: {}, replayed: {} } } },
    taken_as_recorded: {
      description: 'What the machine did to the recording (a time limit, a heap, a sandbox process that died, a decision not evaluated): replayed as recorded, since a replay re-runs the logic, not the machine.',
      type: 'array',
      items: {
        type: 'object',
        required: ['part', 'name', 'kind'],
        additionalProperties: false,
        properties: { part: { enum: ['decision', 'derivation', 'rule'] }, name: { type: ['string', 'null'] }, kind: { type: 'string' } },
      },
    },
  },
} as const;

const decisionId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } } as const;

const contractComponents = Object.fromEntries(Object.entries(CONTRACT_SCHEMAS).map(([name, schema]) => [name, plainSchema(schema)]));

/** Each operation's entry in `paths`: its document, and its body the operation's request schema. */
const operationPaths = Object.fromEntries(OPERATIONS.map((operation: DocumentedOperation) => [operation.path, { post: { ...operation.document, requestBody: { required: true, content: json(operation.schemaName) } } }]));

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'adec decision service', version: '1.0.0', description:
      'Adjudications against signed, approved decision modules, each recorded in a hash-chained audit store before it is answered. Every route may also refuse at the HTTP edge, always with an Error body and Connection: close: 400 MALFORMED_URL (a path that is not percent-encoded UTF-8) or MALFORMED_REQUEST (not well-formed HTTP/1.1, or no Host), 408 REQUEST_TIMEOUT (headers, body or whole request past its deadline), 417 EXPECTATION_FAILED, 429 TOO_MANY_CONNECTIONS_FROM_ADDRESS and 503 TOO_MANY_CONNECTIONS (with Retry-After; the connection is refused before its request is read), 431 HEADERS_TOO_LARGE, 503 SHUTTING_DOWN.',
  },
  security: [{ bearer: [] }],
  paths: {
    ...operationPaths,
    '/v1/decisions/{id}': {
      get: {
        operationId: 'getDecision',
        summary: "One of the org's stored decisions: an adjudication or a selection; with ?format=decision-package, its Decision Package v1",
        parameters: [decisionId, { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['decision-package'] }, description: 'decision-package: the Decision Package stored with the decision (docs/spec/contracts.md §2) instead of the record' }],
        responses: {
          '200': {
            description: 'The stored decision, or its Decision Package',
            content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/StoredDecision' }, { $ref: '#/components/schemas/StoredSelection' }, { $ref: '#/components/schemas/DecisionPackage' }] } } },
          },
          '400': errorResponse('INVALID_QUERY: a query parameter other than format, or a format other than decision-package'),
          '401': errorResponse('Invalid token'),
          '409': errorResponse('NO_DECISION_PACKAGE: a selection that chose no action, or a decision recorded before packages were stored'),
          '404': errorResponse('No such decision for this org'),
          '414': errorResponse('URI_TOO_LONG: the id is longer than any decision id (128 characters)'),
          '500': errorResponse('RECORD_TAMPERED: the stored record does not verify against its audit chain, and is not served'),
        },
      },
    },
    '/v1/decisions/{id}/replay': {
      post: {
        operationId: 'replayDecision',
        summary: 'Re-execute a stored decision against its module and compare',
        parameters: [decisionId],
        responses: {
          '200': { description: 'Identical, or the differences', content: json('ReplayReport') },
          '401': errorResponse('Invalid token'),
          '404': errorResponse('No such decision for this org'),
          '409': errorResponse('MODULE_CHANGED: the module version is now served by another module hash; TRACE_VERSION_UNSUPPORTED: a selection recorded with an older trace shape (CHANGELOG.md)'),
          '414': errorResponse('URI_TOO_LONG: the id is longer than any decision id (128 characters)'),
          '500': errorResponse('RECORD_TAMPERED: the stored record does not verify against its audit chain, and is not replayed'),
        },
      },
    },
    '/v1/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'MCP over Streamable HTTP, stateless: the tool `decide`, the same operation as POST /v1/decide (the caller is the token\'s)',
        description: 'One JSON-RPC message of the Model Context Protocol per request (initialize, tools/list, tools/call …), answered with one JSON body; no Mcp-Session-Id. The request must accept application/json and text/event-stream.',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message' } } } },
        responses: {
          '200': { description: 'The JSON-RPC response; a refused decision is a tool result with isError and `CODE: message`', content: { 'application/json': { schema: { type: 'object' } } } },
          '202': { description: 'A notification, accepted' },
          '400': errorResponse('Malformed JSON, or INVALID_JSON_RPC: not a JSON-RPC message'),
          ...sharedRefusals.unauthorized,
          '406': errorResponse('NOT_ACCEPTABLE: the Accept header does not allow application/json and text/event-stream'),
          '413': errorResponse('The body is too large'),
          ...sharedRefusals.notJson,
        },
      },
      get: { operationId: 'mcpStream', summary: 'Not offered: a stateless server starts no messages of its own', responses: { '401': errorResponse('Invalid token'), '405': errorResponse('Method not allowed') } },
      delete: { operationId: 'mcpEndSession', summary: 'Not offered: there are no sessions to end', responses: { '401': errorResponse('Invalid token'), '405': errorResponse('Method not allowed') } },
    },
    '/health/live': { get: { operationId: 'live', security: [], summary: 'The process answers', responses: { '200': { description: 'Live' } } } },
    '/health/ready': { get: { operationId: 'ready', security: [], summary: 'Ready to decide', responses: { '200': { description: 'Ready' }, '503': errorResponse('Starting or shutting down') } } },
    '/metrics': { get: { operationId: 'metrics', security: [], summary: 'Prometheus metrics', responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
    '/openapi.json': { get: { operationId: 'openapi', security: [], summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } } },
    '/v1/schemas/{name}': {
      get: {
        operationId: 'contractSchema',
        security: [],
        summary: 'The JSON Schema (draft 2020-12) of one contract of docs/spec/selection.md: the same schema as the component of that name',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: Object.keys(CONTRACT_SCHEMAS) } }],
        responses: { '200': { description: 'The schema', content: { 'application/schema+json': { schema: { type: 'object' } } } }, '404': errorResponse('SCHEMA_NOT_FOUND: no contract of that name') },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: {
      Error: error,
      Decision: decision,
      DecideRequest: jsonSchemaOf(DECIDE.schema),
      StoredDecision: storedDecision,
      ReplayReport: replayReport,
      SelectRequest: jsonSchemaOf(SELECT.schema),
      StoredSelection: storedSelection,
      FeedbackReceipt: feedbackReceipt,
      // The contracts of docs/spec/selection.md and docs/spec/contracts.md (the body of POST /v1/feedback
      // is ExecutionOutcomePackage), each also served on its own at /v1/schemas/{name}.
      ...contractComponents,
    },
  },
} as const;
