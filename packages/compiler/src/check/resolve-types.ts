/**
 * Resolves written types (`int(0..120)`, `"a" | "b"`, `list<string>?`) to semantic types.
 * An unknown type name resolves to the poison `error` type after one diagnostic.
 */
import { SCALAR_TYPE_NAMES as SCALAR_TYPES, type FieldDecl, type NamedType, type RangeSpec, type StringLiteral, type TypeExpr } from '@adec/grammar';
import { declarationAt, type BindingRecorder } from './name-bindings.js';
import type { NumericRange, RecordField, Type } from '../model/index.js';
import { ERROR, optionalOf } from './type-relations.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { didYouMeanName } from './suggestions.js';
import { reportReservedName } from './reserved-names.js';

type ScalarTypeName = (typeof SCALAR_TYPES)[number];

/** Spellings other languages use, which edit distance alone would not suggest. */
const FAMILIAR_ALIASES: ReadonlyMap<string, ScalarTypeName> = new Map([
  ['integer', 'int'],
  ['number', 'float'],
  ['double', 'float'],
  ['decimal', 'float'],
  ['boolean', 'bool'],
  ['str', 'string'],
  ['text', 'string'],
  ['datetime', 'timestamp'],
  ['date', 'timestamp'],
  ['time', 'timestamp'],
]);

export function resolveType(typeExpr: TypeExpr, sink: DiagnosticSink): Type {
  switch (typeExpr.kind) {
    case 'NamedType':
      return resolveNamedType(typeExpr, sink);
    case 'EnumType': {
      const members: string[] = [];
      const firstSeen = new Map<string, (typeof typeExpr.members)[number]>();
      for (const member of typeExpr.members) {
        const first = firstSeen.get(member.value);
        if (first !== undefined) {
          sink.report('ADEC2010', member.span, { kind: 'enum member', name: member.value }, { notes: [firstDeclaredAt(first.span)] });
          continue;
        }
        firstSeen.set(member.value, member);
        members.push(member.value);
      }
      const type: Extract<Type, { kind: 'enum' }> = { kind: 'enum', members };
      if (sink.recorder !== undefined) recordEnumMembers(sink.recorder, type, firstSeen);
      return type;
    }
    case 'ListType':
      return { kind: 'list', element: resolveType(typeExpr.element, sink) };
    case 'RecordType':
      return { kind: 'record', fields: resolveFields(typeExpr.fields, 'field', sink) };
    case 'OptionalType':
      return optionalOf(resolveType(typeExpr.inner, sink));
  }
}

/**
 * Resolves the fields of a record-like block (`output { … }`, an action type, a record
 * type), reporting a repeated name as `kind` (e.g. "output field").
 */
export function resolveFields(fields: readonly FieldDecl[], kind: string, sink: DiagnosticSink): RecordField[] {
  const resolved: RecordField[] = [];
  const firstSeen = new Map<string, FieldDecl>();
  for (const field of fields) {
    const type = resolveType(field.type, sink);
    const name = field.name.name;
    sink.recorder?.declare('field', name, field.name.span);
    const first = firstSeen.get(name);
    if (first !== undefined) {
      sink.report('ADEC2010', field.name.span, { kind, name }, { notes: [firstDeclaredAt(first.name.span)] });
      continue;
    }
    firstSeen.set(name, field);
    reportReservedName(field.name, kind, sink);
    const resolvedField = { name, type };
    sink.recorder?.fieldOrigin(resolvedField, declarationAt(field.name.span));
    resolved.push(resolvedField);
  }
  return resolved;
}

function recordEnumMembers(recorder: BindingRecorder, type: Extract<Type, { kind: 'enum' }>, members: ReadonlyMap<string, StringLiteral>): void {
  for (const [value, literal] of members) recorder.declare('enum-member', value, literal.span);
  recorder.enumOrigin(type, new Map([...members].map(([value, literal]) => [value, [declarationAt(literal.span)]])));
}

function resolveNamedType(typeExpr: NamedType, sink: DiagnosticSink): Type {
  const name = typeExpr.name.name;
  if (!isScalarTypeName(name)) {
    if (name !== '') {
      const alias = FAMILIAR_ALIASES.get(name.toLowerCase());
      const help = alias !== undefined ? { help: `did you mean \`${alias}\`?` } : didYouMeanName(name, SCALAR_TYPES);
      sink.report('ADEC2009', typeExpr.name.span, { name }, help);
    }
    return ERROR;
  }
  if (typeExpr.range === undefined) return { kind: name };
  const range = resolveRange(name, typeExpr.range, sink);
  switch (name) {
    case 'int':
    case 'float':
      return range === undefined ? { kind: name } : { kind: name, range };
    case 'string':
      return range === undefined ? { kind: 'string' } : { kind: 'string', length: range };
    default:
      return { kind: name };
  }
}

function isScalarTypeName(name: string): name is ScalarTypeName {
  return (SCALAR_TYPES as readonly string[]).includes(name);
}

/** Ranges bound numbers (`float(0..1)`) and string lengths (`string(..100)`), nothing else. */
function resolveRange(typeName: ScalarTypeName, spec: RangeSpec, sink: DiagnosticSink): NumericRange | undefined {
  if (typeName !== 'int' && typeName !== 'float' && typeName !== 'string') {
    sink.report('ADEC4019', spec.span, { problem: `\`${typeName}\` takes no range: only int, float and string (length) do` });
    return undefined;
  }
  const min = spec.min?.value;
  const max = spec.max?.value;
  const needsWholeNumbers = typeName !== 'float';
  for (const bound of [spec.min, spec.max]) {
    if (bound === undefined) continue;
    if (needsWholeNumbers && !Number.isInteger(bound.value)) {
      sink.report('ADEC4019', bound.span, { problem: `the bounds of \`${typeName}\` must be whole numbers, found ${bound.value}` });
      return undefined;
    }
    if (typeName === 'string' && bound.value < 0) {
      sink.report('ADEC4019', bound.span, { problem: `a string length cannot be negative, found ${bound.value}` });
      return undefined;
    }
  }
  if (min !== undefined && max !== undefined && min > max) {
    sink.report('ADEC4019', spec.span, { problem: `the minimum ${min} is greater than the maximum ${max}` });
    return undefined;
  }
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}
