/**
 * `--request-time`, `--request-id` and `--caller`: the system values a decision of `adec eval`
 * and `adec explain` is made with (a replay gives the recorded ones), declared and read here once.
 */
import { timestampMs, type EntryValues } from '@adec/runtime';
import { UsageError } from './usage-error.js';

export const SYSTEM_VALUE_OPTIONS = {
  'request-time': { type: 'string' },
  'request-id': { type: 'string' },
  caller: { type: 'string' },
} as const;

/** The system values the options give; those not given are the host's (its clock, a fresh UUID, no caller). */
export function systemValues(values: Readonly<Record<string, string | boolean | undefined>>, usage: string): EntryValues {
  const requestTime = values['request-time'];
  const requestId = values['request-id'];
  const caller = values['caller'];
  return {
    ...(typeof requestTime === 'string' && { requestTime: requestTimeMs(requestTime, usage) }),
    ...(typeof requestId === 'string' && { requestId }),
    ...(typeof caller === 'string' && { authenticatedCaller: caller }),
  };
}

function requestTimeMs(value: string, usage: string): number {
  const ms = timestampMs(value);
  if (ms === undefined) throw new UsageError(`invalid --request-time \`${value}\`: expected an RFC 3339 timestamp such as 2026-03-01T09:00:00Z\n\n${usage}`);
  return ms;
}
