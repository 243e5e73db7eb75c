/**
 * World types as TypeScript types of the values predicates see at run time. Timestamps and
 * durations are numbers of milliseconds there (the runtime converts the wire text on entry);
 * an optional value is `T | null`, and the property holding it is also marked `?` because a
 * JSON body may omit it.
 */
import type { RecordField, Type } from '../model/index.js';
import { propertyKey } from './naming.js';

export function tsType(type: Type): string {
  switch (type.kind) {
    case 'bool':
      return 'boolean';
    case 'int':
    case 'float':
    case 'timestamp':
    case 'duration':
      return 'number';
    case 'string':
      return 'string';
    case 'enum':
      return type.members.length === 0 ? 'never' : type.members.map((m) => JSON.stringify(m)).join(' | ');
    case 'list': {
      const element = tsType(type.element);
      return /^[A-Za-z_$][\w$]*$/.test(element) || element.startsWith('{') ? `readonly ${element}[]` : `readonly (${element})[]`;
    }
    case 'record':
      return recordType(type.fields);
    case 'optional':
      return `${tsType(type.inner)} | null`;
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
export function propertySignature(name: string, type: Type): string {
  return `readonly ${propertyKey(name)}${type.kind === 'optional' ? '?' : ''}: ${tsType(type)}`;
}

function recordType(fields: readonly RecordField[]): string {
  if (fields.length === 0) return '{}';
  return `{ ${fields.map((f) => `${propertySignature(f.name, f.type)};`).join(' ')} }`;
}
