/**
 * @adec/server — the decision service (ARCHITECTURE.md "HTTP service"): `POST /v1/decide` and
 * its retrieval and replay routes, the same operation as the MCP tool `decide` (over HTTP at
 * `POST /v1/mcp`, over stdio for `adec mcp`), JWT authentication, per-tenant rate limits and a
 * bounded in-flight queue, Prometheus metrics and an OpenAPI document; every decision committed
 * to the hash-chained audit store before it is answered.
 */
export { startDecisionHost, DEFAULT_DECISION_TIMEOUT_MS, DEFAULT_MAX_IN_FLIGHT, DEFAULT_RATE_LIMIT, type DecisionHost, type DecisionHostConfig, type StartedHost } from './decision-host.js';
export { DecisionService, type DecideOutcome, type DecisionServiceOptions, type ReplayReport, type ServiceObserver, type ServiceResult } from './decision-service.js';
export { SelectionService, type SelectOutcome, type SelectionObserver, type SelectionServiceOptions } from './selection-service.js';
export { Admission } from './admission.js';
export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits.js';
export type { ApiError, ErrorDetail } from './api-error.js';
export type { RateLimit } from './tenant-rate-limits.js';
export { OPENAPI_DOCUMENT } from './openapi.js';
export { serveDecideToolOverStdio, tokenCaller, type StdioTool, type StdioToolOptions } from './mcp/mcp-stdio.js';
export * from './auth/index.js';
export { superviseWorkers, WORKER_SLOT_VARIABLE, type Supervisor, type SupervisorOptions, type SupervisorStart, type WorkersEnded } from './workers/supervisor.js';
export { workerLink, type WorkerLink } from './workers/worker-link.js';
export { supervisorLogger } from './workers/supervisor-log.js';
