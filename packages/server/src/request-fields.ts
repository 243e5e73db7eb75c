/**
 * How the service reads the fields of a request body: routing segments, optional strings, and
 * the words its error details use, shared by every operation so each field is refused the same
 * way whichever route it came to.
 */
import type { ErrorDetail } from './api-error.js';

/** A request or user id: what a client can safely put in a URL and a log line. */
export const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const ROUTING_SEGMENT_MAX = 200;

/** The problem with a request or user id, if any. */
export function idProblem(value: string): string | undefined {
  return REQUEST_ID.test(value) ? undefined : 'must be 1–128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit';
}

/** A required routing segment (`domain`, …): its value, or '' with the problem in `details`. */
export function segment(fields: Record<string, unknown>, name: string, details: ErrorDetail[]): string {
  const value = fields[name];
  const problem = segmentProblem(value);
  if (problem !== undefined) details.push({ path: `$.${name}`, message: problem });
  return typeof value === 'string' ? value : '';
}

export function optionalString(fields: Record<string, unknown>, name: string, details: ErrorDetail[], check: (value: string) => string | undefined): string | null {
  const value = fields[name];
  if (value === undefined || value === null) return null;
  const problem = typeof value === 'string' ? check(value) : `expected a string, found ${kindOf(value)}`;
  if (problem !== undefined) details.push({ path: `$.${name}`, message: problem });
  return typeof value === 'string' ? value : null;
}

/** What a routing key segment must be (the loader refuses anything else). */
export function segmentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return value === undefined ? 'is required' : `expected a string, found ${kindOf(value)}`;
  if (value.length === 0) return 'must not be empty';
  if (value.length > ROUTING_SEGMENT_MAX) return `is longer than ${ROUTING_SEGMENT_MAX} characters`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'holds a control character';
  return undefined;
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : `a ${typeof value}`;
}

/** `name` as a JSONPath member: `.name` when it is an identifier, `['…']` otherwise (escaped, short). */
export function pathKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name)}]`;
}
