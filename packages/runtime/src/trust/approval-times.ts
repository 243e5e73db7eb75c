/**
 * The times an approval carries, written `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC, whole seconds):
 * one spelling per instant, so the signed statement has one spelling too.
 */
const APPROVAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The approval time of `ms` since the epoch, rounded down to the second. */
export function formatApprovalTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Milliseconds since the epoch, or undefined when `text` is not an approval time of a real date. */
export function parseApprovalTime(text: string): number | undefined {
  if (!APPROVAL_TIME.test(text)) return undefined;
  const ms = Date.parse(text);
  // Date.parse accepts 2026-02-30; formatting back catches it.
  return Number.isFinite(ms) && formatApprovalTime(ms) === text ? ms : undefined;
}

/** 90 days: an approval outlives a release cycle, and lapses if nobody renews it. */
export const DEFAULT_APPROVAL_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;
