/**
 * The body of `POST /v1/feedback`: an Execution Outcome Package v1 (docs/spec/contracts.md §3),
 * checked against that contract and nothing else (pipeline/contract-request.ts), and kept whole
 * for the audit record. The service reads a few of its fields: the outcome and decision ids, the
 * action executed, the world it was decided against, and the observed effects, which become the
 * user's short-term memory for the decision's scenario.
 */
import { ExecutionOutcomePackage, type Wire } from '@adec/contracts';
import type { ErrorDetail } from '../api-error.js';
import { contractRequest } from '../pipeline/contract-request.js';
import type { RequestSchema } from '../pipeline/request-schema.js';

export type OutcomePackage = Wire<typeof ExecutionOutcomePackage>;

export interface FeedbackRequest {
  readonly outcomeId: string;
  readonly decisionId: string;
  /** The action executed; when given it must be the decision's selected action. */
  readonly actionName: string | null;
  /** The world the decision was made against; when given it must be the selection's module hash. */
  readonly worldBefore: string | null;
  readonly observedEffects: readonly ObservedEffect[];
  /** The package as received, for the audit record. */
  readonly body: OutcomePackage;
}

export interface ObservedEffect {
  readonly signal: string;
  readonly value: unknown;
}

export const FEEDBACK_REQUEST: RequestSchema = contractRequest(ExecutionOutcomePackage, { noun: 'execution outcome package', article: 'an' });

/** The request in a body `FEEDBACK_REQUEST` accepted. */
export function feedbackRequestOf(fields: Readonly<Record<string, unknown>>): FeedbackRequest {
  const body = fields as OutcomePackage;
  return {
    outcomeId: body.outcome_id,
    decisionId: body.decision_id,
    actionName: body.action_name ?? null,
    worldBefore: body.world_version_id_before ?? null,
    observedEffects: (body.observed_effects ?? []).map(({ signal, value }) => ({ signal, value })),
    body,
  };
}

/** What the contract cannot say of a package: an execution that ended before it started. */
export function packageProblems(body: OutcomePackage): ErrorDetail[] {
  if (body.start_time === undefined || body.end_time === undefined) return [];
  return Date.parse(body.end_time) < Date.parse(body.start_time) ? [{ path: '$.end_time', message: `is before start_time (${body.start_time})` }] : [];
}
