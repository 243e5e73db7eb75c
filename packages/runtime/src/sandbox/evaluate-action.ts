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

/** What evaluation needs from a sandbox: JSON text in, JSON text out, under a time limit. */
export interface SandboxCalls {
  call(entry: '__adec_evaluate' | '__adec_derive' | '__adec_rules', args: readonly string[], timeLimitMs: number, copyAllowanceMs: number): CrossingResult;
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
  const wire = JSON.parse(crossing.value) as WireRules & { computed: Record<string, unknown>; failed: Record<string, string> };
  return {
    computed: wire.computed,
    failedDerivations: Object.entries(wire.failed).map(([attribute, message]) => ({ attribute, kind: 'exception', message })),
    rules: decodeRules(wire),
  };
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
    if (crossing.ok) {
      const wire = JSON.parse(crossing.value) as { computed: Record<string, unknown>; failed: Record<string, string> };
      if (Object.hasOwn(wire.computed, name)) ctx[name] = computed[name] = wire.computed[name];
      else failedDerivations.push({ attribute: name, kind: 'exception', message: (failed[name] = wire.failed[name] ?? 'failed') });
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
    return decodeRules(JSON.parse(crossing.value) as WireRules)[0]!;
  });
  return { computed, failedDerivations, rules };
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
