/**
 * The keys of generated object literals: a name or a string (or number) literal, each defining
 * a plain data property. A key named `__proto__` is written `["__proto__"]` by the generator
 * (compiler generate/naming.ts `propertyKey`), since a plain `__proto__:` sets the prototype;
 * no other computed key, no method, getter, setter or shorthand is generated.
 */
import type { Property } from 'acorn';
import { isWrittenPlainly } from './member-names.js';
import { refusal, type Refusal } from './refusal.js';

const PROTO = '__proto__';

/** The property's key, or why it is not a key generated code writes. */
export function dataKeyName(property: Property): string | Refusal {
  if (property.kind !== 'init') return refusal(property, `a ${property.kind === 'get' ? 'getter' : 'setter'} is not generated code`);
  if (property.method) return refusal(property, 'a method is not generated code');
  if (property.shorthand) return refusal(property, 'a shorthand property is not generated code');
  const key = property.key;
  if (property.computed) {
    if (key.type === 'Literal' && key.value === PROTO) return PROTO;
    return refusal(key, `a computed key other than \`["${PROTO}"]\` is not generated code`);
  }
  let name: string;
  if (key.type === 'Identifier' && isWrittenPlainly(key)) name = key.name;
  else if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')) name = String(key.value);
  else return refusal(key, 'a key written with escapes is not generated code');
  if (name === PROTO) return refusal(key, `a plain \`${PROTO}\` key sets the prototype; generated code writes \`["${PROTO}"]\``);
  return name;
}
