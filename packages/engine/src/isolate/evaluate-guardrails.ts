/** Stage 3 (engine README, "Selection semantics"): which candidates each fired guardrail rejects. */
import { describe, record, type CycleError, type ModuleCall } from './module-calls.js';
import type { CompiledGuardrail, CompiledScenario } from './selection-module.js';

const { hasOwn } = Object;
const { isFinite } = Number;

const GUARDRAILS = 'evaluate_guardrails';

/** A candidate action as the request lists it (normalized by the host). */
export interface Candidate {
  readonly action_id: string;
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface GuardedCandidates {
  readonly eligible: Candidate[];
  readonly trace: object;
}

// Whether a fired guardrail rejects one candidate. A function that fails rejects it.
function rejects(call: ModuleCall, guardrail: CompiledGuardrail, env: object, action: Candidate, errors: CycleError[]): boolean {
  const source = 'guardrail ' + guardrail.id;
  switch (guardrail.effect) {
    case 'block': {
      const result = call(errors, GUARDRAILS, source + ' predicate', action.action_id, guardrail.predicate!, [env, action]);
      return !result.ok || result.value === true;
    }
    case 'force':
      return action.type !== guardrail.action_type;
    case 'cap': {
      const value = hasOwn(action, guardrail.field!) ? action[guardrail.field!] : null;
      // A cap constrains the actions that have the field; the others pass it.
      if (typeof value !== 'number') return false;
      const limit = call(errors, GUARDRAILS, source + ' limit', action.action_id, guardrail.limit!, [env, action]);
      if (!limit.ok) return true;
      if (typeof limit.value !== 'number' || !isFinite(limit.value)) {
        record(errors, GUARDRAILS, source + ' limit', action.action_id, 'returned ' + describe(limit.value) + ', not a finite number');
        return true;
      }
      return value > limit.value;
    }
    default:
      // A module from a compiler with an effect this engine does not know: fail closed.
      record(errors, GUARDRAILS, source, action.action_id, 'has the effect ' + describe(guardrail.effect) + ', which this engine does not know');
      return true;
  }
}

export function evaluateGuardrails(call: ModuleCall, scenario: CompiledScenario, env: object, actions: readonly Candidate[], errors: CycleError[]): GuardedCandidates {
  const violations = actions.map((): string[] => []);
  const guardrails = scenario.guardrails.map((guardrail) => {
    const when = call(errors, GUARDRAILS, 'guardrail ' + guardrail.id + ' when', null, guardrail.when, [env]);
    const fired = !when.ok || when.value === true;
    const affected: string[] = [];
    if (fired) {
      actions.forEach((action, i) => {
        if (!rejects(call, guardrail, env, action, errors)) return;
        affected.push(action.action_id);
        violations[i]!.push(guardrail.id);
      });
    }
    return {
      id: guardrail.id,
      description: guardrail.description,
      effect: guardrail.effect,
      fired,
      reason_code: guardrail.id,
      affected_actions: affected,
      action_type: guardrail.effect === 'force' ? guardrail.action_type : null,
      field: guardrail.effect === 'cap' ? guardrail.field : null,
    };
  });
  const eligible = actions.filter((_, i) => violations[i]!.length === 0);
  const rejected: { action_id: string; violated_guardrails: string[] }[] = [];
  actions.forEach((action, i) => {
    if (violations[i]!.length > 0) rejected.push({ action_id: action.action_id, violated_guardrails: violations[i]! });
  });
  return { eligible, trace: { guardrails, eligible: eligible.map((action) => action.action_id), rejected } };
}
