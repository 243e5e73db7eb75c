/**
 * Enums compared or combined with string literals: `relationship == "chlid"` is an error
 * with "did you mean \"child\"" (LANGUAGE.md "Types"). Only literals are checked here; a
 * string-typed value next to an enum is compared at run time.
 */
import { formatType, type CheckedExpr, type Type } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import { didYouMeanValue } from './suggestions.js';

type EnumType = Extract<Type, { kind: 'enum' }>;

/** The enum a value holds (looking through `?`), if it is one. */
export function enumOf(type: Type): EnumType | undefined {
  const inner = type.kind === 'optional' ? type.inner : type;
  return inner.kind === 'enum' ? inner : undefined;
}

/**
 * Checks that every string literal `value` is made of (a literal, or the branches of an
 * `if`) is a member of `enumType`, reporting ADEC3006 for each one that is not. Returns
 * whether `value` is made of literals only, i.e. whether it can take the enum's type.
 */
export function checkEnumLiterals(sink: DiagnosticSink, value: CheckedExpr, enumType: EnumType): boolean {
  if (value.kind === 'literal' && typeof value.value === 'string') {
    reportIfNotMember(sink, value.value, value, enumType);
    return true;
  }
  if (value.kind === 'if') {
    const consequent = checkEnumLiterals(sink, value.consequent, enumType);
    const alternate = checkEnumLiterals(sink, value.alternate, enumType);
    return consequent && alternate;
  }
  return false;
}

/** `x in ["a", "b"]` with an enum `x`: each literal item must be a member. */
export function checkEnumListLiterals(sink: DiagnosticSink, list: CheckedExpr, enumType: EnumType): void {
  if (list.kind !== 'list') return;
  for (const item of list.items) checkEnumLiterals(sink, item, enumType);
}

export function reportIfNotMember(sink: DiagnosticSink, text: string, at: { readonly span: CheckedExpr['span'] }, enumType: EnumType): void {
  if (enumType.members.includes(text)) {
    sink.recorder?.refer(at.span, sink.recorder.memberTargets(enumType, text));
    return;
  }
  sink.report('ADEC3006', at.span, { value: text, type: formatType(enumType) }, didYouMeanValue(text, enumType.members));
}
