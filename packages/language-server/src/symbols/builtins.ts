/**
 * Names the language provides rather than the world: built-in functions (derived from the
 * compiler's registry, model/builtins.ts), the system attributes the runtime captures (the
 * checker's list and types, check-context.ts), the SEC envelope a skill reads, and the fields
 * every scenario candidate has; this file adds what hover says about them.
 */
import { BUILTIN_NAMES, builtin, formatType, isBuiltinName, resultText, SYSTEM_ATTRIBUTE_TYPES } from '@adec/compiler';
import type { WorldSymbol } from './world-symbol.js';

export const BUILTIN_FUNCTIONS: ReadonlyMap<string, WorldSymbol> = new Map(
  BUILTIN_NAMES.map((name): [string, WorldSymbol] => {
    const { parameters, result, doc } = builtin(name);
    const typeText = resultText(result);
    return [name, { kind: 'function', name, signature: `${name}(${parameters.join(', ')}): ${typeText}`, detail: `built-in function: ${doc}`, typeText }];
  }),
);

export function builtinFunction(name: string): WorldSymbol | undefined {
  return isBuiltinName(name) ? BUILTIN_FUNCTIONS.get(name) : undefined;
}

const SYSTEM_ATTRIBUTE_DOCS: ReadonlyMap<string, string> = new Map([
  ['request_time', 'when the request arrived, captured by the runtime'],
  ['request_id', 'the request id, captured by the runtime'],
  ['authenticated_caller', 'the caller the token names; absent without one'],
]);

export const SYSTEM_ATTRIBUTE_NAMES: readonly string[] = [...SYSTEM_ATTRIBUTE_TYPES.keys()];

const SYSTEM_ATTRIBUTES: ReadonlyMap<string, WorldSymbol> = new Map(
  [...SYSTEM_ATTRIBUTE_TYPES].map(([name, type]): [string, WorldSymbol] => {
    const typeText = formatType(type);
    const doc = SYSTEM_ATTRIBUTE_DOCS.get(name) ?? 'captured by the runtime';
    return [name, { kind: 'system-attribute', name, signature: `system ${name}: ${typeText}`, detail: `system attribute: ${doc}`, typeText }];
  }),
);

/** A system attribute the world did not declare, named in a test's `system { … }`. */
export function builtinSystemAttribute(name: string): WorldSymbol | undefined {
  return SYSTEM_ATTRIBUTES.get(name);
}

/** A built-in field of a root or a candidate: `decision_context.decision_id`, `action.action_id`. */
export function builtinField(name: string, type: string, detail: string, extra: Partial<WorldSymbol> = {}): WorldSymbol {
  return { kind: 'field', name, signature: `${name}: ${type}`, detail, typeText: type, ...extra };
}
