/**
 * Runs actions' derivations and predicates in a sandbox (ARCHITECTURE.md "Sandbox").
 *
 * Normal path: ONE crossing evaluates every derivation and rule of a batch of decisions (one,
 * in-process), recording each result and each exception separately, under the time limit of its
 * first step. A crossing stopped at its limit leaves its progress in the isolate
 * (isolate-prelude.ts), and the batch resumes where it stopped, under the limit of the step it
 * stopped in, now starting afresh. A step that has had twice its limit's worth of CPU time in
 * crossings it began without finishing is recorded as timed out, and the batch goes on past it.
 * CPU time, not wall time: on a loaded machine a crossing can be descheduled past its limit,
 * and that is no predicate's fault. Twice: a predicate's first run after a load also compiles
 * it, and a virtual machine's stolen time counts as CPU time; a clean-clone CI run under load
 * timed out a legitimate rule with once. So each predicate
 * has exactly its own limit, a predicate that never ends costs its decision its own limit (plus
 * what its crossing had run before it), and no time limit is paid per predicate; only what runs
 * long pays for crossings more.
 * Only when a crossing fails otherwise (memory exhaustion, or a stop that landed late) does the
 * attribution pass run: every derivation and then every rule again, one crossing each under its
 * own limit and the same CPU rule, so the failure is pinned on exactly the predicate that caused
 * it and every other result is exact.
 */
import type { ActionSpec } from '../module/module-metadata.js';
import type { CrossingFailureKind, CrossingResult } from './isolate-sandbox.js';

export type FailureKind = CrossingFailureKind;

export type RuleEvaluation =
  | { readonly state: 'not_applicable' }
  | { readonly state: 'unmatched' }
  | { readonly state: 'matched'; readonly reason: string | null }
  /** `phase` is null when the rule as a whole (filter and predicate) exceeded a limit. */
  | { readonly state: 'errored'; readonly kind: FailureKind; readonly phase: 'applies_when' | 'when' | null; readonly message: string };

export interface FailedDerivation {
  readonly attribute: string;
  readonly kind: FailureKind;
  readonly message: string;
}

export interface ActionEvaluation {
  /** Values of the computed attributes that were derived. */
  readonly computed: Readonly<Record<string, unknown>>;
  readonly failedDerivations: readonly FailedDerivation[];
  /** One per rule of the action, in evaluation order. */
  readonly rules: readonly RuleEvaluation[];
}

/**
 * An action the host did not evaluate: refused because its sandbox process was at its queue
 * limit, or given up on because the caller cancelled it or its deadline passed. `decide()`
 * answers it with a fail-safe YELLOW whose basis is the code.
 */
export interface Unevaluated {
  readonly unevaluated: 'OVERLOADED' | 'CANCELLED' | 'DEADLINE_EXCEEDED';
  readonly message: string;
}

export const DEADLINE_PASSED: Unevaluated = { unevaluated: 'DEADLINE_EXCEEDED', message: 'the decision passed its deadline before it was evaluated' };
const CANCELLED: Unevaluated = { unevaluated: 'CANCELLED', message: 'the caller cancelled the decision before it was evaluated' };

