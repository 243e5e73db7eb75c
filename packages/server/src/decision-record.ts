/**
 * What the service stores for an adjudication (ARCHITECTURE.md "Audit store": decision id,
 * routing key, module hash, inputs and their hash, the full response with its trace,
 * timestamps, caller and delegation chain), and how it reads a stored record back for a
 * retrieval, an idempotent retry or a replay.
 */
import type { AppendedEntry, AuditRecord } from '@adec/audit';
import type { Decision, EntryValues } from '@adec/runtime';
import type { Caller } from './auth/index.js';
import { digestOf } from './canonical-json.js';
import type { DecideRequest } from './operations/decide-request.js';

/** The payload of an `adjudication` record. */
export interface AdjudicationPayload {
  readonly request: {
    readonly domain: string;
    readonly action: string;
    readonly world_model_version: string;
    readonly context: Readonly<Record<string, unknown>>;
    readonly request_id: string | null;
  };
  /** The system-generated values the decision was made with: a replay uses the same. */
  readonly entry: { readonly request_id: string; readonly request_time: number; readonly authenticated_caller: string };
  readonly caller: CallerRecord;
  readonly module_hash: string;
  readonly inputs_hash: string;
  readonly response: Decision;
}

/** Who asked, as every record keeps it. */
export interface CallerRecord {
  readonly subject: string;
  readonly token_id: string | null;
  /** RFC 8693 `act` chain, current actor first. */
  readonly delegation: readonly { readonly subject: string; readonly issuer: string | null; readonly client_id: string | null }[];
}

export function callerRecord(caller: Caller): CallerRecord {
  return { subject: caller.subject, token_id: caller.tokenId, delegation: caller.delegation.map((actor) => ({ subject: actor.subject, issuer: actor.issuer, client_id: actor.clientId })) };
}

/** What makes two decide requests "the same request" for an idempotent retry. */
export function requestHashOf(tenant: string, request: DecideRequest): string {
  return digestOf({ org: tenant, domain: request.domain, action: request.action, world_model_version: request.worldModelVersion, context: request.context });
}

/** The record of `decision`, whose JSON text the answer already holds (`decisionJson`): the record splices it in. */
export function adjudicationEntry(caller: Caller, request: DecideRequest, entry: Required<EntryValues>, decision: Decision, decisionJson: string): AppendedEntry {
  const context: Omit<AdjudicationPayload, 'response'> = {
    request: recordedRequest(request),
    entry: { request_id: entry.requestId, request_time: entry.requestTime, authenticated_caller: entry.authenticatedCaller ?? caller.subject },
    caller: callerRecord(caller),
    module_hash: decision.decision_metadata.module.module_hash,
    inputs_hash: digestOf(request.context),
  };
  const payload: AdjudicationPayload = { ...context, response: decision };
  return {
    tenant: caller.tenant,
    decisionId: entry.requestId,
    kind: 'adjudication',
    requestHash: requestHashOf(caller.tenant, request),
    payload: payload as unknown as Record<string, unknown>,
    payloadJson: `${JSON.stringify(context).slice(0, -1)},"response":${decisionJson}}`,
  };
}

/** The request as an adjudication's record keeps it. */
export function recordedRequest(request: DecideRequest): AdjudicationPayload['request'] {
  return { domain: request.domain, action: request.action, world_model_version: request.worldModelVersion, context: request.context, request_id: request.requestId };
}

/** What `GET /v1/decisions/{id}` shows of any stored decision: its id, kind, place in the chain, request, caller and module. */
export function storedRecordView(record: AuditRecord, payload: { readonly request: unknown; readonly caller: CallerRecord; readonly module_hash: string }) {
  return {
    decision_id: record.decisionId,
    kind: record.kind,
    recorded_at: record.recordedAt,
    chain: { seq: record.seq, hash: record.hash, prev_hash: record.prevHash },
    request: payload.request,
    caller: payload.caller,
    module_hash: payload.module_hash,
  };
}

/** A stored adjudication as `GET /v1/decisions/{id}` shows it. */
export function storedDecisionView(record: AuditRecord) {
  const payload = record.payload as unknown as AdjudicationPayload;
  return { ...storedRecordView(record, payload), inputs_hash: payload.inputs_hash, response: payload.response };
}
