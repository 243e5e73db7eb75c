/**
 * What the machine did to a recorded decision, which its replay takes as given (docs/spec/selection.md,
 * stage 9). A replay re-runs the logic; it cannot re-run the machine. A predicate or derivation
 * that ran out of its time or heap, or whose sandbox process died, and a decision the host did
 * not evaluate (overloaded, cancelled, past its deadline), say what the host was doing then;
 * replayed on a quiet host they would come out otherwise and make identical logic look
 * different. So those results are replayed as recorded, and named in the replay's report, and
 * everything else is derived again and compared.
 *
 * A decision recorded as a YELLOW with basis `REQUEST_LIMIT` (what a host answered a request
 * over its limits before such a request became a `REQUEST_TOO_LARGE` refusal) is taken as
 * recorded too: the limits are the host's configuration, not the world's logic, and no rule ran.
 *
 * A rule that read a derivation taken as recorded failed because of it, and is taken with it.
 * When any derivation is taken, so are the others that failed: a derivation that read the one
 * that ran out failed with an exception, and which one it read is not recorded.
 */
import type { BindingProblem } from '../context/context-binder.js';
import type { ActionSpec } from '../module/module-metadata.js';
import type { ActionEvaluation, FailedDerivation, RuleEvaluation, Unevaluated } from '../sandbox/evaluate-action.js';
import type { Decision, ErroredPredicate } from './decision.js';

export interface RecordedFaults {
  /** The recorded decision was not evaluated, and why. */
  readonly unevaluated: Unevaluated | undefined;
  /** The recorded decision refused its request as over a limit (basis `REQUEST_LIMIT`): its context errors. */
  readonly overLimit: readonly BindingProblem[] | undefined;
  readonly derivations: readonly FailedDerivation[];
  /** By rule id. */
  readonly rules: ReadonlyMap<string, RuleEvaluation & { readonly state: 'errored' }>;
}

/** A part of a decision its replay took as recorded. */
export interface TakenAsRecorded {
  readonly part: 'decision' | 'derivation' | 'rule';
  /** The derivation's attribute or the rule's id; null for the decision. */
  readonly name: string | null;
  /** The fault's kind, or the decision's basis. */
  readonly kind: string;
}

const MACHINE_FAULTS: ReadonlySet<string> = new Set(['timeout', 'memory', 'crash', 'not_run']);

/**
 * True for a failure the machine caused (a time limit, a heap, a process that died, a decision
 * not run), not the logic: a replay takes it as recorded, and meeting one the recording did not
 * is a reason to replay again (the server's replay).
 */
export function isMachineFault(kind: string): boolean {
  return MACHINE_FAULTS.has(kind);
}
const UNEVALUATED: ReadonlySet<string> = new Set<Unevaluated['unevaluated']>(['OVERLOADED', 'CANCELLED', 'DEADLINE_EXCEEDED']);

/** The machine's faults in `recorded`, a decision of `spec`'s action (read defensively: it comes from storage). */
export function recordedFaults(spec: ActionSpec, recorded: Decision): RecordedFaults {
  const metadata = (recorded as Partial<Decision> | null)?.decision_metadata as Partial<Decision['decision_metadata']> | undefined;
  const basis = metadata?.aggregation_outcome?.basis;
  const errored = objectsIn<ErroredPredicate>(metadata?.errored_predicates);
  if (typeof basis === 'string' && UNEVALUATED.has(basis)) {
    const message = errored[0]?.message;
    return { unevaluated: { unevaluated: basis as Unevaluated['unevaluated'], message: typeof message === 'string' ? message : basis }, overLimit: undefined, derivations: [], rules: new Map() };
  }
  if (basis === 'REQUEST_LIMIT') return { unevaluated: undefined, overLimit: objectsIn<BindingProblem>(metadata?.context_errors), derivations: [], rules: new Map() };
  const failedDerivations = objectsIn<FailedDerivation>(metadata?.errored_derivations);
  const derivations = failedDerivations.some((failed) => isMachineFault(failed.kind)) ? failedDerivations : [];
  const takenAttributes = new Set(derivations.map((failed) => failed.attribute));
  const readsTaken = new Set(spec.rules.filter((rule) => spec.readSets[rule.readSet]?.some((name) => takenAttributes.has(name))).map((rule) => rule.id));
  const rules = new Map<string, RuleEvaluation & { state: 'errored' }>();
  for (const error of errored) {
    // A rule's `not_run` only comes with an unevaluated decision, answered above.
    if (isMachineFault(error.kind) || readsTaken.has(error.rule_id)) rules.set(error.rule_id, { state: 'errored', kind: error.kind as FailedDerivation['kind'], phase: error.phase, message: error.message });
  }
  return { unevaluated: undefined, overLimit: undefined, derivations, rules };
}

/** The objects among `value`'s elements when it is an array (a stored record may hold anything). */
function objectsIn<T>(value: unknown): T[] {
  return Array.isArray(value) ? value.filter((element): element is T => typeof element === 'object' && element !== null) : [];
}

/** `evaluation` with the recorded faults in place of what the replay's machine did. */
export function withRecordedFaults(spec: ActionSpec, evaluation: ActionEvaluation, faults: RecordedFaults): ActionEvaluation {
  if (faults.derivations.length === 0 && faults.rules.size === 0) return evaluation;
  const failedNames = new Set(faults.derivations.map((failed) => failed.attribute));
  const computed = Object.fromEntries(Object.entries(evaluation.computed).filter(([name]) => !failedNames.has(name)));
  return {
    computed,
    failedDerivations: faults.derivations.length > 0 ? faults.derivations : evaluation.failedDerivations,
    rules: spec.rules.map((rule, i) => faults.rules.get(rule.id) ?? evaluation.rules[i]!),
  };
}

/** What a replay with `faults` took as recorded, for its report. */
export function takenAsRecorded(faults: RecordedFaults): TakenAsRecorded[] {
  if (faults.unevaluated !== undefined) return [{ part: 'decision', name: null, kind: faults.unevaluated.unevaluated }];
  if (faults.overLimit !== undefined) return [{ part: 'decision', name: null, kind: 'REQUEST_LIMIT' }];
  return [
    ...faults.derivations.map((failed): TakenAsRecorded => ({ part: 'derivation', name: failed.attribute, kind: failed.kind })),
    ...[...faults.rules].map(([id, error]): TakenAsRecorded => ({ part: 'rule', name: id, kind: error.kind })),
  ];
}
