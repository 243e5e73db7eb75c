/**
 * How the selection extension calls module code and keeps what it returns: every call through
 * `call`, so a throw becomes an entry of `errors` and the cycle goes on; every value a later
 * function sees frozen, so no module function can change what another one reads.
 */
import type { ModuleFunction } from './selection-module.js';

const { stringify } = JSON;
const { freeze, isFrozen, defineProperties, getOwnPropertyDescriptors, getOwnPropertyNames, getOwnPropertyDescriptor } = Object;

/** One entry of the Selection's `errors` (selection-trace.ts). */
export interface CycleError {
  readonly stage: string;
  readonly source: string;
  readonly action_id: string | null;
  readonly message: string;
}

export type CallResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** One call of a module function: a throw becomes a recorded error, never a crash of the cycle. */
export type ModuleCall = (errors: CycleError[], stage: string, source: string, actionId: string | null, fn: ModuleFunction, args: readonly unknown[]) => CallResult;

export function describe(value: unknown): string {
  if (value === undefined || typeof value === 'number') return String(value);
  try {
    // JSON.stringify answers undefined for a function or a symbol, whatever its declared type says.
    const text = stringify(value) as string | undefined;
    return text ?? typeof value;
  } catch {
    return 'a value that cannot be described';
  }
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !isFrozen(value)) {
    freeze(value);
    for (const key of getOwnPropertyNames(value)) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) deepFreeze(descriptor.value);
    }
  }
  return value;
}

/** A frozen object holding the properties of each source; getters are copied, not called. */
export function snapshot(...sources: object[]): Readonly<Record<string, unknown>> {
  const view = {};
  for (const source of sources) defineProperties(view, getOwnPropertyDescriptors(source));
  return freeze(view);
}

export function record(errors: CycleError[], stage: string, source: string, actionId: string | null, message: string): void {
  errors.push({ stage, source, action_id: actionId, message });
}

export function moduleCaller(messageOf: (error: unknown) => string): ModuleCall {
  return (errors, stage, source, actionId, fn, args) => {
    try {
      return { ok: true, value: fn(...args) };
    } catch (error) {
      record(errors, stage, source, actionId, messageOf(error));
      return { ok: false };
    }
  };
}
