/**
 * The ABI 1 shim (ADR-106 D5). Modules built before rule outcomes existed have no
 * `_RULE_OUTCOME` and carry a status literal in `_RULE_SEVERITY`. The shim reads that literal
 * as the rule's outcome and reconstructs the tier: RED → t1, anything else → t2. Under
 * winner_takes_all this reproduces the pre-ADR-106 behaviour exactly: a RED rule wins, any
 * other match gives its status, nothing matched gives GREEN.
 */
import { isStatus, type Status, type Tier } from '../decide/status.js';

export function legacyRuleClassification(severities: Readonly<Record<string, unknown>>): (id: string) => { outcome: Status; severity: Tier } {
  return (id) => {
    const status = severities[id];
    if (!isStatus(status)) throw new Error(`_RULE_SEVERITY.${id} is ${JSON.stringify(status)}, expected a status literal in an ABI 1 module`);
    return { outcome: status, severity: status === 'RED' ? 't1' : 't2' };
  };
}
