/**
 * Runs after the bundle (and the ABI 1 shim): captures the module and every intrinsic the
 * evaluator uses, and installs the entry points the host calls (../isolate-prelude.ts lists
 * them and the encoding of their answers). A missing rule or derivation function is looked up
 * as `undefined` and called: the call throws inside the step's `try`, and the step records it.
 */
import type { CompiledModule, ContextFunction } from './compiled-module.js';
import { freezeRealm } from './freeze-realm.js';
import { isolateGlobals, type IsolateGlobals } from './isolate-globals.js';
import { messageOf } from './message-of.js';

type Context = Record<string, unknown>;

interface RuleEntry {
  readonly id: string;
  readonly filter: ContextFunction | undefined;
  readonly predicate: ContextFunction | undefined;
}

/** One decision's answer (../isolate-prelude.ts: "A batch's answer"). */
interface Evaluation {
  readonly computed: Record<string, unknown>;
  readonly failed: Record<string, string>;
  readonly slow: readonly string[];
  readonly states: string;
  readonly details: readonly (string | null)[];
}

/**
 * A decision's working state, once its context is parsed. A rule's result is committed by
 * appending its state to `states` (its detail is stored at its index first), so the rule to
 * run next is always the one at `states.length`.
 */
interface DecisionWork {
  readonly ctx: Context;
  readonly names: readonly string[];
  readonly plan: readonly RuleEntry[];
  readonly computed: Record<string, unknown>;
  readonly failed: Record<string, string>;
  readonly slow: string[];
  states: string;
  readonly details: (string | null)[];
  frozen: boolean;
}

/** The batch in progress: kept between crossings, so one stopped at its limit can resume. */
interface BatchJob {
  readonly actions: readonly string[];
  readonly contexts: readonly string[];
  readonly answers: Evaluation[];
  decision: number;
  step: number;
  work: DecisionWork | null;
}

const module = isolateGlobals.__adec_module as CompiledModule;
isolateGlobals.__adec_module = undefined; // a var is not deletable; nothing may reach the module afterwards
// The host's monotonic clock, set after the bundle ran and taken away here: only trusted
// extensions receive it (to time their stages for the audit trace); no module code can read a
// clock, so decisions stay deterministic.
const clock = isolateGlobals.__adec_clock!;
delete isolateGlobals.__adec_clock;
const now = (): number => clock.applySync(undefined, []);
const { parse, stringify } = JSON;
const { freeze, defineProperty, getOwnPropertyNames, hasOwn } = Object;
const actions = module._ACTIONS;
const predicates = module._RULE_FUNCTIONS;
const filters = module._RULE_APPLIES_WHEN || {};
const derivations = module._COMPUTED || {};

// A context attribute whose derivation failed: reading it throws, naming the cause.
const markFailed = (ctx: Context, failed: Readonly<Record<string, string>>): void => {
  for (const name of getOwnPropertyNames(failed)) {
    const message = 'reads computed attribute `' + name + '`, whose derivation failed: ' + failed[name]!;
    defineProperty(ctx, name, {
      get() {
        throw new Error(message);
      },
      enumerable: false,
      configurable: false,
    });
  }
};

// Context values are parsed JSON: plain data, no accessors except the failed-derivation
// getters, which are not enumerable and so never invoked here.
const deepFreeze = (value: object): void => {
  freeze(value);
  for (const key in value) {
    const inner = (value as Context)[key];
    if (inner !== null && typeof inner === 'object') deepFreeze(inner);
  }
};

