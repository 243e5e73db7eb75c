/**
 * How semantic types relate: assignability, joining the branches of a conditional or the
 * items of a list, and the small predicates the operator rules are written with.
 */
import { BOOL, DURATION, ERROR, FLOAT, INT, NULL, STRING, TIMESTAMP, type NumericRange, type Type } from '../model/index.js';
import { charLength } from './char-length.js';

/**
 * Whether a type is, or holds, the poison type of a mistake already reported (`list<…>` of an
 * unknown type, a record with such a field). Checks stay silent on it: a second diagnostic
 * would be a cascade of the first, and would have to name a type that does not exist.
 */
export function isError(type: Type): boolean {
  switch (type.kind) {
    case 'error':
      return true;
    case 'list':
      return isError(type.element);
    case 'optional':
      return isError(type.inner);
    case 'record':
      return type.fields.some((field) => isError(field.type));
    default:
      return false;
  }
}

export const isOptional = (type: Type): boolean => type.kind === 'optional';
export const isNumeric = (type: Type): boolean => type.kind === 'int' || type.kind === 'float';
/** Strings and enums are both text at run time. */
export const isText = (type: Type): boolean => type.kind === 'string' || type.kind === 'enum';

/** The type without its `?`. */
export function unwrapOptional(type: Type): Type {
  return type.kind === 'optional' ? type.inner : type;
}

/** `T?`, never `T??`; `null?` stays `null`. */
export function optionalOf(type: Type): Type {
  return type.kind === 'optional' || type.kind === 'null' || type.kind === 'error' ? type : { kind: 'optional', inner: type };
}

/** The type without ranges or length bounds: what an operation on a value yields. */
export function widen(type: Type): Type {
  switch (type.kind) {
    case 'int':
      return INT;
    case 'float':
      return FLOAT;
    case 'string':
      return STRING;
    default:
      return type;
  }
}

/** Values that read naturally inside a string: scalars and enum members. */
export function isInterpolatable(type: Type): boolean {
  return ['bool', 'int', 'float', 'string', 'timestamp', 'duration', 'enum', 'error'].includes(type.kind);
}

/** Values `< <= > >=` and tie-breaks can order. */
export function isOrderable(type: Type): boolean {
  return ['int', 'float', 'string', 'timestamp', 'duration', 'error'].includes(type.kind);
}

/**
 * Whether a value of type `from` may be used where `to` is expected. Ranges and string
 * lengths are checked on input at run time, so they do not restrict assignability; a string
 * is assignable to an enum only as a literal member, which the caller checks on the literal.
 */
export function isAssignable(from: Type, to: Type): boolean {
  if (from.kind === 'error' || to.kind === 'error') return true;
  if (to.kind === 'optional') {
    if (from.kind === 'null') return true;
    return isAssignable(unwrapOptional(from), to.inner);
  }
  switch (from.kind) {
    case 'int':
      return to.kind === 'int' || to.kind === 'float';
    case 'enum':
      if (to.kind === 'string') return true;
      return to.kind === 'enum' && from.members.every((m) => to.members.includes(m));
    case 'list':
      return to.kind === 'list' && (from.element.kind === 'null' || isAssignable(from.element, to.element));
    case 'record':
      return (
        to.kind === 'record' &&
        to.fields.every((target) => {
          const source = from.fields.find((f) => f.name === target.name);
          return source === undefined ? target.type.kind === 'optional' : isAssignable(source.type, target.type);
        })
      );
    case 'optional':
    case 'null':
      return false;
    default:
      return from.kind === to.kind;
  }
}

/**
 * Whether every value of `from` already lies within the ranges and lengths `to` declares.
 * Assignability leaves bounds to the run-time input check; where a value crosses into a
 * contract that no input check guards (a skill's `action_metadata`, taken from the selected
 * action's fields), the contract's bounds must hold by the declarations alone.
 */
export function isWithinBounds(from: Type, to: Type): boolean {
  const source = unwrapOptional(from);
  const target = unwrapOptional(to);
  if ((source.kind === 'int' || source.kind === 'float') && (target.kind === 'int' || target.kind === 'float')) return rangeWithin(source.range, target.range);
  if (source.kind === 'string' && target.kind === 'string') return rangeWithin(source.length, target.length);
  if (source.kind === 'enum' && target.kind === 'string') return source.members.every((m) => rangeWithin({ min: charLength(m), max: charLength(m) }, target.length));
  if (source.kind === 'list' && target.kind === 'list') return isWithinBounds(source.element, target.element);
  if (source.kind === 'record' && target.kind === 'record') {
    return target.fields.every((field) => {
      const sourceField = source.fields.find((f) => f.name === field.name);
      return sourceField === undefined || isWithinBounds(sourceField.type, field.type);
    });
  }
  return true;
}

function rangeWithin(inner: NumericRange | undefined, outer: NumericRange | undefined): boolean {
  if (outer === undefined) return true;
  const lowOk = outer.min === undefined || (inner?.min !== undefined && inner.min >= outer.min);
  const highOk = outer.max === undefined || (inner?.max !== undefined && inner.max <= outer.max);
  return lowOk && highOk;
}

/**
 * The one type both `a` and `b` fit in (branches of `if`, items of a list, sides of `??`),
 * or undefined when there is none. int and float join to float; null joins to `T?`.
 */
export function joinTypes(a: Type, b: Type): Type | undefined {
  if (a.kind === 'error') return b;
  if (b.kind === 'error') return a;
  if (a.kind === 'null') return optionalOf(b);
  if (b.kind === 'null') return optionalOf(a);
  if (a.kind === 'optional' || b.kind === 'optional') {
    const inner = joinTypes(unwrapOptional(a), unwrapOptional(b));
    return inner === undefined ? undefined : optionalOf(inner);
  }
  if (isNumeric(a) && isNumeric(b)) return a.kind === 'int' && b.kind === 'int' ? INT : FLOAT;
  if (a.kind === 'enum' && b.kind === 'enum') return { kind: 'enum', members: [...new Set([...a.members, ...b.members])] };
  if (isText(a) && isText(b)) return STRING;
  if (a.kind === 'list' && b.kind === 'list') {
    if (a.element.kind === 'null') return b;
    if (b.element.kind === 'null') return a;
    const element = joinTypes(a.element, b.element);
    return element === undefined ? undefined : { kind: 'list', element };
  }
  if (a.kind === 'record' && b.kind === 'record') {
    if (a.fields.length !== b.fields.length) return undefined;
    const fields = [];
    for (const field of a.fields) {
      const other = b.fields.find((f) => f.name === field.name);
      const type = other === undefined ? undefined : joinTypes(field.type, other.type);
      if (type === undefined) return undefined;
      fields.push({ name: field.name, type });
    }
    return { kind: 'record', fields };
  }
  return a.kind === b.kind ? widen(a) : undefined;
}

export { BOOL, DURATION, ERROR, FLOAT, INT, NULL, STRING, TIMESTAMP };
