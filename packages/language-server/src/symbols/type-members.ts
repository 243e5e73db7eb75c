/**
 * What a written type offers to the names around it: the fields of a record type (what may
 * follow a `.`) and the members of an enum (what a string literal compared with it names).
 * Symbols are made once per declaration node, so every reference to a field or a member
 * points at the same symbol.
 */
import type { EnumType, FieldDecl, RecordType, StringLiteral, TypeExpr } from '@adec/grammar';
import { presentType, typeText } from './type-text.js';
import type { WorldSymbol } from './world-symbol.js';

export type SymbolTable = ReadonlyMap<string, readonly WorldSymbol[]>;

export class TypeMembers {
  private readonly fields = new WeakMap<FieldDecl, WorldSymbol>();
  private readonly enumMembers = new WeakMap<StringLiteral, WorldSymbol>();
  private readonly records = new WeakMap<RecordType, SymbolTable>();
  private readonly enums = new WeakMap<EnumType, SymbolTable>();

  /** The symbol of a field declaration (`name: T` in a record, output, signals, …). */
  field(decl: FieldDecl, detail: string, keyword?: string): WorldSymbol {
    let symbol = this.fields.get(decl);
    if (symbol === undefined) {
      const type = typeText(decl.type);
      symbol = {
        kind: 'field',
        name: decl.name.name,
        span: decl.name.span,
        declaration: decl.span,
        signature: `${keyword === undefined ? '' : `${keyword} `}${decl.name.name}: ${type}`,
        detail,
        typeText: type,
        typeExpr: decl.type,
      };
      this.fields.set(decl, symbol);
    }
    return symbol;
  }

  /** The fields a `.` after a value of `type` reaches (through `?`). */
  recordFields(type: TypeExpr | undefined, owner: string): SymbolTable | undefined {
    const record = presentType(type);
    if (record?.kind !== 'RecordType') return undefined;
    let table = this.records.get(record);
    if (table === undefined) {
      table = this.table(record.fields, (field) => this.field(field, `field of \`${owner}\``));
      this.records.set(record, table);
    }
    return table;
  }

  /** The members of an enum type (through `?`), by value. */
  enumOf(type: TypeExpr | undefined, owner: string): SymbolTable | undefined {
    const enumType = presentType(type);
    if (enumType?.kind !== 'EnumType') return undefined;
    let table = this.enums.get(enumType);
    if (table === undefined) {
      const union = typeText(enumType);
      const members = new Map<string, WorldSymbol[]>();
      for (const literal of enumType.members) {
        if (members.has(literal.value)) continue;
        members.set(literal.value, [this.enumMember(literal, `member of \`${owner}\`: ${union}`)]);
      }
      table = members;
      this.enums.set(enumType, table);
    }
    return table;
  }

  /** Every enum member symbol made so far for `literal` (its own declaration). */
  enumMember(literal: StringLiteral, detail: string): WorldSymbol {
    let symbol = this.enumMembers.get(literal);
    if (symbol === undefined) {
      symbol = { kind: 'enum-member', name: literal.value, span: literal.span, signature: JSON.stringify(literal.value), detail };
      this.enumMembers.set(literal, symbol);
    }
    return symbol;
  }

  /** A table of fields by name; the first declaration of a repeated name wins, as in the checker. */
  table(fields: readonly FieldDecl[], symbolOf: (field: FieldDecl) => WorldSymbol): SymbolTable {
    const table = new Map<string, WorldSymbol[]>();
    for (const field of fields) {
      if (field.name.name === '' || table.has(field.name.name)) continue;
      table.set(field.name.name, [symbolOf(field)]);
    }
    return table;
  }
}

/** The element type of a list type (through `?`). */
export function listElement(type: TypeExpr | undefined): TypeExpr | undefined {
  const list = presentType(type);
  return list?.kind === 'ListType' ? list.element : undefined;
}
