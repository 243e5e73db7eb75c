/**
 * The four decision statuses and severity tiers (docs/spec/adjudication.md §1, §3), with the orders the
 * composition root uses: statuses by restrictiveness, tiers by precedence.
 */
import { RULE_OUTCOMES, SEVERITY_TIERS, type RuleOutcome, type SeverityTier } from '@adec/abi';

// A decision's status is one of the outcomes a rule may have, its tier one of the rules' tiers.
export const STATUSES = RULE_OUTCOMES;
export type Status = RuleOutcome;

export const TIERS = SEVERITY_TIERS;
export type Tier = SeverityTier;

const RESTRICTIVENESS: Readonly<Record<Status, number>> = { GREEN: 0, 'GREEN-SKIP': 1, YELLOW: 2, RED: 3 };

/** Orders statuses from least to most restrictive (RED > YELLOW > GREEN-SKIP > GREEN). */
export function restrictiveness(status: Status): number {
  return RESTRICTIVENESS[status];
}

/** The more restrictive of two statuses. */
export function mostRestrictive(a: Status, b: Status): Status {
  return RESTRICTIVENESS[b] > RESTRICTIVENESS[a] ? b : a;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}
