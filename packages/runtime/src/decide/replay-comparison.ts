/**
 * What a replay compares: the decision without the facts of the host that made it. Where the
 * predicates ran (`decision_metadata.module.isolation`) depends on the host and on when the
 * module's code was verified, not on the logic; a decision recorded before adec recorded it has
 * none.
 */
import type { Decision } from './decision.js';

/** `decision` (as recorded, or as replayed) without `decision_metadata.module.isolation`. */
export function comparedInReplay(decision: Decision): unknown {
  const { isolation: _, ...module } = decision.decision_metadata.module;
  return { ...decision, decision_metadata: { ...decision.decision_metadata, module } };
}