/** Why a decision whose caller's signal aborted was not evaluated: a `TimeoutError` reason is a deadline. */
export function abandonedBy(signal: AbortSignal): Unevaluated {
  return (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError' ? DEADLINE_PASSED : CANCELLED;
}

/** What evaluation needs from a sandbox: JSON text in, JSON text out, under a time limit. */
export interface SandboxCalls {
  call(entry: '__adec_evaluate_batch' | '__adec_cursor' | '__adec_skip' | '__adec_resume' | '__adec_derive' | '__adec_rules', args: readonly string[], timeLimitMs: number, copyAllowanceMs: number): CrossingResult;
}

/** Rule results as the isolate encodes them (isolate-prelude.ts). */
interface WireRules {
  readonly states: string;
  readonly details: readonly (string | null)[];
}

const NOT_APPLICABLE: RuleEvaluation = { state: 'not_applicable' };
const UNMATCHED: RuleEvaluation = { state: 'unmatched' };

/**
 * The most one decision's evaluation may take: every derivation's and every rule's own limit,
 * summed, plus the time copying the context in may take (`copyAllowanceMs`), which is never
 * taken from the predicates' budget. A supervisor's watchdog is built on it (process-evaluator.ts).
 */
export function crossingLimitMs(spec: ActionSpec, ctxJson: string): number {
  return predicatesLimitMs(spec) + copyAllowanceMs(ctxJson);
}

function predicatesLimitMs(spec: ActionSpec): number {
  let limit = spec.computed.length * spec.predicateTimeoutMs;
  for (const rule of spec.rules) limit += rule.timeoutMs;
  return limit;
}

/**
 * Parsing and freezing a context inside the isolate: 1 ms, plus 1 ms per 16 KiB of JSON (about
 * 16 MB/s, a tenth of what V8's JSON.parse does on this project's machines). Without it, a
 * request padded with megabytes made every predicate time out and a RED became a YELLOW.
 */
export function copyAllowanceMs(ctxJson: string): number {
  return 1 + Math.ceil(ctxJson.length / 16_384);
}

/** One decision: its batch of one, or the attribution pass if that crossing failed. */
export function evaluateAction(sandbox: SandboxCalls, spec: ActionSpec, ctxJson: string): ActionEvaluation {
  const answer = evaluateBatch(sandbox, [spec], [ctxJson]);
  if (answer === undefined) return evaluateStepwise(sandbox, spec, ctxJson);
  const answers = batchAnswers(answer, 1);
  return typeof answers === 'string' ? malformed(spec, answers) : decodeEvaluation(answers[0], spec);
}

/** Reading or moving a stopped batch's cursor is plain data work. */
const CURSOR_LIMIT_MS = 100;
/** How many of its limits' worth of CPU a step has without finishing before it is timed out. */
const STUCK_AFTER_LIMITS = 2;

/** The own limit of a step of `spec`: a derivation (in order), then a rule (in evaluation order). */
function stepLimitMs(spec: ActionSpec, step: number): number {
  return step < spec.computed.length ? spec.predicateTimeoutMs : (spec.rules[step - spec.computed.length]?.timeoutMs ?? spec.predicateTimeoutMs);
}

/**
 * Many decisions of one module (a sandbox process's micro-batch, or one decision) in as few
 * crossings as their predicates' limits allow: the isolate's answer, a JSON array of wire
 * evaluations for `decodeEvaluation`, or `undefined` when a crossing failed otherwise than by
 * running out of time, or was stopped late (a built-in that cannot be interrupted ran past the
 * limit, and the termination landed in whatever step came next, so the cursor does not show
 * which step overran), and each decision must be evaluated on its own: the attribution pass
 * then pins the failure on its step.
 */
export function evaluateBatch(sandbox: SandboxCalls, specs: readonly ActionSpec[], ctxJsons: readonly string[]): string | undefined {
  // The cursor is "decision step parsed" (isolate-prelude.ts).
  const limitAt = (cursor: string): [number, number] => {
    const [decision = 0, step = 0] = cursor.split(' ').map(Number);
    const spec = specs[decision];
    return spec === undefined ? [CURSOR_LIMIT_MS, 0] : [stepLimitMs(spec, step), copyAllowanceMs(ctxJsons[decision]!)];
  };
  let at = '0 0 0';
  /** CPU time the step at `at` has had in crossings that began with it. */
  let spentMs = 0;
  let [limit, allowance] = limitAt(at);
  let crossing = sandbox.call('__adec_evaluate_batch', [specs.map((spec) => spec.name).join('\n'), ctxJsons.join('\n')], limit, allowance);
  while (!crossing.ok && crossing.kind === 'timeout') {
    if (crossing.late) return undefined;
    const cursor = sandbox.call('__adec_cursor', [], CURSOR_LIMIT_MS, 0);
    if (!cursor.ok) return undefined;
    let now = cursor.value;
    spentMs = now === at ? spentMs + (crossing.cpuMs ?? limit) : 0;
    if (spentMs >= STUCK_AFTER_LIMITS * limit) {
      // Nothing finished in crossings that began with this step, and they had its limit of CPU twice.
      spentMs = 0;
      const skipped = sandbox.call('__adec_skip', [`exceeded its time limit of ${limit} ms`], CURSOR_LIMIT_MS, 0);
      if (!skipped.ok) return undefined;
      now = skipped.value;
    }
    at = now;
    [limit, allowance] = limitAt(at);
    crossing = sandbox.call('__adec_resume', [], limit, allowance);
  }
  return crossing.ok ? crossing.value : undefined;
}

/** Each decision's entry of a batch's answer, or what is wrong with it. */
export function batchAnswers(answer: string, count: number): readonly unknown[] | string {
  const answers = parseAnswer(answer);
  return Array.isArray(answers) && answers.length === count ? answers : `its answer is not a JSON array of ${count} evaluation${count === 1 ? '' : 's'}`;
}

/** The isolate's answer parsed, or the problem with it. */
function parseAnswer(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return MALFORMED_JSON;
  }
}

