/**
 * What the service stores for a selection (docs/spec/selection.md §3.9: the full trace, committed before
 * the response): the request as routed, the caller and delegation chain, and the engine's
 * content-addressed trace, which holds every stage's artifact and the response itself. The
 * record is kept whatever the outcome, so a 422 or a 500 can be looked up and replayed too.
 */
import type { AuditEntry, AuditRecord } from '@adec/audit';
import type { AddressedTrace, CycleOutcome } from '@adec/engine';
import type { Caller } from './auth/index.js';
import { digestOf } from './canonical-json.js';
import type { DecisionPackage } from './decision-package.js';
import { callerRecord, storedRecordView, type CallerRecord } from './decision-record.js';
import type { SelectRequest } from './operations/select-request.js';

export interface SelectionPayload {
  readonly request: {
    readonly domain: string;
    readonly world_model_version: string;
    readonly user_id: string | null;
    readonly request_id: string | null;
  };
  readonly caller: CallerRecord;
  readonly module_hash: string;
  readonly outcome: CycleOutcome;
  readonly trace: AddressedTrace;
  /** The Decision Package v1 (decision-package.ts): null when nothing was chosen; absent from records made before it. */
  readonly decision_package?: DecisionPackage | null;
}

/** What makes two select requests "the same request" for an idempotent retry. */
export function selectionRequestHash(tenant: string, request: SelectRequest): string {
  return digestOf({ org: tenant, domain: request.domain, world_model_version: request.worldModelVersion, user_id: request.userId, cycle: request.cycle });
}

/** The record of a selection, with the package the answer may carry too (`selectionPackage`). */
export function selectionEntry(caller: Caller, request: SelectRequest, outcome: CycleOutcome, trace: AddressedTrace, decisionPackage: DecisionPackage | null): AuditEntry {
  const payload: SelectionPayload = {
    request: { domain: request.domain, world_model_version: request.worldModelVersion, user_id: request.userId, request_id: request.requestId },
    caller: callerRecord(caller),
    module_hash: trace.scenario_hash,
    outcome,
    trace,
    decision_package: decisionPackage,
  };
  return { tenant: caller.tenant, decisionId: trace.decision_id, kind: 'selection', requestHash: selectionRequestHash(caller.tenant, request), payload: payload as unknown as Record<string, unknown> };
}

/** A stored selection as `GET /v1/decisions/{id}` shows it. */
export function storedSelectionView(record: AuditRecord) {
  const payload = record.payload as unknown as SelectionPayload;
  return {
    ...storedRecordView(record, payload),
    outcome: payload.outcome,
    response: payload.trace.final_decision,
    trace: payload.trace,
  };
}
