/**
 * Timeouts. A predicate's limit is short because predicates are small and run in a
 * sandbox on the request path (ARCHITECTURE.md "Sandbox"); a second is already absurd.
 */
import { MAX_PREDICATE_TIMEOUT_MS } from '@adec/abi';
import type { DurationLiteral } from '@adec/grammar';
import type { DiagnosticSink } from './checker-context.js';

/** ADEC4017 unless 0 < timeout ≤ 1000ms; an unreadable duration was reported by the parser. */
export function checkPredicateTimeout(timeout: DurationLiteral, sink: DiagnosticSink): boolean {
  if (Number.isNaN(timeout.milliseconds)) return false;
  if (timeout.milliseconds <= 0) {
    sink.report('ADEC4017', timeout.span, { problem: `\`${timeout.text}\` must be greater than 0` });
    return false;
  }
  if (timeout.milliseconds > MAX_PREDICATE_TIMEOUT_MS) {
    sink.report('ADEC4017', timeout.span, { problem: `\`${timeout.text}\` exceeds the ${MAX_PREDICATE_TIMEOUT_MS}ms limit for a predicate` });
    return false;
  }
  return true;
}
