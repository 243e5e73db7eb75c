/**
 * The ABI 1 shim (docs/spec/adjudication.md §6), run inside the isolate right after a legacy bundle defines its
 * module, so everything after it (the evaluator, the metadata the host reads) sees ABI 2
 * tables and evaluates in the same order the host reports.
 *
 * Modules built before rule outcomes existed have no `_RULE_OUTCOME` and carry a status literal
 * in `_RULE_SEVERITY`. The shim reads that literal as the rule's outcome and reconstructs the
 * tier: RED → t1, anything else → t2; rules are put in severity order (t1 first, declaration
 * order kept within a tier). Under winner_takes_all this reproduces the ABI 1 behaviour
 * exactly: a RED rule wins, any other match gives its status, nothing matched gives GREEN.
 * A module that is not ABI 1 is left untouched. The script is TypeScript,
 * sandbox/isolate/legacy-abi1-shim.ts, bundled with the prelude (`npm run generate:isolate`).
 */
export { LEGACY_ABI1_SHIM } from '../sandbox/isolate-prelude.generated.js';
