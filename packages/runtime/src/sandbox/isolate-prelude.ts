/**
 * The trusted JavaScript that runs inside every isolate, around the untrusted bundle.
 *
 * `HARDEN_BEFORE_BUNDLE` removes the nondeterministic and host-ish globals before the bundle's
 * code runs, so not even its top level can read a clock or a random source.
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
 */
export const HARDEN_BEFORE_BUNDLE = `"use strict";
// Date reads the clock; Intl does too (\u0060new Intl.DateTimeFormat().format()\u0060 formats now) and
// reports the host's time zone and locale; WeakRef and FinalizationRegistry observe the garbage
// collector; SharedArrayBuffer and Atomics are shared memory and timers.
for (const name of ["Date", "Intl", "WebAssembly", "SharedArrayBuffer", "Atomics", "FinalizationRegistry", "WeakRef"]) {
  delete globalThis[name];
}
Object.defineProperty(Math, "random", { value: undefined, writable: false, configurable: false });
// BigInt arithmetic cannot be interrupted or bounded (find-bigint-literal.ts): every way to make a
// BigInt without writing a literal goes, and the loader refuses bundles that write one. That needs
// code generation from strings gone too (\u0060Function("return 1n")\u0060), which no module uses.
for (const name of ["BigInt", "BigInt64Array", "BigUint64Array", "eval", "Function"]) {
  delete globalThis[name];
}
for (const name of ["getBigInt64", "getBigUint64", "setBigInt64", "setBigUint64"]) {
  delete DataView.prototype[name];
}
for (const kind of [function () {}, async function () {}, function* () {}, async function* () {}]) {
  Object.defineProperty(Object.getPrototypeOf(kind), "constructor", { value: undefined, writable: false, configurable: false });
}
// RegExp's legacy statics (RegExp.$1, lastMatch, input, …) hold the last match of any regex in
// the isolate: one decision's data, readable by the next. They are accessors, so they go.
for (const name of ["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "input", "$_", "lastMatch", "$&", "lastParen", "$+", "leftContext", "$\u0060", "rightContext", "$'"]) {
  delete RegExp[name];
}
`;

