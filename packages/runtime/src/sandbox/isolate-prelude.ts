/**
 * The trusted JavaScript that runs inside every isolate, around the untrusted bundle.
 *
 * `HARDEN_BEFORE_BUNDLE` removes the nondeterministic and host-ish globals before the bundle's
 * code runs, so not even its top level can read a clock or a random source. After an ABI 1
 * bundle, the same generated file's `LEGACY_ABI1_SHIM` rewrites its tables as ABI 2
 * (module/legacy-abi1.ts).
 * `EVALUATOR_AFTER_BUNDLE` captures the module and every intrinsic the evaluator uses and installs
 * the entry points the host calls. Trusted extensions may then install more entry points
 * through `__adec_extend(install)`, which hands them the module, the evaluator's helpers and the
 * host's monotonic clock (never reachable by module code). `SEAL` finally freezes the global object and every intrinsic:
 * a predicate cannot patch `Array.prototype.includes` or `JSON` to change another rule's
 * result, and cannot mutate the context another predicate reads (it is frozen too).
 *
 * Entry points (all take and return JSON text, so only data crosses the boundary):
 *   __adec_evaluate_batch(actions, contexts)           decisions, one per line: for each, derive
 *                                                      computed attributes, then every rule
 *   __adec_cursor() / __adec_skip(message) / __adec_resume()
 *                                                      a batch stopped at its time limit (below)
 *   __adec_derive(action, ctx, failed, name)           one derivation (attribution pass)
 *   __adec_rules(action, ctx, failed, ids)             the given rules on a derived context
 * The host reaches each one, and each an extension installs, through `__adec_box_entry(name)`,
 * which hands it back boxed (isolate-sandbox.ts, `boxedEntry`): no script is built from a name.
 * `failed` maps a computed attribute whose derivation failed to its message: reading it throws,
 * so exactly the rules and derivations that depend on it error, without a dependency table.
 *
 * A batch's answer is a JSON array with one evaluation per decision: `{ "computed": {name:
 * value}, "failed": {name: message}, "slow": [name], "states": "…", "details": […] }`. `states`
 * has one character per rule of the action in evaluation order (or of `ids`): 0 not applicable,
 * 1 not matched, 2 matched, 3 threw in applies_when, 4 threw in when, 5 ran out of its time
 * limit. `details` holds, in rule order, the reason (or null) of each matched rule and the
 * message of each rule that threw or ran out. `slow` names the failed derivations that ran out.
 * A string and a flat list keep the crossing cheap.
 *
 * A batch is resumable, so that each predicate gets its own time limit without a crossing per
 * predicate (evaluate-action.ts): its progress (decision, step, whether the decision's context is
 * parsed) is kept here between crossings, each step's result is stored at its index before the
 * cursor moves past it (a crossing terminated anywhere leaves nothing half-counted; a step
 * interrupted is run again from its start), and `__adec_resume` goes on from the cursor.
 * `__adec_skip(message)` records the step at the cursor as having run out of its limit and
 * moves past it. A step is a derivation (in order) or a rule (in evaluation order).
 *
 * The code is TypeScript in `isolate/` (harden.ts, evaluator.ts, seal.ts are the three scripts),
 * type-checked with the rest and bundled by `npm run generate:isolate`
 * (scripts/generate-isolate-code.mjs) into isolate-prelude.generated.ts, which a test keeps in
 * step with its sources. Those files may use only what an isolate has: the language's
 * intrinsics and the globals of isolate/isolate-globals.ts (the generator type-checks them again
 * without Node's declarations, and refuses a script that imports a Node module).
 */
export { EVALUATOR_AFTER_BUNDLE, HARDEN_BEFORE_BUNDLE, SEAL } from './isolate-prelude.generated.js';
