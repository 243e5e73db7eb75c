/** The pieces the OpenAPI document's routes are written with (openapi.ts, and each operation's document). */

/** A refusal, in the service's one error shape. */
export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };

/** A JSON body of the document's schema `ref`. */
export const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

/** A decision's answer: the route's own shape `ref`, or its Decision Package when `?format=decision-package` asks for it. */
export const decisionOrPackage = (ref: string) => ({ 'application/json': { schema: { oneOf: [{ $ref: `#/components/schemas/${ref}` }, { $ref: '#/components/schemas/DecisionPackage' }] } } });

/** Where the stored decision is, and whether this is the answer to an earlier request with the same id. */
export const decisionHeaders = { Location: { schema: { type: 'string' } }, 'Idempotent-Replayed': { schema: { type: 'string' } } };

/**
 * The refusals every operation shares, written once (the pipeline makes them: run-operation.ts):
 * an operation's document spreads the ones its route can give.
 */
export const sharedRefusals = {
  unauthorized: { '401': errorResponse('Missing, malformed, expired or otherwise invalid token') },
  anotherOrg: { '403': errorResponse("The body names another org than the token's") },
  requestIdReused: { '409': errorResponse('The request_id was used for a different request; or NO_DECISION_PACKAGE: ?format=decision-package on a retry of a decision recorded before packages were stored') },
  notJson: { '415': errorResponse('The body is not application/json') },
  rateLimited: { '429': { ...errorResponse("Over the org's rate limit"), headers: retryAfter } },
  recordTampered: { '500': errorResponse('RECORD_TAMPERED: a stored record the request refers to (the decision a retry repeats, the selection an outcome reports on) does not verify against its audit chain; it is not used, and nothing is recorded') },
};
