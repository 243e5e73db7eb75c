/** The pieces the OpenAPI document's routes are written with (openapi.ts, and each operation's document). */

/** A refusal, in the service's one error shape. */
export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };

/** A JSON body of the document's schema `ref`. */
export const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

/** Where the stored decision is, and whether this is the answer to an earlier request with the same id. */
export const decisionHeaders = { Location: { schema: { type: 'string' } }, 'Idempotent-Replayed': { schema: { type: 'string' } } };
