/**
 * The body of `POST /v1/decide` (docs/spec/adjudication.md §2.1), and the MCP tool `decide`'s arguments: the
 * routing key, the supplied context, and the caller's request id. The org is never read from
 * here as an authority: it comes from the caller's token, and a body that names an org may only
 * name the caller's own.
 */
import { idField, objectField, orgField, routingSegment } from '../pipeline/request-fields.js';
import type { RequestSchema } from '../pipeline/request-schema.js';

export interface DecideRequest {
  readonly domain: string;
  readonly action: string;
  readonly worldModelVersion: string;
  readonly context: Readonly<Record<string, unknown>>;
  /** The caller's id for this decision: retrying with it is idempotent. */
  readonly requestId: string | null;
  /** The org the caller believes it calls as (checked against the token's). */
  readonly orgId: string | null;
}

export const DECIDE_REQUEST: RequestSchema = {
  noun: 'decide request',
  article: 'a',
  fields: [
    routingSegment('domain'),
    routingSegment('action'),
    routingSegment('world_model_version'),
    objectField('context', "The supplied context, checked against the action's context schema"),
    idField('request_id', { description: 'Makes retries idempotent: the same id with the same request returns the stored decision' }),
    orgField(),
  ],
};

/** The request in a body `DECIDE_REQUEST` accepted. */
export function decideRequestOf(fields: Readonly<Record<string, unknown>>): DecideRequest {
  return {
    domain: fields['domain'] as string,
    action: fields['action'] as string,
    worldModelVersion: fields['world_model_version'] as string,
    context: fields['context'] as Record<string, unknown>,
    requestId: (fields['request_id'] as string | null | undefined) ?? null,
    orgId: (fields['org_id'] as string | null | undefined) ?? null,
  };
}