const deriveOne = (action: string, ctx: Context, failed: Record<string, string>, name: string, computed: Record<string, unknown>): void => {
  try {
    const value = derivations[action]![name]!(ctx);
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
const entryOf = (id: string): RuleEntry => freeze({ id, filter: hasOwn(filters, id) ? filters[id] : undefined, predicate: predicates[id] });
const entries = new Map(Object.keys(predicates).map((id) => [id, entryOf(id)]));
const plans = new Map(Object.keys(actions).map((action) => [action, freeze(actions[action]!.rules.map((id) => entries.get(id)!))]));

// Returns the rule's state character; stores its reason or error message at details[i].
const evaluateRule = (entry: RuleEntry, ctx: Context, details: (string | null)[], i: number): string => {
  let state = '3';
  try {
    if (entry.filter !== undefined && entry.filter(ctx) !== true) return '0';
    state = '4';
    const result = entry.predicate!(ctx) as { matched?: unknown; reason?: unknown } | null;
    if (result === null || typeof result !== 'object' || result.matched !== true) return '1';
    const reason = result.reason;
    details[i] = typeof reason === 'string' ? reason : null;
    return '2';
  } catch (error) {
    details[i] = messageOf(error);
    return state;
  }
};

// The details of the rules whose state has one (matched, threw, ran out), in rule order.
const detailsOf = (states: string, details: readonly (string | null)[]): (string | null)[] => {
  const kept: (string | null)[] = [];
  for (let i = 0; i < states.length; i++) if (states.charCodeAt(i) > 0x31) kept.push(details[i]!);
  return kept;
};

const rulesOf = (ctx: Context, plan: readonly RuleEntry[]): { states: string; details: (string | null)[] } => {
  let states = '';
  const details: (string | null)[] = [];
  for (let i = 0; i < plan.length; i++) states += evaluateRule(plan[i]!, ctx, details, i);
  return { states, details: detailsOf(states, details) };
};

let job: BatchJob | null = null;

const prepare = (action: string, ctxJson: string): DecisionWork => ({
  ctx: parse(ctxJson) as Context,
  names: actions[action]!.computed || [],
  plan: plans.get(action)!,
  computed: {},
  failed: {},
  slow: [],
  states: '',
  details: [],
  frozen: false,
});

const finish = (j: BatchJob): void => {
  const work = j.work!;
  j.answers[j.decision] = { computed: work.computed, failed: work.failed, slow: work.slow, states: work.states, details: detailsOf(work.states, work.details) };
  j.decision++;
  j.step = 0;
  j.work = null;
};

const runJob = (): string => {
  const j = job!;
  while (j.decision < j.actions.length) {
    const action = j.actions[j.decision]!;
    if (j.work === null) j.work = prepare(action, j.contexts[j.decision]!);
    const work = j.work;
    const names = work.names;
    while (j.step < names.length) {
      const name = names[j.step]!;
      // Run again after an interruption only if it left no result.
      if (!hasOwn(work.computed, name) && !hasOwn(work.failed, name)) deriveOne(action, work.ctx, work.failed, name, work.computed);
      j.step++;
    }
    if (!work.frozen) {
      deepFreeze(work.ctx);
      work.frozen = true;
    }
    const plan = work.plan;
    while (work.states.length < plan.length) work.states += evaluateRule(plan[work.states.length]!, work.ctx, work.details, work.states.length);
    finish(j);
  }
  job = null;
  return stringify(j.answers);
};

isolateGlobals.__adec_evaluate_batch = (actionLines, ctxLines) => {
  // Actions and contexts one per line (neither holds a raw newline), answers in the same order.
  job = { actions: actionLines.split('\n'), contexts: ctxLines.split('\n'), answers: [], decision: 0, step: 0, work: null };
  return runJob();
};

// "decision step parsed": where a stopped batch stands (a step: a derivation, then a rule).
const cursor = (): string => {
  const j = job!;
  if (j.work === null) return `${j.decision} 0 0`;
  const step = j.step < j.work.names.length ? j.step : j.work.names.length + j.work.states.length;
  return `${j.decision} ${step} 1`;
};
isolateGlobals.__adec_cursor = cursor;

isolateGlobals.__adec_skip = (message) => {
  const j = job!;
  const work = j.work;
  if (work === null) {
    // Parsing its context alone ran out of time: every rule of the decision did.
    const rules = plans.get(j.actions[j.decision]!)!.length;
    j.answers[j.decision] = { computed: {}, failed: {}, slow: [], states: '5'.repeat(rules), details: new Array<string>(rules).fill(message) };
    j.decision++;
    j.step = 0;
  } else if (j.step < work.names.length) {
    const name = work.names[j.step]!;
    markFailed(work.ctx, { [name]: message });
    work.failed[name] = message;
    work.slow.push(name);
    j.step++;
  } else {
    work.details[work.states.length] = message;
    work.states += '5';
  }
  if (work !== null && j.step === work.names.length && work.states.length === work.plan.length) finish(j);
  return cursor();
};

isolateGlobals.__adec_resume = () => runJob();

isolateGlobals.__adec_derive = (action, ctxJson, failedJson, name) => {
  const ctx = parse(ctxJson) as Context;
  const failed = parse(failedJson) as Record<string, string>;
  markFailed(ctx, failed);
  const computed: Record<string, unknown> = {};
  const newlyFailed: Record<string, string> = {};
  deriveOne(action, ctx, newlyFailed, name, computed);
  return stringify({ computed, failed: newlyFailed });
};

isolateGlobals.__adec_rules = (_action, ctxJson, failedJson, idsJson) => {
  const ctx = parse(ctxJson) as Context;
  markFailed(ctx, parse(failedJson) as Record<string, string>);
  deepFreeze(ctx);
  return stringify(rulesOf(ctx, (parse(idsJson) as string[]).map((id) => entries.get(id)!)));
};

// The module's static data, copied out once at load.
isolateGlobals.__adec_metadata = () =>
  stringify({
    abi_version: module._ABI_VERSION,
    world: module._WORLD,
    actions,
    outcome: module._RULE_OUTCOME ?? null,
    severity: module._RULE_SEVERITY,
    suppresses: module._RULE_SUPPRESSES ?? {},
    reads: module._RULE_READS ?? {},
    predicates: Object.keys(predicates),
  });

// The host calls every entry point boxed, an extension's too, so it looks them up by name after
// the seal. A box calls only what module code could call itself, so it stays. Defined, not
// assigned: an accessor the bundle put there first would take an assignment and hand the host
// a box of its own; defining fails the load if the bundle made the name unconfigurable.
const boxEntry: NonNullable<IsolateGlobals['__adec_box_entry']> = (name) => {
  const entry = (globalThis as unknown as Record<string, ((...args: readonly string[]) => string) | undefined>)[name];
  if (typeof entry !== 'function') throw new TypeError(`the isolate has no entry point ${name}`);
  return (args) => [entry(...args)];
};
defineProperty(globalThis, '__adec_box_entry', { value: boxEntry, writable: false, enumerable: false, configurable: false });

// Trusted extensions (e.g. the selection engine) receive the module and the evaluator's
// helpers, then the seal removes this hook.
isolateGlobals.__adec_extend = (install) => install(module, { messageOf, now });
isolateGlobals.__adec_seal = () => {
  delete isolateGlobals.__adec_extend;
  delete isolateGlobals.__adec_seal;
  freezeRealm(module);
};
