/**
 * Member names generated code may not read, even where a world names an attribute or field so:
 * each reaches a prototype, a function's code or its caller (`ctx.constructor` is `Object`,
 * `x.__proto__` a shared prototype, `f.caller` a frame). Data keys may be any name: an object
 * literal's key only defines a property (a plain `__proto__` key is refused by data-literal.ts).
 * A bundle that reads one of these is not proven, and the host runs it in a sandbox process.
 */
import { OBJECT_PROTOTYPE_NAMES } from '@adec/abi';
import type { Identifier } from 'acorn';

const REFUSED_MEMBER_NAMES: ReadonlySet<string> = new Set([
  // Every property of Object.prototype: each is a function, the prototype or its accessors.
  ...OBJECT_PROTOTYPE_NAMES,
  // What a function reaches: its prototype, its caller and arguments, itself rebound.
  'prototype',
  'caller',
  'callee',
  'arguments',
  'apply',
  'bind',
  'call',
]);

export function isRefusedMemberName(name: string): boolean {
  return REFUSED_MEMBER_NAMES.has(name);
}

/**
 * Whether the identifier is written as its name: a `\u0065val` is the name `eval` to the engine
 * and text that hides it to a reader; generated code never escapes a name.
 */
export function isWrittenPlainly(identifier: Identifier): boolean {
  return identifier.end - identifier.start === identifier.name.length;
}
