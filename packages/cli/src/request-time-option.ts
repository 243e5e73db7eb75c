import { timestampMs } from '@adec/runtime';
import { UsageError } from './usage-error.js';

/** `--request-time <RFC 3339>` in ms since the epoch; undefined when not given (the host's clock then). */
export function parseRequestTime(value: string | boolean | undefined, usage: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = timestampMs(value);
  if (ms === undefined) throw new UsageError(`invalid --request-time \`${value}\`: expected an RFC 3339 timestamp such as 2026-03-01T09:00:00Z\n\n${usage}`);
  return ms;
}
