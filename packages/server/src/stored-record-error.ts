/**
 * A stored record the service could not read, as it answers it. The store checks a record
 * against its chain before handing it out (packages/audit/README.md, "A chain ends at its
 * head"); one that does not verify — changed, moved or inserted outside adec — is never used:
 * not served, replayed, answered as a retry, nor followed up with feedback. It is answered
 * 500 RECORD_TAMPERED; any other failure is the store being unavailable, for the caller to try
 * again.
 */
import type { AuditFailure } from '@adec/audit';
import { apiError, type ApiError } from './api-error.js';

export function storedRecordError(failure: AuditFailure, recordId: string, unavailable: (message: string) => ApiError): ApiError {
  if (failure.code !== 'RECORD_INVALID') return unavailable(failure.message);
  return apiError(500, 'RECORD_TAMPERED', `the audit record ${recordId} does not verify against its chain, so it is not used: run adec audit verify`);
}
