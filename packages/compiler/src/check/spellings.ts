/**
 * Closed sets of words the author spells out (outcomes, statuses, severities, modes). The
 * parser keeps them as written so mistakes get a precise suggestion: `green` → GREEN,
 * `GREEN_SKIP` → GREEN-SKIP, `T1` or `tier1` → t1.
 */
import { closestMatch } from '@adec/diagnostics';
import { RULE_OUTCOMES, SEVERITY_TIERS, type RuleOutcome, type SeverityTier } from '../model/index.js';

export function asOutcome(text: string): RuleOutcome | undefined {
  return (RULE_OUTCOMES as readonly string[]).includes(text) ? (text as RuleOutcome) : undefined;
}

export function asSeverity(text: string): SeverityTier | undefined {
  return (SEVERITY_TIERS as readonly string[]).includes(text) ? (text as SeverityTier) : undefined;
}

/** A help line for a misspelled outcome or status (`"RED"` quoted, `green`, `GREEN_SKIP`). */
export function outcomeHelp(text: string): { help?: string } {
  const unquoted = text.replace(/^["']|["']$/g, '');
  const normalized = unquoted.toUpperCase().replace(/[_\s]+/g, '-');
  const match = asOutcome(normalized) ?? closestMatch(unquoted, RULE_OUTCOMES);
  return match === undefined ? {} : { help: `did you mean \`${match}\`?` };
}

/** A help line for a misspelled severity: `T1`, `tier1`, `tier-2`, `severity3`. */
export function severityHelp(text: string): { help?: string } {
  const tier = /^(?:t|tier|severity)?[\s_-]*([123])$/i.exec(text.replace(/^["']|["']$/g, ''));
  const match = tier !== null ? `t${tier[1]}` : closestMatch(text, SEVERITY_TIERS);
  return match === undefined ? {} : { help: `did you mean \`${match}\`?` };
}
