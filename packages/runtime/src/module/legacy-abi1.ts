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
 * A module that is not ABI 1 is left untouched.
 */
export const LEGACY_ABI1_SHIM = `"use strict";
(() => {
  const m = __adec_module;
  if (m === null || typeof m !== "object" || m._ABI_VERSION !== 1) return;
  const legacy = m._RULE_SEVERITY || {};
  const outcome = {};
  const severity = {};
  for (const id of Object.keys(legacy)) {
    outcome[id] = legacy[id];
    severity[id] = legacy[id] === "RED" ? "t1" : "t2";
  }
  const actions = {};
  for (const name of Object.keys(m._ACTIONS || {})) {
    const action = m._ACTIONS[name];
    const rules = [...(action.rules || [])];
    const tier1 = rules.filter((id) => severity[id] === "t1");
    actions[name] = {
      aggregation: { mode: "winner_takes_all" },
      predicate_timeout_ms: 5,
      ...action,
      rules: [...tier1, ...rules.filter((id) => severity[id] !== "t1")],
    };
  }
  __adec_module = { ...m, _ACTIONS: actions, _RULE_OUTCOME: outcome, _RULE_SEVERITY: severity };
})();
`;
