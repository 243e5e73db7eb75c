/**
 * Names the language provides rather than the world: built-in functions (derived from the
 * compiler's registry, model/builtins.ts), the system attributes the runtime captures, the SEC
 * envelope a skill reads, and the fields every scenario candidate has. The last three mirror
 * the checker (check-context.ts, skill-scope.ts, candidate-action.ts).
 */
import { BUILTIN_NAMES, builtin, isBuiltinName, resultText } from '@adec/compiler';
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
