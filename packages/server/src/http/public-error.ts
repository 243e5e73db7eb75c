/**
 * What of a refusal may leave the service. Some messages carry words from inside the host: the
 * audit store's driver text, the module store's file paths, a sandbox's or a replay's fault
 * (SECURITY.md, "Error bodies that show the host": MODULE_NOT_FOUND showed any caller the host's module directory, and a
 * store failure's 503 quoted SQLite). Those go to the log for the operator; the caller gets the
 * service's own words for the code. Every transport answers through here: the HTTP routes
 * (error-handling.ts) and the MCP tools.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ApiError } from '../api-error.js';

/** The caller's message for each code whose message is built from a host component's text. */
const PUBLIC_MESSAGES: Readonly<Record<string, string>> = {
  AUDIT_UNAVAILABLE: 'the audit store failed, so nothing was answered from it or recorded in it; try again shortly (the failure is logged)',
  MEMORY_UNAVAILABLE: "the outcome is recorded, but the user's memory could not be updated (the failure is logged); retrying with the same outcome_id updates it",
  MODULE_UNAVAILABLE: 'the module cannot be served now: it failed to load, verify or start (the failure is logged)',
  SANDBOX_FAILURE: "the module's sandbox failed during this selection (the failure is logged)",
  REPLAY_FAILED: 'the stored decision could not be replayed (the failure is logged)',
  MODULE_UNSUPPORTED: 'the module cannot run this selection (the failure is logged)',
};

/** 5xx codes whose messages the service writes itself, from nothing but numbers and ids. */
const SERVICE_WORDED = new Set(['INTERNAL_ERROR', 'OVERLOADED', 'NOT_READY', 'SHUTTING_DOWN', 'SCORING_FAILED', 'TOO_MANY_CONNECTIONS', 'RECORD_TAMPERED']);

const GENERIC_MESSAGE = 'the service could not answer this request (the failure is logged)';

/**
 * `error` as the caller may see it: the same value when nothing in it is the host's, else a
 * copy with the host's words left out (the caller logs `error` itself).
 */
export function publicError(error: ApiError): ApiError {
  const message = publicMessage(error);
  return message === error.message ? error : { ...error, message };
}

function publicMessage({ status, code, message }: ApiError): string {
  const fixed = PUBLIC_MESSAGES[code];
  if (fixed !== undefined) return fixed;
  // The module store says why in parentheses (the file it did not find, by its path): the
  // module's name, before them, is the caller's own.
  if (code === 'MODULE_NOT_FOUND') return message.replace(/ \(.*\)$/s, '');
  return status >= 500 && !SERVICE_WORDED.has(code) ? GENERIC_MESSAGE : message;
}

/** Logs what `publicError` left out of `error`'s answer: for the operator, a host fault at error level. */
export function logWithheld(log: FastifyBaseLogger, error: ApiError): void {
  log[error.status >= 500 ? 'error' : 'debug']({ code: error.code, detail: error.message }, 'refusal answered without its detail');
}
