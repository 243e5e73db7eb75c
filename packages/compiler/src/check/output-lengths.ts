/**
 * SEC INV-006 ("all strings within declared maxLength") at compile time: every string a
 * skill's output schema declares, at any depth, has a maximum length. Without one the runtime
 * validator rejects every payload that holds the string, so the skill could only ever fall back.
 * An enum needs none: its members bound it.
 */
import type { FieldDecl, TypeExpr } from '@adec/grammar';
import type { Span } from '@adec/diagnostics';
import type { DiagnosticSink } from './checker-context.js';

export function checkOutputLengths(fields: readonly FieldDecl[], skill: string, kind: string, sink: DiagnosticSink): void {
  for (const field of fields) {
    for (const { path, span } of unboundedStrings(field.type, field.name.name)) {
      sink.report(
        'ADEC4023',
        span,
        { kind, skill, problem: `declares output field \`${path}\` as a string with no maximum length` },
        { help: 'SEC INV-006 bounds every output string: give it one, e.g. `string(..200)`' },
      );
    }
  }
}

/** The `string` types inside `type` without an upper bound, with the field path that holds each. */
function unboundedStrings(type: TypeExpr, path: string): { path: string; span: Span }[] {
  switch (type.kind) {
    case 'NamedType':
      return type.name.name === 'string' && type.range?.max === undefined ? [{ path, span: type.span }] : [];
    case 'OptionalType':
      return unboundedStrings(type.inner, path);
    case 'ListType':
      return unboundedStrings(type.element, `${path}[]`);
    case 'RecordType':
      return type.fields.flatMap((f) => unboundedStrings(f.type, `${path}.${f.name.name}`));
    case 'EnumType':
      return [];
  }
}
