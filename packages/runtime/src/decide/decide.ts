/**
 * The composition root of an adjudication (ARCHITECTURE.md "Composition root"; docs/spec/adjudication.md):
 * bind context → filter by applies_when → evaluate predicates in severity order, each isolated
 * → suppress → aggregate → error floor → respond with status, work_frame and metadata.
 */
import { randomUUID } from 'node:crypto';
import type { BindingProblem } from '../context/context-binder.js';
import { checkValueLimits, type LimitProblem } from '../context/request-limits.js';
import { isoTimestamp } from '../context/wire-values.js';
import type { IsolationChoice } from '../load/isolation-choice.js';
import type { LoadedModule } from '../load/loaded-module.js';
import type { ActionSpec, RuleSpec } from '../module/module-metadata.js';
import { abandonedBy, DEADLINE_PASSED, type ActionEvaluation, type Unevaluated } from '../sandbox/evaluate-action.js';
import { aggregate } from './aggregate.js';
import type { Decision, DecisionBasis, DecisionMetadata, ErroredPredicate, MatchedRuleOutcome, ModuleReference, PredicateTrace } from './decision.js';
import { mostRestrictive } from './status.js';
import { applySuppression } from './suppress.js';
import { deadlineSignal } from './deadline-signals.js';
import { traceValue } from './trace-values.js';
import { recordedFaults, takenAsRecorded, withRecordedFaults, type RecordedFaults, type TakenAsRecorded } from './recorded-faults.js';
import { buildWorkFrame, standardWorkFrame } from './work-frame.js';
import { messageOf } from '../error-message.js';

export interface DecisionRequest {
  readonly action: string;
  /** The supplied context, as the client sent it (wire form). */
  readonly context: unknown;
}

/**
 * System-generated values, captured by the host when the request arrives (never read from the
 * request body). Omitted values are generated: a fresh UUID, the current time, no caller.
 */
export interface EntryValues {
  readonly requestId?: string;
  /** Milliseconds since the epoch. */
  readonly requestTime?: number;
  readonly authenticatedCaller?: string | null;
}

