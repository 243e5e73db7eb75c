/**
 * What a generated module declares (module-declarations.ts) agrees with what a host reads
 * (module-registries.ts, rule-classes.ts; work frame templates the host reads as declared
 * there): each line below fails to compile when the two part, so neither can change without
 * the other.
 */
import type { DurationShapeEntry, ActionEntry as HostActionEntry } from './module-registries.js';
import type { ActionEntry, DurationShape, RuleOutcome, SeverityTier } from './module-declarations.js';
import type { AggregationMode, AggregationSpec, RuleOutcome as HostRuleOutcome, SeverityTier as HostSeverityTier } from './rule-classes.js';

/** `true` when each of A and B is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

export type ModuleDeclarationsAgree = [
  Holds<Same<RuleOutcome, HostRuleOutcome>>,
  Holds<Same<SeverityTier, HostSeverityTier>>,
  Holds<Same<DurationShape, DurationShapeEntry>>,
  Holds<Same<ActionEntry['aggregation'], AggregationSpec>>,
  Holds<Same<ActionEntry['aggregation']['mode'], AggregationMode>>,
  // A module's entry is one the host reads, and it declares every field the host knows of.
  Holds<ActionEntry extends HostActionEntry ? true : false>,
  Holds<Same<keyof ActionEntry, keyof HostActionEntry>>,
];
