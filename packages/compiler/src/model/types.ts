/**
 * Semantic types of the world language (LANGUAGE.md "Types"), as the checker resolves them.
 */
export type Type =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly range?: NumericRange }
  | { readonly kind: 'float'; readonly range?: NumericRange }
  /** `length` bounds the string's length in characters: `string(20..200)`. */
  | { readonly kind: 'string'; readonly length?: NumericRange }
  /** Milliseconds since the Unix epoch at run time; ISO 8601 text on the wire. */
  | { readonly kind: 'timestamp' }
  /** Milliseconds at run time; `"18h"`-style text or a number of ms on the wire. */
  | { readonly kind: 'duration' }
  | { readonly kind: 'enum'; readonly members: readonly string[] }
  | { readonly kind: 'list'; readonly element: Type }
  | { readonly kind: 'record'; readonly fields: readonly RecordField[] }
  | { readonly kind: 'optional'; readonly inner: Type }
  /** The type of the `null` literal and of an empty list's element. */
  | { readonly kind: 'null' }
  /** Produced after a reported error so one mistake is reported once (poison type). */
  | { readonly kind: 'error' };

export interface NumericRange {
  readonly min?: number;
  readonly max?: number;
}

export interface RecordField {
  readonly name: string;
  readonly type: Type;
  /**
   * For a scenario's candidate (`action`): the action types that have no such field, which is
   * why it may be absent. Named in the error when it is read without a check.
   */
  readonly absentFrom?: readonly string[];
}

export const BOOL: Type = { kind: 'bool' };
export const INT: Type = { kind: 'int' };
export const FLOAT: Type = { kind: 'float' };
export const STRING: Type = { kind: 'string' };
export const TIMESTAMP: Type = { kind: 'timestamp' };
export const DURATION: Type = { kind: 'duration' };
export const NULL: Type = { kind: 'null' };
export const ERROR: Type = { kind: 'error' };

/**
 * How `formatType` writes the poison type of something that did not resolve. It never reaches
 * an author: the checker drops a message that would show it (checker-context.ts).
 */
export const ERROR_TYPE_TEXT = '<error>';

/** Renders a type as the author would write it: `list<string>`, `"a" | "b"`, `bool?`. */
export function formatType(type: Type): string {
  switch (type.kind) {
    case 'int':
    case 'float':
      return type.range ? `${type.kind}(${formatRange(type.range)})` : type.kind;
    case 'string':
      return type.length ? `string(${formatRange(type.length)})` : 'string';
    case 'enum':
      return type.members.map((m) => JSON.stringify(m)).join(' | ');
    case 'list':
      return `list<${formatType(type.element)}>`;
    case 'record':
      return `{ ${type.fields.map((f) => `${f.name}: ${formatType(f.type)}`).join(', ')} }`;
    case 'optional':
      // As written in the language, where `?` applies to the whole type: `"a" | "b"?`.
      return `${formatType(type.inner)}?`;
    case 'null':
      return 'null';
    case 'error':
      return ERROR_TYPE_TEXT;
    default:
      return type.kind;
  }
}

function formatRange(range: NumericRange): string {
  return `${range.min ?? ''}..${range.max ?? ''}`;
}
