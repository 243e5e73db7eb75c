/**
 * ADEC5010: a RED or YELLOW rule without a `reason`. Such a decision stops or holds the agent,
 * which must then tell someone why; without a reason the decision carries only the rule's id
 * (docs/spec/adjudication.md §5.2: `matched_rule_outcomes[].reason` is null). GREEN and GREEN-SKIP
 * let the agent go on and need no explanation. A warning, reported once the world checks clean:
 * the rule works, it only leaves its outcome unexplained.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { CheckedAction } from '../model/index.js';

const OUTCOMES_TO_EXPLAIN: ReadonlySet<string> = new Set(['RED', 'YELLOW']);

export function checkUnexplainedOutcomes(action: CheckedAction): Diagnostic[] {
  return action.rules
    .filter((rule) => rule.reason === undefined && OUTCOMES_TO_EXPLAIN.has(rule.outcome))
    .map((rule) =>
      diagnostic('ADEC5010', rule.span, { outcome: rule.outcome, rule: rule.id }, {
        notes: [`when it decides, the agent receives ${rule.outcome}, the work frame of ${rule.outcome} and \`reason: null\` beside \`${rule.id}\` in \`matched_rule_outcomes\``],
        help: 'add `reason "…"` saying why, in words the agent can pass on (`{attribute}` interpolates a value)',
      }),
    );
}
