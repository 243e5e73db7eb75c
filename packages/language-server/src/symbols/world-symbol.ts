/**
 * What the language server knows about a name of a world: where it is declared, how hover
 * shows it, and what a `.` after it or a string literal compared with it can refer to.
 */
import type { Span } from '@adec/diagnostics';
import type { TypeExpr } from '@adec/grammar';

export type SymbolKind =
  | 'attribute'
  | 'system-attribute'
  | 'signal'
  | 'state'
  | 'field'
  | 'enum-member'
  | 'rule'
  | 'action'
  | 'skill'
  | 'scenario'
  | 'action-type'
  | 'objective'
  | 'template'
  | 'test'
  | 'test-action'
  | 'root'
  | 'function';

export interface WorldSymbol {
  readonly kind: SymbolKind;
  readonly name: string;
  /** The name where it is declared; absent for built-ins. */
  readonly span?: Span;
  /** The whole declaration: its doc comment is the one right above it or at its end. */
  readonly declaration?: Span;
  /** The first line of a hover, in the language's own syntax: `supplied claim_id: string(1..64)`. */
  readonly signature: string;
  /** One line of prose under the signature: "context attribute of action `submit_claim`". */
  readonly detail: string;
  /** The declared type as written, when the name has one. */
  readonly typeText?: string;
  /** The written type, for fields after `.` and enum members compared with the name. */
  readonly typeExpr?: TypeExpr;
  /** Fields reachable with `.` when they are not given by `typeExpr` (roots, candidates). */
  readonly members?: () => ReadonlyMap<string, readonly WorldSymbol[]>;
  /** Members of an enum-like value that is not an enum type (a candidate's `type`). */
  readonly enumMembers?: () => ReadonlyMap<string, readonly WorldSymbol[]>;
}

/** A name in the source and what it refers to (several declarations for `action.x` in a scenario). */
export interface SymbolOccurrence {
  readonly span: Span;
  readonly targets: readonly WorldSymbol[];
  /** True where the name is declared rather than used. */
  readonly isDeclaration: boolean;
}
