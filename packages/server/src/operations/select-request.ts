/**
 * The body of `POST /v1/select` (docs/spec/selection.md §3.1, the service's part), and the MCP tool
 * `select`'s arguments: the routing key, the scenario, the user whose short-term memory
 * applies, and the selection request itself (signals, candidate actions, conditions, mode
 * override), which the engine checks against the scenario with JSON paths of its own. As for
 * decide, the org comes from the token.
 */
import { EXECUTION_MODES, type ExecutionMode } from '@adec/abi';
import type { CycleRequest } from '@adec/engine';
import { engineField, idField, orgField, routingSegment } from '../pipeline/request-fields.js';
import type { RequestSchema } from '../pipeline/request-schema.js';

export interface SelectRequest {
  readonly domain: string;
  readonly worldModelVersion: string;
  /** What the engine runs: scenario, signals, actions, conditions, mode override, request id. */
  readonly cycle: CycleRequest;
  readonly requestId: string | null;
  /** Whose short-term memory fills unsupplied signals; null: none. */
  readonly userId: string | null;
  readonly orgId: string | null;
}

export const SELECT_REQUEST: RequestSchema = {
  noun: 'select request',
  article: 'a',
  fields: [
    routingSegment('domain'),
    routingSegment('world_model_version'),
    routingSegment('scenario'),
    engineField('signals', false, { type: 'object', description: "The scenario's signals in wire form; an absent one comes from the user's memory, else its default" }),
    engineField('actions', true, {
      type: 'array',
      items: { type: 'object', required: ['action_id', 'type'], properties: { action_id: { type: 'string', minLength: 1 }, type: { type: 'string' } } },
      description: 'The candidates: an id, an action type of the scenario, and its fields',
    }),
    engineField('conditions', false, { type: 'array', items: { type: 'string' }, description: 'Platform conditions present now (offline_mode, …)' }),
    engineField('execution_mode_override', false, { type: ['string', 'null'], enum: [...EXECUTION_MODES, null] }),
    idField('request_id', { description: 'Makes retries idempotent (the decision id is the service’s own UUID)' }),
    idField('user_id', { description: "Whose short-term memory applies (feedback recorded for this user's earlier decisions)" }),
    idField('platform_id', { description: 'Who asks (the DecisionRequest’s platform_id); absent: the org' }),
    orgField(),
  ],
};

/** The request in a body `SELECT_REQUEST` accepted. */
export function selectRequestOf(fields: Readonly<Record<string, unknown>>): SelectRequest {
  const requestId = (fields['request_id'] as string | null | undefined) ?? null;
  const userId = (fields['user_id'] as string | null | undefined) ?? null;
  const cycle: CycleRequest = {
    scenario: fields['scenario'] as string,
    actions: fields['actions'] as CycleRequest['actions'],
    ...(fields['signals'] !== undefined && { signals: fields['signals'] as CycleRequest['signals'] }),
    ...(fields['conditions'] !== undefined && { conditions: fields['conditions'] as CycleRequest['conditions'] }),
    ...(fields['execution_mode_override'] !== undefined && { execution_mode_override: fields['execution_mode_override'] as ExecutionMode | null }),
    request_id: requestId,
    user_id: userId,
    ...(fields['platform_id'] !== undefined && { platform_id: fields['platform_id'] as string }),
  };
  return {
    domain: fields['domain'] as string,
    worldModelVersion: fields['world_model_version'] as string,
    cycle,
    requestId,
    userId,
    orgId: (fields['org_id'] as string | null | undefined) ?? null,
  };
}
