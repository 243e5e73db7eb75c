/**
 * The Fastify application of the decision service: strict JSON bodies, one error shape for
 * every answer that is not a success (Fastify's and Node's own refusals included), the
 * connection limits, token authentication on every /v1 route, the route of each operation
 * (decide, select, feedback), the stored-decision, MCP and operations routes.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { RequestLimits } from '@adec/runtime';
import type { Caller, TokenVerifier } from '../auth/index.js';
import type { DecisionService } from '../decision-service.js';
import type { FeedbackService } from '../feedback-service.js';
import type { SelectionService } from '../selection-service.js';
import { mcpRoutes } from '../mcp/mcp-http.js';
import { DECIDE } from '../operations/decide.js';
import { FEEDBACK } from '../operations/feedback.js';
import { SELECT } from '../operations/select.js';
import { served } from '../pipeline/served-operation.js';
import type { ServiceMetrics } from '../service-metrics.js';
import type { MetricsText } from './operations-routes.js';
import { authenticate } from './authenticate.js';
import { enforceBodyDeadline } from './body-deadline.js';
import { answerClientError } from './client-errors.js';
import type { ConnectionLimits } from './connection-limits.js';
import { decisionRoutes } from './decision-routes.js';
import { answerFrameworkError, installErrorHandling } from './error-handling.js';
import { acceptStrictJson } from './json-body.js';
import { operationsRoutes } from './operations-routes.js';
import { operationRoutes } from './operation-routes.js';
import { refuseUnservableRequests } from './request-guards.js';
import { serviceServer } from './service-server.js';

export interface AppOptions {
  readonly service: DecisionService;
  readonly selections: SelectionService;
  readonly feedback: FeedbackService;
  readonly verifier: TokenVerifier;
  readonly metrics: ServiceMetrics;
  /** What /metrics answers: this process's metrics, or with worker processes every worker's added up. */
  readonly metricsText: MetricsText;
  readonly requestLimits: RequestLimits;
  readonly connectionLimits: ConnectionLimits;
  readonly isReady: () => boolean;
  readonly logger?: FastifyServerOptions['logger'];
}

/** The longest decision id (pipeline/request-fields.ts REQUEST_ID): a longer path segment is answered 414. */
const MAX_ID_LENGTH = 128;

export function createApp(options: AppOptions): FastifyInstance {
  const limits = options.connectionLimits;
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    // Two log lines per decision would cost more than the decision: requests are counted in
    // /metrics; failures are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // The strict parser enforces the real limit with a precise message; this only stops reading.
    bodyLimit: options.requestLimits.maxRequestBytes,
    // Request ids in logs are the service's own, never taken from a header a client controls.
    requestIdHeader: false,
    // request-guards.ts answers during shutdown, in the service's error shape.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_ID_LENGTH },
    serverFactory: (handler) => serviceServer(handler, limits, (code, address) => {
      options.metrics.refused(code);
      app.log.debug({ code, remoteAddress: address }, 'connection refused');
    }),
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError(limits, () => app.log, (code) => options.metrics.refused(code)),
  });
  installErrorHandling(app, options.requestLimits.maxRequestBytes);
  refuseUnservableRequests(app);
  enforceBodyDeadline(app, limits.bodyTimeoutMs, (code) => options.metrics.refused(code));
  app.removeAllContentTypeParsers();
  acceptStrictJson(app, options.requestLimits);
  operationsRoutes(app, options.metricsText, options.isReady);
  void app.register(async (v1) => {
    v1.addHook('onRequest', authenticate(options.verifier, (code) => options.metrics.refused(code)));
    const decide = (caller: Caller, body: unknown) => options.service.decide(caller, body);
    const select = (caller: Caller, body: unknown) => options.selections.select(caller, body);
    // Every operation of operations/registry.ts, each with the service that runs it.
    operationRoutes(v1, [served(DECIDE, decide), served(SELECT, select), served(FEEDBACK, (caller, body) => options.feedback.record(caller, body))]);
    decisionRoutes(v1, options.service);
    mcpRoutes(v1, { decide, select }, options.requestLimits);
  });
  return app;
}
