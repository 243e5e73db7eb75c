/**
 * `POST /v1/select`: seed 000's DecisionResponse, or the stored outcome's error with its
 * Location. `POST /v1/feedback`: an execution outcome recorded (201), its effects remembered.
 */
import type { FastifyInstance } from 'fastify';
import { apiError } from '../api-error.js';
import type { FeedbackService } from '../feedback-service.js';
import type { SelectionService } from '../selection-service.js';
import { callerOf } from './authenticate.js';
import { sendError } from './error-handling.js';

export function selectionRoutes(app: FastifyInstance, service: SelectionService, feedback: FeedbackService): void {
  app.post('/v1/feedback', async (request, reply) => {
    const result = await feedback.record(callerOf(request), request.body);
    if (!result.ok) return sendError(reply, result.error);
    return reply.code(result.value.idempotent_replay ? 200 : 201).send(result.value);
  });

  app.post('/v1/select', async (request, reply) => {
    const result = await service.select(callerOf(request), request.body);
    if (!result.ok) return sendError(reply, result.error);
    const { outcome, response, decisionId, idempotentReplay } = result.value;
    void reply.header('location', `/v1/decisions/${decisionId}`);
    if (idempotentReplay) void reply.header('idempotent-replayed', 'true');
    switch (outcome) {
      case 'decided':
        return reply.code(200).send(response);
      case 'no_eligible_actions':
        return sendError(reply, apiError(422, 'NO_ELIGIBLE_ACTIONS', `no candidate passed every guardrail; the trace is stored as decision ${decisionId}`));
      case 'scoring_failed':
        return sendError(reply, apiError(500, 'SCORING_FAILED', `an objective or tie-break of the scenario failed, so no ranking can be trusted; the trace is stored as decision ${decisionId}`));
    }
  });
}