/** How long the caller waits, and when it stops waiting. */
export interface DecideControl {
  /** The caller gave up: an unfinished decision is YELLOW with basis `CANCELLED`. */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds since the epoch: a decision unfinished by then is YELLOW with basis
   * `DEADLINE_EXCEEDED`. In-process evaluation runs to its end (under its predicates' limits)
   * once started, so there the deadline is checked before it starts.
   */
  readonly deadline?: number;
}

/**
 * A request that was not decided. `REQUEST_TOO_LARGE`: the context crossed one of the module's
 * request limits (request-limits.ts), named with the JSON path of the value that crossed it.
 */
export type DecideError =
  | { readonly code: 'UNKNOWN_ACTION' | 'INVALID_REQUEST'; readonly message: string }
  | { readonly code: 'REQUEST_TOO_LARGE'; readonly message: string; readonly limit: LimitProblem };

export type DecideResult = { readonly ok: true; readonly decision: Decision } | { readonly ok: false; readonly error: DecideError };

/**
 * Decides `request`. Never throws and never rejects, whatever it is given: a request that names
 * no action is an `INVALID_REQUEST` error value, one over a request limit a `REQUEST_TOO_LARGE`
 * error value, and any fault after the action is known (a getter that throws, a sandbox that
 * answers nonsense, a module unloaded mid-decision, a bug) is a fail-safe YELLOW with basis
 * `DECIDE_FAULT` whose errored predicates say what happened. A decision the host did not
 * finish is a YELLOW too, with basis `OVERLOADED` (its sandbox process was at its queue limit),
 * `CANCELLED` or `DEADLINE_EXCEEDED` (see `control`).
 *
 * Over a limit is a refusal, never a decision: a YELLOW there made padding a request with
 * megabytes a way to turn a RED into a YELLOW without any rule seeing the request.
 */
export function decide(module: LoadedModule, request: DecisionRequest, entry: EntryValues = {}, control: DecideControl = {}): Promise<DecideResult> {
  return decideWith(module, request, entry, control, undefined);
}

export type ReplayResult =
  | { readonly ok: true; readonly decision: Decision; readonly takenAsRecorded: readonly TakenAsRecorded[] }
  | Extract<DecideResult, { ok: false }>;

/**
 * Decides `request` again as `recorded` was decided (same module, request and entry values),
 * taking what the machine did to the recording as given (recorded-faults.ts): its answer is
 * identical to `recorded` when the logic is.
 */
export async function replayDecision(module: LoadedModule, request: DecisionRequest, entry: EntryValues, recorded: Decision): Promise<ReplayResult> {
  const action = requestedAction(request);
  const spec = typeof action === 'string' ? module.metadata.actions.get(action) : undefined;
  const faults = spec === undefined ? undefined : recordedFaults(spec, recorded);
  const replayed = await decideWith(module, request, entry, {}, faults);
  return replayed.ok ? { ok: true, decision: replayed.decision, takenAsRecorded: faults === undefined ? [] : takenAsRecorded(faults) } : replayed;
}

/** The action `request` names, read as `unknown`: a host may hand over whatever it parsed. */
function requestedAction(request: unknown): unknown {
  return typeof request === 'object' && request !== null ? (request as { action?: unknown }).action : undefined;
}

function decideWith(module: LoadedModule, request: DecisionRequest, entry: EntryValues, control: DecideControl, faults: RecordedFaults | undefined): Promise<DecideResult> {
  let spec: ActionSpec | undefined;
  let header: Header | undefined;
  try {
    const action = requestedAction(request);
    if (typeof action !== 'string') return Promise.resolve(invalidRequest(`a request names its action as a string, found ${typeof action}`));
    spec = module.metadata.actions.get(action);
    if (spec === undefined) {
      const known = [...module.metadata.actions.keys()].join(', ') || 'none';
      const { org, domain, version } = module.metadata.world;
      return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_ACTION', message: `module ${org}/${domain}@${version} has no action \`${action.slice(0, 200)}\` (actions: ${known})` } });
    }
    const requestId = entry.requestId ?? randomUUID();
    const requestTime = entry.requestTime ?? Date.now();
    header = { request_id: requestId, request_time: isoTimestamp(requestTime), module: moduleReference(module, spec) };

    // A decision recorded when over a limit was a YELLOW is replayed as it was (recorded-faults.ts).
    if (faults?.overLimit !== undefined) return Promise.resolve({ ok: true, decision: refuseContext(spec, faults.overLimit, header, 'REQUEST_LIMIT') });
    // Before anything else reads the context: its shape and size are bounded.
    const overLimit = checkValueLimits(request.context, module.requestLimits);
    if (overLimit !== undefined) return Promise.resolve(requestTooLarge(overLimit));
    const bound = module.binders.get(spec.name)!(request.context);
    if (!bound.ok) return Promise.resolve({ ok: true, decision: refuseContext(spec, bound.problems, header, 'CONTEXT_INVALID') });

    if (faults?.unevaluated !== undefined) return Promise.resolve({ ok: true, decision: unfinished(spec, header, faults.unevaluated) });
    const ctx = bound.values;
    const system: Record<string, unknown> = { request_time: requestTime, request_id: requestId, authenticated_caller: entry.authenticatedCaller ?? null };
    for (const name of spec.system) ctx[name] = system[name] ?? null;
    // In-process evaluation is synchronous: composing right away spares a hop through the
    // microtask queue, a measurable share of a decision that takes microseconds.
    if (control.deadline !== undefined && control.deadline <= Date.now()) return Promise.resolve({ ok: true, decision: unfinished(spec, header, DEADLINE_PASSED) });
    const signal = controlSignal(control);
    if (signal?.aborted) return Promise.resolve({ ok: true, decision: unfinished(spec, header, abandonedBy(signal)) });
    const evaluation = module.evaluator.evaluate(spec, crossingJson(ctx, spec.reads), signal && { signal });
    if (evaluation instanceof Promise) {
      const [known, knownHeader] = [spec, header];
      return evaluation
        .then((done): DecideResult => ({ ok: true, decision: 'unevaluated' in done ? unfinished(known, knownHeader, done) : compose(known, ctx, asRecorded(known, done, faults), knownHeader) }))
        .catch((error: unknown) => faulted(module, known, knownHeader, error));
    }
    return Promise.resolve({ ok: true, decision: compose(spec, ctx, asRecorded(spec, evaluation, faults), header) });
  } catch (error) {
    return Promise.resolve(spec === undefined ? invalidRequest(`the request could not be read: ${messageOf(error)}`) : faulted(module, spec, header, error));
  }
}

/** The evaluation, with a replay's recorded faults in place. */
function asRecorded(spec: ActionSpec, evaluation: ActionEvaluation, faults: RecordedFaults | undefined): ActionEvaluation {
  return faults === undefined ? evaluation : withRecordedFaults(spec, evaluation, faults);
}

function invalidRequest(message: string): DecideResult {
  return { ok: false, error: { code: 'INVALID_REQUEST', message } };
}

function requestTooLarge(limit: LimitProblem): DecideResult {
  return { ok: false, error: { code: 'REQUEST_TOO_LARGE', message: `the request was not decided: ${limit.message}`, limit } };
}

/** A fault once the action is known: YELLOW, every rule errored with what happened, no throw. */
function faulted(module: LoadedModule, spec: ActionSpec, header: Header | undefined, error: unknown): DecideResult {
  const safeHeader = header ?? { request_id: randomUUID(), request_time: isoTimestamp(Date.now()), module: moduleReference(module, spec) };
  return { ok: true, decision: withoutEvaluation(spec, safeHeader, 'DECIDE_FAULT', 'exception', `the decision failed: ${messageOf(error)}`) };
}

/** A decision the host did not finish: YELLOW with the reason as its basis, every rule not run. */
function unfinished(spec: ActionSpec, header: Header, why: Unevaluated): Decision {
  return withoutEvaluation(spec, header, why.unevaluated, 'not_run', why.message);
}

/** A YELLOW on `basis` with no evaluation to compose: every rule is errored with `kind` and `message`. */
function withoutEvaluation(spec: ActionSpec, header: Header, basis: DecisionBasis, kind: ErroredPredicate['kind'], message: string): Decision {
  return {
    status: 'YELLOW',
    work_frame: buildWorkFrame('YELLOW', spec.name, spec.workFrames.YELLOW, []),
    decision_metadata: {
      matched_rules: [],
      matched_rule_outcomes: [],
      suppression_chain: [],
      aggregation_outcome: { mode: spec.aggregation.mode, status: 'YELLOW', winning_rule: null, tier: null, basis, error_floor_applied: false },
      predicate_traces: [],
      errored_predicates: spec.rules.map((rule) => ({ rule_id: rule.id, kind, phase: null, message })),
      errored_derivations: [],
      context_errors: [],
      request_id: header.request_id,
      request_time: header.request_time,
      module: header.module,
    },
  };
}

/** The caller's signal and deadline as one signal (none when neither is given). */
function controlSignal({ signal, deadline }: DecideControl): AbortSignal | undefined {
  if (deadline === undefined) return signal;
  const expiry = deadlineSignal(deadline);
  return signal === undefined ? expiry : AbortSignal.any([signal, expiry]);
}

// Copied field by field into each decision: an object spread here costs more than all the traces.
type Header = Pick<DecisionMetadata, 'request_id' | 'request_time' | 'module'>;

const moduleReferences = new WeakMap<ActionSpec, { readonly isolation: IsolationChoice; readonly reference: ModuleReference }>();

/**
 * The same for every decision of the action while its module runs where it does (a spec
 * belongs to one module; the loader gives a module whose code its verifier refused a new
 * isolation choice, load/module-loader.ts): built once per choice, shared, frozen.
 */
function moduleReference(module: LoadedModule, spec: ActionSpec): ModuleReference {
  const cached = moduleReferences.get(spec);
  if (cached?.isolation === module.isolation) return cached.reference;
  const { org, domain, world, version } = module.metadata.world;
  const isolation = Object.freeze({ mode: module.isolation.mode, reason: module.isolation.reason });
  const reference = Object.freeze({ org, domain, world, version, action: spec.name, abi_version: module.metadata.abiVersion, module_hash: module.moduleHash, isolation });
  moduleReferences.set(spec, { isolation: module.isolation, reference });
  return reference;
}

/**
 * Invalid or missing supplied values: YELLOW, gather evidence and retry, no predicate run
 * (`CONTEXT_INVALID`; `REQUEST_LIMIT` only to replay a decision recorded as one).
 */
function refuseContext(spec: ActionSpec, problems: readonly BindingProblem[], header: Header, basis: 'CONTEXT_INVALID' | 'REQUEST_LIMIT'): Decision {
  const missing = [...new Set(problems.map((problem) => problem.attribute))];
  return {
    status: 'YELLOW',
    work_frame: buildWorkFrame('YELLOW', spec.name, spec.workFrames.YELLOW, missing),
    decision_metadata: {
      matched_rules: [],
      matched_rule_outcomes: [],
      suppression_chain: [],
      aggregation_outcome: {
        mode: spec.aggregation.mode,
        status: 'YELLOW',
        winning_rule: null,
        tier: null,
        basis,
        error_floor_applied: false,
      },
      predicate_traces: [],
      errored_predicates: [],
      errored_derivations: [],
      context_errors: problems,
      request_id: header.request_id,
      request_time: header.request_time,
      module: header.module,
    },
  };
}

function compose(spec: ActionSpec, ctx: Record<string, unknown>, evaluation: ActionEvaluation, header: Header): Decision {
  // ctx is this request's own bound copy: the computed values join it for the traces.
  const values = Object.assign(ctx, evaluation.computed);
  const matched: RuleSpec[] = [];
  const reasons: (string | null)[] = [];
  const errored: ErroredPredicate[] = [];
  const traces = new Array<PredicateTrace>(spec.rules.length);
  const inputs = spec.readSets.map((names) => inputsOf(names, values, spec.durations));
  for (let i = 0; i < spec.rules.length; i++) {
    const rule = spec.rules[i]!;
    const result = evaluation.rules[i]!;
    if (result.state === 'matched') {
      matched.push(rule);
      reasons.push(result.reason);
    } else if (result.state === 'errored') {
      errored.push({ rule_id: rule.id, kind: result.kind, phase: result.phase, message: result.message });
    }
    traces[i] = { rule_id: rule.id, result: result.state, inputs: inputs[rule.readSet]! };
  }

  const suppression = applySuppression(matched);
  const outcome = aggregate(spec.aggregation, suppression.effective);
  const failed = errored.length > 0 || evaluation.failedDerivations.length > 0;
  const status = failed ? mostRestrictive(outcome.status, 'YELLOW') : outcome.status;
  const matchedOutcomes = matched.map(
    (rule, i): MatchedRuleOutcome => ({ rule_id: rule.id, outcome: rule.outcome, severity: rule.severity, reason: reasons[i] ?? null, suppressed_by: suppression.suppressedBy.get(rule.id) ?? null }),
  );
  return {
    status,
    work_frame: standardWorkFrame(spec, status),
    decision_metadata: {
      matched_rules: matched.map((rule) => rule.id),
      matched_rule_outcomes: matchedOutcomes,
      suppression_chain: suppression.chain,
      aggregation_outcome: {
        mode: outcome.mode,
        status: outcome.status,
        winning_rule: outcome.winning_rule,
        tier: outcome.tier,
        basis: outcome.basis,
        error_floor_applied: status !== outcome.status,
      },
      predicate_traces: traces,
      errored_predicates: errored,
      errored_derivations: evaluation.failedDerivations,
      context_errors: [],
      request_id: header.request_id,
      request_time: header.request_time,
      module: header.module,
    },
  };
}

/**
 * The context as it crosses into the sandbox: only the attributes the action's rules and
 * derivations read, so attributes a caller pads a request with cost the predicates nothing.
 */
function crossingJson(ctx: Readonly<Record<string, unknown>>, reads: readonly string[] | undefined): string {
  if (reads === undefined) return JSON.stringify(ctx);
  const crossing = Object.create(null) as Record<string, unknown>;
  for (const name of reads) if (Object.hasOwn(ctx, name)) crossing[name] = ctx[name];
  return JSON.stringify(crossing);
}

/**
 * The values of one read set, shared by the traces of every rule that reads it, hence frozen;
 * durations as ISO 8601 (trace-values.ts).
 */
function inputsOf(names: readonly string[], values: Readonly<Record<string, unknown>>, durations: ActionSpec['durations']): Readonly<Record<string, unknown>> {
  const inputs: Record<string, unknown> = {};
  for (const name of names) {
    if (!Object.hasOwn(values, name)) continue;
    const shape = durations.size === 0 ? undefined : durations.get(name);
    inputs[name] = shape === undefined ? values[name] : traceValue(values[name], shape);
  }
  return Object.freeze(inputs);
}
