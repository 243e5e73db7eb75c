/**
 * Runs one action's derivations and predicates in a sandbox (ARCHITECTURE.md "Sandbox").
 *
 * Normal path: ONE crossing evaluates every derivation and rule, recording each result and
 * each exception separately, under a time limit that is the sum of their own limits.
 * Only when that crossing fails (a timeout, memory exhaustion) does the attribution pass run:
 * every derivation and then every rule again, one crossing each under its own limit, so the
 * failure is pinned on exactly the predicate that caused it and every other result is exact.
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
  call(entry: '__adec_evaluate' | '__adec_evaluate_batch' | '__adec_derive' | '__adec_rules', args: readonly string[], timeLimitMs: number, copyAllowanceMs: number): CrossingResult;
}

/** Rule results as the isolate encodes them (isolate-prelude.ts). */
interface WireRules {
  readonly states: string;
  readonly details: readonly (string | null)[];
}

const NOT_APPLICABLE: RuleEvaluation = { state: 'not_applicable' };
const UNMATCHED: RuleEvaluation = { state: 'unmatched' };

/**
 * The time limit of the one crossing: every derivation's and every rule's own limit, summed,
 * plus the time copying the context in may take (`copyAllowanceMs`), which is never taken from
 * the predicates' budget.
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

export function evaluateAction(sandbox: SandboxCalls, spec: ActionSpec, ctxJson: string): ActionEvaluation {
  const crossing = sandbox.call('__adec_evaluate', [spec.name, ctxJson], predicatesLimitMs(spec), copyAllowanceMs(ctxJson));
  if (!crossing.ok) return evaluateStepwise(sandbox, spec, ctxJson);
  return decodeEvaluation(parseAnswer(crossing.value), spec);
}

/**
 * Many decisions of one module in ONE crossing (a sandbox process's micro-batch): the isolate's
 * answer, a JSON array of wire evaluations for `decodeEvaluation`, or `undefined` when the
 * crossing failed and each decision must be evaluated on its own (`evaluateAction`), where each
 * gets its own full limit. The batch runs under the largest of its decisions' limits, not their
 * sum, so a predicate that never ends holds the decisions batched with it for no longer than one
 * decision's limit would.
 */
export function evaluateBatch(sandbox: SandboxCalls, specs: readonly ActionSpec[], ctxJsons: readonly string[]): string | undefined {
  const ctxLines = ctxJsons.join('\n');
  const limit = Math.max(...specs.map(predicatesLimitMs));
  const crossing = sandbox.call('__adec_evaluate_batch', [specs.map((spec) => spec.name).join('\n'), ctxLines], limit, copyAllowanceMs(ctxLines));
  return crossing.ok ? crossing.value : undefined;
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
  return {
    computed: wire.computed,
    failedDerivations: Object.entries(wire.failed).map(([attribute, message]) => ({ attribute, kind: 'exception', message })),
    rules: decodeRules(wire),
  };
}

type Wire = WireRules & { readonly computed: Record<string, unknown>; readonly failed: Record<string, string> };

/** The problem with an answer, or the answer typed. */
function checkWire(wire: unknown, rules: number, withDerivations: boolean): Wire | string {
  if (wire === MALFORMED_JSON) return 'its answer is not JSON';
  if (wire === null || typeof wire !== 'object') return 'its answer is not an object';
  const { states, details, computed = {}, failed = {} } = wire as Record<string, unknown>;
  if (typeof states !== 'string' || states.length !== rules || !/^[0-4]*$/.test(states)) return `its answer has no state (0-4) for each of the ${rules} rules`;
  const withDetail = states.replace(/[01]/g, '').length;
  if (!Array.isArray(details) || details.length !== withDetail || !details.every((d) => d === null || typeof d === 'string')) return 'its answer does not hold one reason or message per matched or failed rule';
  if (withDerivations && (!isRecord(computed) || !isRecord(failed) || !Object.values(failed).every((m) => typeof m === 'string'))) return 'its answer has malformed derivations';
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
    const crossing = sandbox.call('__adec_derive', [spec.name, ctxJson, JSON.stringify(failed), name], spec.predicateTimeoutMs, copyAllowanceMs(ctxJson));
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
    const crossing = sandbox.call('__adec_rules', [spec.name, derivedJson, failedJson, JSON.stringify([rule.id])], rule.timeoutMs, copyAllowance);
    if (!crossing.ok) return { state: 'errored', kind: crossing.kind, phase: null, message: crossing.message };
    const wire = checkWire(parseAnswer(crossing.value), 1, false);
    return typeof wire === 'string' ? malformed({ ...spec, rules: [rule] }, wire).rules[0]! : decodeRules(wire)[0]!;
  });
  return { computed, failedDerivations, rules };
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
      default:
        rules[i] = { state: 'errored', kind: 'exception', phase: wire.states[i] === '3' ? 'applies_when' : 'when', message: wire.details[detail++] ?? 'threw' };
    }
  }
  return rules;
}