const MALFORMED_JSON = Symbol('not JSON');

/**
 * An evaluation as the isolate encodes it (isolate-prelude.ts: one state character per rule,
 * a reason or message per matched or failed rule), decoded and checked against the shape the
 * evaluator promises: the isolate runs an untrusted bundle, so its answer is data to validate,
 * not a typed value (a malformed one once made `decide()` throw). A malformed answer makes
 * every rule errored, saying what was wrong.
 */
export function decodeEvaluation(answer: unknown, spec: ActionSpec): ActionEvaluation {
  const wire = checkWire(answer, spec.rules.length, true);
  if (typeof wire === 'string') return malformed(spec, wire);
  const slow = wire.slow ?? [];
  return {
    computed: wire.computed,
    failedDerivations: Object.entries(wire.failed).map(([attribute, message]) => ({ attribute, kind: slow.includes(attribute) ? 'timeout' : 'exception', message })),
    rules: decodeRules(wire),
  };
}

type Wire = WireRules & { readonly computed: Record<string, unknown>; readonly failed: Record<string, string>; readonly slow?: readonly string[] };

/** The problem with an answer, or the answer typed. */
function checkWire(wire: unknown, rules: number, withDerivations: boolean): Wire | string {
  if (wire === MALFORMED_JSON) return 'its answer is not JSON';
  if (wire === null || typeof wire !== 'object') return 'its answer is not an object';
  const { states, details, computed = {}, failed = {}, slow = [] } = wire as Record<string, unknown>;
  if (typeof states !== 'string' || states.length !== rules || !/^[0-5]*$/.test(states)) return `its answer has no state (0-5) for each of the ${rules} rules`;
  const withDetail = states.replace(/[01]/g, '').length;
  if (!Array.isArray(details) || details.length !== withDetail || !details.every((d) => d === null || typeof d === 'string')) return 'its answer does not hold one reason or message per matched or failed rule';
  if (withDerivations && (!isRecord(computed) || !isRecord(failed) || !Object.values(failed).every((m) => typeof m === 'string') || !Array.isArray(slow) || !slow.every((name) => typeof name === 'string'))) {
    return 'its answer has malformed derivations';
  }
  return wire as Wire;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every rule errored: the sandbox's answer could not be used. */
function malformed(spec: ActionSpec, problem: string): ActionEvaluation {
  return everyRuleErrored(spec, 'exception', `the sandbox returned a malformed evaluation: ${problem}`);
}

/** An evaluation in which every rule errored with `message`: a fail-safe YELLOW that says why. */
export function everyRuleErrored(spec: ActionSpec, kind: FailureKind, message: string): ActionEvaluation {
  return { computed: {}, failedDerivations: [], rules: spec.rules.map((): RuleEvaluation => ({ state: 'errored', kind, phase: null, message })) };
}

/**
 * The attribution pass: each derivation, then each rule of `spec.rules`, in its own crossing
 * under its own limit. Also how a supervisor re-runs a subset of rules after a crash; `known`
 * names derivations that failed there (reading them throws their message).
 */
export function evaluateStepwise(sandbox: SandboxCalls, spec: ActionSpec, ctxJson: string, known: Readonly<Record<string, string>> = {}): ActionEvaluation {
  const ctx = JSON.parse(ctxJson) as Record<string, unknown>;
  const computed: Record<string, unknown> = {};
  // Derivations already known to fail (a supervisor found they kill the process): not run again.
  const failed: Record<string, string> = { ...known };
  const failedDerivations: FailedDerivation[] = [];
  for (const name of spec.computed) {
    if (Object.hasOwn(failed, name)) continue;
    const ctxJson = JSON.stringify(ctx);
    const crossing = callStep(sandbox, '__adec_derive', [spec.name, ctxJson, JSON.stringify(failed), name], spec.predicateTimeoutMs, copyAllowanceMs(ctxJson));
    const wire = crossing.ok ? readDerivation(crossing.value) : undefined;
    if (crossing.ok && wire !== undefined) {
      if (Object.hasOwn(wire.computed, name)) ctx[name] = computed[name] = wire.computed[name];
      else failedDerivations.push({ attribute: name, kind: 'exception', message: (failed[name] = typeof wire.failed[name] === 'string' ? wire.failed[name] : 'failed') });
    } else if (crossing.ok) {
      failedDerivations.push({ attribute: name, kind: 'exception', message: (failed[name] = 'the sandbox returned a malformed derivation') });
    } else {
      failed[name] = crossing.message;
      failedDerivations.push({ attribute: name, kind: crossing.kind, message: crossing.message });
    }
  }
  const derivedJson = JSON.stringify(ctx);
  const failedJson = JSON.stringify(failed);
  const copyAllowance = copyAllowanceMs(derivedJson);
  const rules = spec.rules.map((rule): RuleEvaluation => {
    const crossing = callStep(sandbox, '__adec_rules', [spec.name, derivedJson, failedJson, JSON.stringify([rule.id])], rule.timeoutMs, copyAllowance);
    if (!crossing.ok) return { state: 'errored', kind: crossing.kind, phase: null, message: crossing.message };
    const wire = checkWire(parseAnswer(crossing.value), 1, false);
    return typeof wire === 'string' ? malformed({ ...spec, rules: [rule] }, wire).rules[0]! : decodeRules(wire)[0]!;
  });
  return { computed, failedDerivations, rules };
}

/** Crossings one step of the attribution pass may take before a starved step is given up on anyway. */
const STEP_ATTEMPTS = 5;

/**
 * One step of the attribution pass in a crossing of its own, timed as the batch path times it:
 * out of time only once it has had STUCK_AFTER_LIMITS of its limit's worth of CPU without
 * finishing. A crossing the scheduler starved stopped having done less, and runs again (its
 * step reads nothing but its arguments), at most STEP_ATTEMPTS times.
 */
function callStep(sandbox: SandboxCalls, entry: '__adec_derive' | '__adec_rules', args: readonly string[], limitMs: number, allowanceMs: number): CrossingResult {
  let crossing = sandbox.call(entry, args, limitMs, allowanceMs);
  for (let attempt = 1, spentMs = 0; !crossing.ok && crossing.kind === 'timeout' && attempt < STEP_ATTEMPTS; attempt++) {
    spentMs += crossing.cpuMs ?? limitMs;
    if (spentMs >= STUCK_AFTER_LIMITS * limitMs) break;
    crossing = sandbox.call(entry, args, limitMs, allowanceMs);
  }
  return crossing;
}

function readDerivation(json: string): { readonly computed: Record<string, unknown>; readonly failed: Record<string, unknown> } | undefined {
  try {
    const wire: unknown = JSON.parse(json);
    if (!isRecord(wire) || !isRecord(wire['computed']) || !isRecord(wire['failed'])) return undefined;
    return { computed: wire['computed'], failed: wire['failed'] };
  } catch {
    return undefined;
  }
}

function decodeRules(wire: WireRules): RuleEvaluation[] {
  const rules = new Array<RuleEvaluation>(wire.states.length);
  let detail = 0;
  for (let i = 0; i < wire.states.length; i++) {
    switch (wire.states.charCodeAt(i)) {
      case 0x30:
        rules[i] = NOT_APPLICABLE;
        break;
      case 0x31:
        rules[i] = UNMATCHED;
        break;
      case 0x32:
        rules[i] = { state: 'matched', reason: wire.details[detail++] ?? null };
        break;
      case 0x35:
        rules[i] = { state: 'errored', kind: 'timeout', phase: null, message: wire.details[detail++] ?? 'ran out of its time limit' };
        break;
      default:
        rules[i] = { state: 'errored', kind: 'exception', phase: wire.states[i] === '3' ? 'applies_when' : 'when', message: wire.details[detail++] ?? 'threw' };
    }
  }
  return rules;
}
