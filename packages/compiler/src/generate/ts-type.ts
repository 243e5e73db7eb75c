/**
 * World types as TypeScript types. `runtime` is what predicates see: timestamps and durations
 * are numbers of milliseconds (the runtime converts the wire text on entry). `wire` is what a
 * client sends (types.d.ts): ISO 8601 text for timestamps, `"18h"` text or milliseconds for
 * durations. An optional value is `T | null`, and the property holding it is also marked `?`
 * because a JSON body may omit it.
 */
import type { RecordField, Type } from '../model/index.js';
import { propertyKey, stringLiteral } from './naming.js';

export type ValueForm = 'runtime' | 'wire';

export function tsType(type: Type, form: ValueForm = 'runtime'): string {
  switch (type.kind) {
    case 'bool':
      return 'boolean';
    case 'int':
    case 'float':
      return 'number';
    case 'timestamp':
      return form === 'wire' ? 'string' : 'number';
    case 'duration':
      return form === 'wire' ? 'string | number' : 'number';
    case 'string':
      return 'string';
    case 'enum':
      return type.members.length === 0 ? 'never' : type.members.map((m) => stringLiteral(m)).join(' | ');
    case 'list': {
      const element = tsType(type.element, form);
      return /^[A-Za-z_$][\w$]*$/.test(element) || element.startsWith('{') ? `readonly ${element}[]` : `readonly (${element})[]`;
    }
    case 'record':
      return recordType(type.fields, form);
    case 'optional':
      return `${tsType(type.inner, form)} | null`;
    case 'null':
      return 'null';
    case 'error':
      throw new Error('adec bug: an error type reached code generation');
  }
}

export function isOptionalType(type: Type): boolean {
  return type.kind === 'optional' || type.kind === 'null';
}

/** One `readonly name?: T` member line per field, as used in interfaces and record types. */
export function propertySignature(name: string, type: Type, form: ValueForm = 'runtime'): string {
  return `readonly ${propertyKey(name)}${type.kind === 'optional' ? '?' : ''}: ${tsType(type, form)}`;
}

function recordType(fields: readonly RecordField[], form: ValueForm): string {
  if (fields.length === 0) return '{}';
  return `{ ${fields.map((f) => `${propertySignature(f.name, f.type, form)};`).join(' ')} }`;
}
