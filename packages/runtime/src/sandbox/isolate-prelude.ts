/**
 * The trusted JavaScript that runs inside every isolate, around the untrusted bundle.
 *
 * `HARDEN_BEFORE_BUNDLE` removes the nondeterministic and host-ish globals before the bundle's
 * code runs, so not even its top level can read a clock or a random source.
 * `EVALUATOR_AFTER_BUNDLE` captures the module and every intrinsic the evaluator uses and installs
 * the entry points the host calls. Trusted extensions may then install more entry points
 * through `__adec_extend(install)`. `SEAL` finally freezes the global object and every intrinsic:
 * a predicate cannot patch `Array.prototype.includes` or `JSON` to change another rule's
 * result, and cannot mutate the context another predicate reads (it is frozen too).
 *
 * Entry points (all take and return JSON text, so only data crosses the boundary):
 *   __adec_evaluate(action, ctx)                       derive computed attributes, then every rule
 *   __adec_derive(action, ctx, failed, name)           one derivation (attribution pass)
 *   __adec_rules(action, ctx, failed, ids)             the given rules on a derived context
 * `failed` maps a computed attribute whose derivation failed to its message: reading it throws,
 * so exactly the rules and derivations that depend on it error, without a dependency table.
 *
 * Result of evaluate: `{ "computed": {name: value}, "failed": {name: message}, "states": "…",
 * "details": […] }`. `states` has one character per rule of the action in evaluation order (or
 * of `ids`): 0 not applicable, 1 not matched, 2 matched, 3 threw in applies_when, 4 threw in
 * when. `details` holds, in rule order, the reason (or null) of each matched rule and the
 * message of each rule that threw. A string and a flat list keep the crossing cheap.
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
      failed[name] = messageOf(error);
      markFailed(ctx, { [name]: failed[name] });
    }
  };

  // Each rule's filter and predicate, looked up once here rather than by id on every request.
  const entryOf = (id) => freeze({ id, filter: hasOwn(filters, id) ? filters[id] : undefined, predicate: predicates[id] });
  const entries = new Map(Object.keys(predicates).map((id) => [id, entryOf(id)]));
  const plans = new Map(Object.keys(actions).map((action) => [action, freeze(actions[action].rules.map((id) => entries.get(id)))]));

  // Returns the rule's state character; pushes its reason or error message onto details.
  const evaluateRule = (entry, ctx, details) => {
    let state = "3";
    try {
      if (entry.filter !== undefined && entry.filter(ctx) !== true) return "0";
      state = "4";
      const result = entry.predicate(ctx);
      if (result === null || typeof result !== "object" || result.matched !== true) return "1";
      const reason = result.reason;
      details.push(typeof reason === "string" ? reason : null);
      return "2";
    } catch (error) {
      details.push(messageOf(error));
      return state;
    }
  };

  const rulesOf = (ctx, plan) => {
    let states = "";
    const details = [];
    for (let i = 0; i < plan.length; i++) states += evaluateRule(plan[i], ctx, details);
    return { states, details };
  };

  const evaluateOne = (action, ctxJson) => {
    const spec = actions[action];
    const ctx = parse(ctxJson);
    const computed = {};
    const failed = {};
    const names = spec.computed || [];
    for (let i = 0; i < names.length; i++) deriveOne(action, ctx, failed, names[i], computed);
    deepFreeze(ctx);
    const { states, details } = rulesOf(ctx, plans.get(action));
    return { computed, failed, states, details };
  };

  globalThis.__adec_evaluate = (action, ctxJson) => stringify(evaluateOne(action, ctxJson));

  // Many decisions in one crossing (a sandbox process's micro-batch): actions and contexts one
  // per line (neither holds a raw newline), answers as one JSON array in the same order.
  globalThis.__adec_evaluate_batch = (actionLines, ctxLines) => {
    const names = actionLines.split("\\n");
    const contexts = ctxLines.split("\\n");
    const answers = [];
    for (let i = 0; i < names.length; i++) answers.push(evaluateOne(names[i], contexts[i]));
    return stringify(answers);
  };

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
  globalThis.__adec_extend = (install) => install(module, { messageOf });
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
