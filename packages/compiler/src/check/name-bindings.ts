/**
 * What the checker's name resolution found, for tools that show it (the language server's
 * hover, go to definition, references): every name a world declares and, for every name
 * that refers to one, what it refers to. The checker records this only when asked
 * (`bindWorld`); checking a world to build it pays one absent-recorder test per resolution.
 *
 * A declaration is identified by the span of its name (an enum member by its string
 * literal), so a tool can match it with the declaration it shows without sharing objects.
 */
import type { Span } from '@adec/diagnostics';
import type { RecordField, Type } from '../model/index.js';
import type { ExprScope } from './scope.js';

export type DeclarationKind =
  | 'attribute'
  | 'field'
  | 'enum-member'
  | 'action'
  | 'rule'
  | 'skill'
  | 'template'
  | 'scenario'
  | 'signal'
  | 'state'
  | 'action-type'
  | 'objective'
  | 'test'
  | 'test-action';

export interface BoundDeclaration {
  readonly kind: DeclarationKind;
  readonly name: string;
  /** The name where it is declared (an enum member's string literal, a test action's id). */
  readonly span: Span;
}

/** What a name refers to: a declaration of the world, or a name the language provides. */
export type BoundTarget =
  | { readonly kind: 'declaration'; readonly span: Span }
  /** `payload`, `action_metadata`, `user_state`, `decision_context` of the skill, `action`, `action_id` of the scenario, declared at `owner`. */
  | { readonly kind: 'root'; readonly name: string; readonly owner: Span }
  /** A field every value of a root has: `decision_context.decision_id`, a candidate's `action_id` and `type`. */
  | { readonly kind: 'root-field'; readonly root: string; readonly name: string; readonly owner: Span }
  | { readonly kind: 'function'; readonly name: string }
  | { readonly kind: 'system-attribute'; readonly name: string };

export interface BoundReference {
  /** The referring name (an identifier, the property of `a.b`, a string literal naming an enum member). */
  readonly span: Span;
  /** Several for a field of `action` that more than one action type declares. */
  readonly targets: readonly BoundTarget[];
}

/**
 * The places expressions occur, each with the names it sees: the shared context's
 * derivations, an action's rules, a skill's prompt and templates, its invariants, a scenario.
 */
export type ScopeKind = 'shared-context' | 'action' | 'skill-input' | 'skill-invariant' | 'scenario';

export interface BoundScope {
  readonly kind: ScopeKind;
  /** The name of the action, skill or scenario whose expressions these are; none for the shared context. */
  readonly owner?: Span;
  /** Every name visible there, in the order the checker lists them. */
  readonly names: readonly { readonly name: string; readonly target: BoundTarget }[];
}

export interface WorldBindings {
  readonly declarations: readonly BoundDeclaration[];
  readonly references: readonly BoundReference[];
  readonly scopes: readonly BoundScope[];
}

type EnumType = Extract<Type, { kind: 'enum' }>;

/**
 * Collects bindings while the checker runs. Semantic types carry no spans, so the recorder
 * remembers where each record field and enum member it was shown came from, and looks a
 * resolved field or member up there.
 */
export class BindingRecorder {
  private readonly declared: BoundDeclaration[] = [];
  private readonly referred: BoundReference[] = [];
  private readonly scopes: BoundScope[] = [];
  private readonly fieldOrigins = new WeakMap<RecordField, readonly BoundTarget[]>();
  private readonly memberOrigins = new WeakMap<EnumType, ReadonlyMap<string, readonly BoundTarget[]>>();

  declare(kind: DeclarationKind, name: string, span: Span): void {
    if (name !== '' && span.endOffset > span.offset) this.declared.push({ kind, name, span });
  }

  refer(span: Span, targets: BoundTarget | readonly BoundTarget[] | undefined): void {
    const list = targets === undefined ? [] : isTargetList(targets) ? targets : [targets];
    if (list.length > 0 && span.endOffset > span.offset) this.referred.push({ span, targets: list });
  }

  /** The names `scope` offers, what completion lists at a place of this kind. */
  scope(kind: ScopeKind, owner: Span | undefined, scope: ExprScope): void {
    const names = scope.names.flatMap((name) => {
      const target = scope.lookup(name)?.target;
      return target === undefined ? [] : [{ name, target }];
    });
    this.scopes.push({ kind, ...(owner !== undefined && { owner }), names });
  }

  /** Where a record field was declared (or, for a candidate's field, every action type field it joins). */
  fieldOrigin(field: RecordField, targets: BoundTarget | readonly BoundTarget[]): void {
    this.fieldOrigins.set(field, isTargetList(targets) ? targets : [targets]);
  }

  fieldTargets(field: RecordField): readonly BoundTarget[] | undefined {
    return this.fieldOrigins.get(field);
  }

  /** Where each member of an enum type was declared, by value. */
  enumOrigin(type: EnumType, members: ReadonlyMap<string, readonly BoundTarget[]>): void {
    this.memberOrigins.set(type, members);
  }

  memberTargets(type: EnumType, value: string): readonly BoundTarget[] | undefined {
    return this.memberOrigins.get(type)?.get(value);
  }

  bindings(): WorldBindings {
    return { declarations: this.declared, references: this.referred, scopes: this.scopes };
  }
}

export function declarationAt(span: Span): BoundTarget {
  return { kind: 'declaration', span };
}

function isTargetList(targets: BoundTarget | readonly BoundTarget[]): targets is readonly BoundTarget[] {
  return Array.isArray(targets);
}
