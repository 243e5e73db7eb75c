/** Stage 2 (engine README, "Selection semantics"): each state value derived in order from the signals and the state before it. */
import { deepFreeze, snapshot, type CycleError, type ModuleCall } from './module-calls.js';
import type { CompiledScenario } from './selection-module.js';

const { defineProperty } = Object;

export interface DerivedState {
  /** The state as later functions read it: a failed value throws when read. */
  readonly state: object;
  readonly trace: { readonly state: Record<string, unknown>; readonly failed_state: string[] };
}

const failedReader = (name: string, message: string): PropertyDescriptor => ({
  get() {
    throw new Error('reads state `' + name + '`, whose derivation failed: ' + message);
  },
  enumerable: true,
});

export function deriveState(call: ModuleCall, scenario: CompiledScenario, signals: unknown, errors: CycleError[]): DerivedState {
  const state = {};
  const values: Record<string, unknown> = {};
  const failed: string[] = [];
  for (const entry of scenario.state) {
    const result = call(errors, 'derive_state', 'state ' + entry.name, null, entry.derive, [signals, snapshot(state)]);
    if (result.ok) {
      const value = deepFreeze(result.value === undefined ? null : result.value);
      defineProperty(state, entry.name, { value, enumerable: true });
      values[entry.name] = value;
    } else {
      failed.push(entry.name);
      defineProperty(state, entry.name, failedReader(entry.name, errors[errors.length - 1]!.message));
    }
  }
  return { state, trace: { state: values, failed_state: failed } };
}
