/**
 * How long the audit store keeps a decision's record by default (ARCHITECTURE.md "Audit store"):
 * the audit store purges by it, and each skill's contract document states it as the retention
 * of the records of its runs.
 */
export const DEFAULT_RETENTION_DAYS = 90;
