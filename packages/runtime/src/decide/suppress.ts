/**
 * Suppression (ARCHITECTURE.md "Composition root", step 4): a matched rule removes the rules it
 * names from the matched set. A t1 rule is never suppressed (the compiler refuses such a
 * declaration; this is the runtime's own guard for modules built elsewhere). A suppressed rule
 * still suppresses: suppression is a property of matching, not of winning, so the result does
 * not depend on the order rules are listed in.
 */
import type { RuleSpec } from '../module/module-metadata.js';

export interface SuppressionLink {
  readonly rule_id: string;
  readonly suppressed: readonly string[];
}

export interface Suppression {
  /** Matched rules that survive, in evaluation order. */
  readonly effective: readonly RuleSpec[];
  /** rule id → the matched rule that suppressed it (the first in evaluation order). */
  readonly suppressedBy: ReadonlyMap<string, string>;
  readonly chain: readonly SuppressionLink[];
}

const NOTHING_SUPPRESSED: ReadonlyMap<string, string> = new Map();

export function applySuppression(matched: readonly RuleSpec[]): Suppression {
  // The common case on the decision path: no matched rule suppresses anything.
  if (!matched.some((rule) => rule.suppresses.length > 0)) return { effective: matched, suppressedBy: NOTHING_SUPPRESSED, chain: [] };
  const suppressible = new Set(matched.filter((rule) => rule.severity !== 't1').map((rule) => rule.id));
  const suppressedBy = new Map<string, string>();
  const chain: SuppressionLink[] = [];
  for (const rule of matched) {
    const removed = rule.suppresses.filter((id) => suppressible.has(id));
    for (const id of removed) if (!suppressedBy.has(id)) suppressedBy.set(id, rule.id);
    if (removed.length > 0) chain.push({ rule_id: rule.id, suppressed: removed });
  }
  return { effective: matched.filter((rule) => !suppressedBy.has(rule.id)), suppressedBy, chain };
}