export const EVALUATOR_AFTER_BUNDLE = `"use strict";
(() => {
  const module = __adec_module;
  globalThis.__adec_module = undefined; // a var is not deletable; nothing may reach the module afterwards
  // The host's monotonic clock, set after the bundle ran and taken away here: only trusted
  // extensions receive it (to time their stages for the audit trace); no module code can read a
  // clock, so decisions stay deterministic.
  const clock = globalThis.__adec_clock;
  delete globalThis.__adec_clock;
  const now = () => clock.applySync(undefined, []);
  const { parse, stringify } = JSON;
  const { freeze, defineProperty, getOwnPropertyNames, hasOwn, getPrototypeOf } = Object;
  const actions = module._ACTIONS;
  const predicates = module._RULE_FUNCTIONS;
  const filters = module._RULE_APPLIES_WHEN || {};
  const derivations = module._COMPUTED || {};

  const messageOf = (error) => {
    try {
      if (error !== null && typeof error === "object" && typeof error.message === "string") {
        return (typeof error.name === "string" ? error.name + ": " : "") + error.message;
      }
      return "threw " + String(error);
    } catch {
      return "threw a value that cannot be described";
    }
  };

  // A context attribute whose derivation failed: reading it throws, naming the cause.
  const markFailed = (ctx, failed) => {
    for (const name of getOwnPropertyNames(failed)) {
      const message = "reads computed attribute \\u0060" + name + "\\u0060, whose derivation failed: " + failed[name];
      defineProperty(ctx, name, { get() { throw new Error(message); }, enumerable: false, configurable: false });
    }
  };

  // Context values are parsed JSON: plain data, no accessors except the failed-derivation
  // getters, which are not enumerable and so never invoked here.
  const deepFreeze = (value) => {
    freeze(value);
    for (const key in value) {
      const inner = value[key];
      if (inner !== null && typeof inner === "object") deepFreeze(inner);
    }
  };

  const deriveOne = (action, ctx, failed, name, computed) => {
    try {
      const value = derivations[action][name](ctx);
      ctx[name] = value === undefined ? null : value;
      computed[name] = ctx[name];
    } catch (error) {
      // Marked before it is recorded: a step interrupted between the two runs again, and fails
      // to redefine the attribute, which fails the crossing (the attribution pass then runs).
      const message = messageOf(error);
      markFailed(ctx, { [name]: message });
      failed[name] = message;
    }
  };

  // Each rule's filter and predicate, looked up once here rather than by id on every request.
  const entryOf = (id) => freeze({ id, filter: hasOwn(filters, id) ? filters[id] : undefined, predicate: predicates[id] });
  const entries = new Map(Object.keys(predicates).map((id) => [id, entryOf(id)]));
  const plans = new Map(Object.keys(actions).map((action) => [action, freeze(actions[action].rules.map((id) => entries.get(id)))]));

  // Returns the rule's state character; stores its reason or error message at details[i].
  const evaluateRule = (entry, ctx, details, i) => {
    let state = "3";
    try {
      if (entry.filter !== undefined && entry.filter(ctx) !== true) return "0";
      state = "4";
      const result = entry.predicate(ctx);
      if (result === null || typeof result !== "object" || result.matched !== true) return "1";
      const reason = result.reason;
      details[i] = typeof reason === "string" ? reason : null;
      return "2";
    } catch (error) {
      details[i] = messageOf(error);
      return state;
    }
  };

  // The details of the rules whose state has one (matched, threw, ran out), in rule order.
  const detailsOf = (states, details) => {
    const kept = [];
    for (let i = 0; i < states.length; i++) if (states.charCodeAt(i) > 0x31) kept.push(details[i]);
    return kept;
  };

  const rulesOf = (ctx, plan) => {
    let states = "";
    const details = [];
    for (let i = 0; i < plan.length; i++) states += evaluateRule(plan[i], ctx, details, i);
    return { states, details: detailsOf(states, details) };
  };

  // The batch in progress: kept between crossings, so one stopped at its limit can resume.
  let job = null;

  // A decision's working state, once its context is parsed. A rule's result is committed by
  // appending its state to \u0060states\u0060 (its detail is stored at its index first), so the rule
  // to run next is always the one at \u0060states.length\u0060.
  const prepare = (action, ctxJson) => ({ ctx: parse(ctxJson), names: actions[action].computed || [], plan: plans.get(action), computed: {}, failed: {}, slow: [], states: "", details: [], frozen: false });

  const finish = (j) => {
    const work = j.work;
    j.answers[j.decision] = { computed: work.computed, failed: work.failed, slow: work.slow, states: work.states, details: detailsOf(work.states, work.details) };
    j.decision++;
    j.step = 0;
    j.work = null;
  };

  const runJob = () => {
    const j = job;
    while (j.decision < j.actions.length) {
      const action = j.actions[j.decision];
      if (j.work === null) j.work = prepare(action, j.contexts[j.decision]);
      const work = j.work;
      const names = work.names;
      while (j.step < names.length) {
        const name = names[j.step];
        // Run again after an interruption only if it left no result.
        if (!hasOwn(work.computed, name) && !hasOwn(work.failed, name)) deriveOne(action, work.ctx, work.failed, name, work.computed);
        j.step++;
      }
      if (!work.frozen) {
        deepFreeze(work.ctx);
        work.frozen = true;
      }
      const plan = work.plan;
      while (work.states.length < plan.length) work.states += evaluateRule(plan[work.states.length], work.ctx, work.details, work.states.length);
      finish(j);
    }
    job = null;
    return stringify(j.answers);
  };

  globalThis.__adec_evaluate_batch = (actionLines, ctxLines) => {
    // Actions and contexts one per line (neither holds a raw newline), answers in the same order.
    job = { actions: actionLines.split("\\n"), contexts: ctxLines.split("\\n"), answers: [], decision: 0, step: 0, work: null };
    return runJob();
  };

  // "decision step parsed": where a stopped batch stands (a step: a derivation, then a rule).
  globalThis.__adec_cursor = () => {
    const j = job;
    if (j.work === null) return j.decision + " 0 0";
    const step = j.step < j.work.names.length ? j.step : j.work.names.length + j.work.states.length;
    return j.decision + " " + step + " 1";
  };

  globalThis.__adec_skip = (message) => {
    const j = job;
    const work = j.work;
    if (work === null) {
      // Parsing its context alone ran out of time: every rule of the decision did.
      const rules = plans.get(j.actions[j.decision]).length;
      j.answers[j.decision] = { computed: {}, failed: {}, slow: [], states: "5".repeat(rules), details: new Array(rules).fill(message) };
      j.decision++;
      j.step = 0;
    } else if (j.step < work.names.length) {
      const name = work.names[j.step];
      markFailed(work.ctx, { [name]: message });
      work.failed[name] = message;
      work.slow.push(name);
      j.step++;
    } else {
      work.details[work.states.length] = message;
      work.states += "5";
    }
    if (work !== null && j.step === work.names.length && work.states.length === work.plan.length) finish(j);
    return globalThis.__adec_cursor();
  };

  globalThis.__adec_resume = () => runJob();

  globalThis.__adec_derive = (action, ctxJson, failedJson, name) => {
    const ctx = parse(ctxJson);
    const failed = parse(failedJson);
    markFailed(ctx, failed);
    const computed = {};
    const newlyFailed = {};
    deriveOne(action, ctx, newlyFailed, name, computed);
    return stringify({ computed, failed: newlyFailed });
  };

  globalThis.__adec_rules = (action, ctxJson, failedJson, idsJson) => {
    const ctx = parse(ctxJson);
    markFailed(ctx, parse(failedJson));
    deepFreeze(ctx);
    return stringify(rulesOf(ctx, parse(idsJson).map((id) => entries.get(id))));
  };

  // The module's static data, copied out once at load.
  globalThis.__adec_metadata = () => stringify({
    abi_version: module._ABI_VERSION,
    world: module._WORLD,
    actions,
    outcome: module._RULE_OUTCOME ?? null,
    severity: module._RULE_SEVERITY,
    suppresses: module._RULE_SUPPRESSES ?? {},
    reads: module._RULE_READS ?? {},
    predicates: Object.keys(predicates),
  });

  // Trusted extensions (e.g. the selection engine) receive the module and the evaluator's
  // helpers, then SEAL removes this hook.
  globalThis.__adec_extend = (install) => install(module, { messageOf, now });
  globalThis.__adec_seal = () => {
    delete globalThis.__adec_extend;
    delete globalThis.__adec_seal;
    // Freeze the global object's own values and every prototype reachable from them.
    const seen = new Set();
    const freezeIntrinsic = (value) => {
      if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) return;
      seen.add(value);
      freeze(value);
      for (const key of Reflect.ownKeys(value)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
        if (descriptor === undefined) continue;
        if ("value" in descriptor) freezeIntrinsic(descriptor.value);
        else { freezeIntrinsic(descriptor.get); freezeIntrinsic(descriptor.set); }
      }
      freezeIntrinsic(getPrototypeOf(value));
    };
    // esbuild exports the module's tables through getters, which the walk above does not call:
    // freeze what they return too, or a predicate could keep state in a table between decisions.
    for (const key of Reflect.ownKeys(module)) freezeIntrinsic(module[key]);
    freezeIntrinsic(module);
    freezeIntrinsic(globalThis);
  };
})();
`;

/** Runs after the extensions: removes the extension hook and freezes everything. */
export const SEAL = `"use strict"; __adec_seal();`;
