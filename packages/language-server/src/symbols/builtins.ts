/**
 * Names the language provides rather than the world: built-in functions, the system
 * attributes the runtime captures, the SEC envelope a skill reads, and the fields every
 * scenario candidate has. They mirror the checker (check-builtins.ts, check-context.ts,
 * skill-scope.ts, candidate-action.ts); a test pins the function list against it.
 */
import type { WorldSymbol } from './world-symbol.js';

interface FunctionDoc {
  readonly parameters: string;
  readonly result: string;
  readonly doc: string;
}

const FUNCTIONS: Readonly<Record<string, FunctionDoc>> = {
  clamp: { parameters: 'value, min, max', result: 'int | float', doc: '`value` limited to `[min, max]`; int when every argument is int' },
  min: { parameters: 'a, b', result: 'int | float', doc: 'the smaller of two numbers; int when both are int' },
  max: { parameters: 'a, b', result: 'int | float', doc: 'the larger of two numbers; int when both are int' },
  abs: { parameters: 'x', result: 'int | float', doc: 'the absolute value of a number' },
  round: { parameters: 'x', result: 'int', doc: 'the nearest whole number' },
  floor: { parameters: 'x', result: 'int', doc: 'the largest whole number not above `x`' },
  ceil: { parameters: 'x', result: 'int', doc: 'the smallest whole number not below `x`' },
  lower: { parameters: 's', result: 'string', doc: 'the string in lower case' },
  upper: { parameters: 's', result: 'string', doc: 'the string in upper case' },
  len: { parameters: 'x', result: 'int', doc: 'the length of a string or a list' },
  in_days: { parameters: 'd', result: 'float', doc: 'a duration as a number of days: `in_days(36h)` is 1.5' },
  in_hours: { parameters: 'd', result: 'float', doc: 'a duration as a number of hours' },
  in_minutes: { parameters: 'd', result: 'float', doc: 'a duration as a number of minutes' },
  in_seconds: { parameters: 'd', result: 'float', doc: 'a duration as a number of seconds' },
  days: { parameters: 'n', result: 'duration', doc: 'a duration of `n` days, to the nearest millisecond: `days(1.5)` is 36h' },
  hours: { parameters: 'n', result: 'duration', doc: 'a duration of `n` hours, to the nearest millisecond' },
  minutes: { parameters: 'n', result: 'duration', doc: 'a duration of `n` minutes, to the nearest millisecond' },
  seconds: { parameters: 'n', result: 'duration', doc: 'a duration of `n` seconds, to the nearest millisecond' },
};

export const BUILTIN_FUNCTIONS: ReadonlyMap<string, WorldSymbol> = new Map(
  Object.entries(FUNCTIONS).map(([name, f]) => [
    name,
    { kind: 'function', name, signature: `${name}(${f.parameters}): ${f.result}`, detail: `built-in function: ${f.doc}`, typeText: f.result },
  ]),
);

export function builtinFunction(name: string): WorldSymbol | undefined {
  return Object.hasOwn(FUNCTIONS, name) ? BUILTIN_FUNCTIONS.get(name) : undefined;
}

const SYSTEM_ATTRIBUTES: Readonly<Record<string, { type: string; doc: string }>> = {
  request_time: { type: 'timestamp', doc: 'when the request arrived, captured by the runtime' },
  request_id: { type: 'string', doc: 'the request id, captured by the runtime' },
  authenticated_caller: { type: 'string?', doc: 'the caller the token names; absent without one' },
};

export const SYSTEM_ATTRIBUTE_NAMES: readonly string[] = Object.keys(SYSTEM_ATTRIBUTES);

/** A system attribute the world did not declare, named in a test's `system { … }`. */
export function builtinSystemAttribute(name: string): WorldSymbol | undefined {
  if (!Object.hasOwn(SYSTEM_ATTRIBUTES, name)) return undefined;
  const attribute = SYSTEM_ATTRIBUTES[name]!;
  return { kind: 'system-attribute', name, signature: `system ${name}: ${attribute.type}`, detail: `system attribute: ${attribute.doc}`, typeText: attribute.type };
}

/** A built-in field of a root or a candidate: `decision_context.decision_id`, `action.action_id`. */
export function builtinField(name: string, type: string, detail: string, extra: Partial<WorldSymbol> = {}): WorldSymbol {
  return { kind: 'field', name, signature: `${name}: ${type}`, detail, typeText: type, ...extra };
}
