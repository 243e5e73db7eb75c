/**
 * Written types rendered back as an author writes them, for hover: `int(0..120)`,
 * `"low" | "high"`, `list<string>`, `{ tone: "calm", loud: bool }?`.
 */
import type { RangeSpec, TypeExpr } from '@adec/grammar';

/** Types nest only as deep as the author typed them; this bounds a pathological file. */
const MAX_DEPTH = 32;

export function typeText(type: TypeExpr, depth = 0): string {
  if (depth > MAX_DEPTH) return '…';
  switch (type.kind) {
    case 'NamedType':
      return type.range === undefined ? type.name.name : `${type.name.name}(${rangeText(type.range)})`;
    case 'EnumType':
      return type.members.map((m) => JSON.stringify(m.value)).join(' | ');
    case 'ListType':
      return `list<${typeText(type.element, depth + 1)}>`;
    case 'RecordType':
      return `{ ${type.fields.map((f) => `${f.name.name}: ${typeText(f.type, depth + 1)}`).join(', ')} }`;
    case 'OptionalType':
      return `${typeText(type.inner, depth + 1)}?`;
  }
}

function rangeText(range: RangeSpec): string {
  return `${range.min?.value ?? ''}..${range.max?.value ?? ''}`;
}

/** The type without its `?`: what a guarded read or a comparison sees. */
export function presentType(type: TypeExpr | undefined): TypeExpr | undefined {
  let current = type;
  for (let depth = 0; current?.kind === 'OptionalType' && depth <= MAX_DEPTH; depth++) current = current.inner;
  return current;
}
