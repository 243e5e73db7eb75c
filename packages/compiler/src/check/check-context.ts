/**
 * Context attributes: the world's shared `context` blocks and each action's own. Types
 * resolve, names are unique across shared and action-local attributes, system attributes
 * are the three the runtime captures, defaults are literal values of their type, and
 * computed attributes type-check against their declared type and come out in dependency
 * order (ARCHITECTURE.md "Composition root": computed values are derived in that order).
 */
import type { ContextAttributeDecl, ContextBlock } from '@adec/grammar';
import { formatType, type CheckedExpr, type ContextAttribute, type JsonValue, type Type } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { checkAssignable } from './check-assignment.js';
import { createExprChecker } from './check-expr.js';
import { dependencyOrder, formatCycle } from './dependency-order.js';
import { checkLiteral, literalFromExpr } from './literal-values.js';
import { NOTHING_NARROWED } from './narrowing.js';
import { resolveType } from './resolve-types.js';
import { createScope, type ExprScope } from './scope.js';
import { declarationAt, type BoundTarget } from './name-bindings.js';
import { isAssignable, isError, optionalOf, STRING, TIMESTAMP, unwrapOptional } from './type-relations.js';
import { reportReservedName } from './reserved-names.js';
import { didYouMeanKeyword, didYouMeanName } from './suggestions.js';

/**
 * The values the runtime captures at entry, never from the request body, typed as the runtime
 * delivers them: a request without a caller has no `authenticated_caller` (null), so it is
 * optional, and reading it needs a guard like any optional value.
 */
export const SYSTEM_ATTRIBUTE_TYPES: ReadonlyMap<string, Type> = new Map([
  ['request_time', TIMESTAMP],
  ['request_id', STRING],
  ['authenticated_caller', optionalOf(STRING)],
]);

export interface DeclaredAttribute {
  readonly decl: ContextAttributeDecl;
  readonly name: string;
  readonly type: Type;
  readonly defaultValue?: JsonValue;
  /** Filled in by `checkDerivations` for computed attributes. */
  derivation?: CheckedExpr;
  /** Computed attributes this one reads directly. */
  dependsOn: Set<string>;
  /** Every attribute a computed attribute's derivation reads directly. */
  reads: Set<string>;
  /** Its declaration, what a name reading it is bound to. */
  readonly target: BoundTarget;
}

/** What one action sees: the shared attributes, then its own. */
export interface ContextView {
  readonly attributes: readonly DeclaredAttribute[];
  readonly byName: ReadonlyMap<string, DeclaredAttribute>;
}

export function contextView(attributes: readonly DeclaredAttribute[]): ContextView {
  return { attributes, byName: new Map(attributes.map((a) => [a.name, a] as const)) };
}

/** A scope of context attributes; `onUse` hears of every attribute an expression reads. */
export function contextScope(view: ContextView, onUse: (attribute: DeclaredAttribute) => void): ExprScope {
  return createScope(
    view.attributes.map((a) => ({ root: 'context', name: a.name, type: a.type, target: a.target })),
    { onReference: (binding) => { const attribute = view.byName.get(binding.name); if (attribute) onUse(attribute); } },
  );
}

/**
 * Declares the attributes of `blocks`: resolves types, checks names and defaults. A name
 * already declared (in `inherited` or earlier in `blocks`) is ADEC2010 and left out.
 */
export function declareAttributes(blocks: readonly ContextBlock[], inherited: ContextView, sink: DiagnosticSink): DeclaredAttribute[] {
  const declared: DeclaredAttribute[] = [];
  const seen = new Map<string, ContextAttributeDecl>(inherited.attributes.map((a) => [a.name, a.decl]));
  for (const decl of blocks.flatMap((b) => b.attributes)) {
    const name = decl.name.name;
    const type = resolveType(decl.type, sink);
    sink.recorder?.declare('attribute', name, decl.name.span);
    const first = seen.get(name);
    if (first !== undefined) {
      sink.report('ADEC2010', decl.name.span, { kind: 'context attribute', name }, { notes: [firstDeclaredAt(first.name.span)] });
      continue;
    }
    seen.set(name, decl);
    reportReservedName(decl.name, 'context attribute', sink);
    if (decl.source === 'system') checkSystemAttribute(decl, type, sink);
    const defaultValue = decl.source === 'computed' ? undefined : checkDefault(decl, type, sink);
    if (decl.source === 'computed' && decl.value === undefined) {
      sink.report('ADEC4003', decl.name.span, { clause: '= derivation', owner: `computed attribute \`${name}\`` });
    }
    declared.push({ decl, name, type, ...(defaultValue !== undefined && { defaultValue }), dependsOn: new Set(), reads: new Set(), target: declarationAt(decl.name.span) });
  }
  return declared;
}

function checkSystemAttribute(decl: ContextAttributeDecl, type: Type, sink: DiagnosticSink): void {
  const name = decl.name.name;
  const required = SYSTEM_ATTRIBUTE_TYPES.get(name);
  if (required === undefined) {
    sink.report('ADEC2011', decl.name.span, { name }, didYouMeanName(name, SYSTEM_ATTRIBUTE_TYPES.keys()));
    return;
  }
  // What the runtime delivers must fit the declared type: `timestamp?` for request_time is
  // accepted (never null in practice), `string` for authenticated_caller is not (it may be null).
  const fits = isError(type) || (isAssignable(required, type) && isAssignable(unwrapOptional(type), unwrapOptional(required)));
  if (!fits) sink.report('ADEC4022', decl.type.span, { name, found: formatType(type), expected: formatType(required) });
}

function checkDefault(decl: ContextAttributeDecl, type: Type, sink: DiagnosticSink): JsonValue | undefined {
  if (decl.value === undefined || decl.value.kind === 'MissingExpr') return undefined;
  const name = decl.name.name;
  if (decl.source === 'system') {
    sink.report('ADEC4021', decl.value.span, { name, problem: 'cannot be set: system values are captured when the request arrives' });
    return undefined;
  }
  const literal = literalFromExpr(decl.value);
  if (literal === undefined) {
    const keyword = decl.value.kind === 'NameExpr' ? didYouMeanKeyword(decl.value.name) : {};
    sink.report('ADEC4021', decl.value.span, { name, problem: 'must be a literal value' }, keyword.help !== undefined ? keyword : { help: 'declare a `computed` attribute to derive a value' });
    return undefined;
  }
  return checkLiteral(literal, type, sink, { defaultOf: name });
}

/**
 * Type-checks the derivations of the computed attributes among `own`, in a scope of
 * everything in `view`, recording which computed attributes each one reads.
 */
export function checkDerivations(own: readonly DeclaredAttribute[], view: ContextView, sink: DiagnosticSink, onUse: (attribute: DeclaredAttribute) => void): void {
  for (const attribute of own) {
    const value = attribute.decl.value;
    if (attribute.decl.source !== 'computed' || value === undefined) continue;
    const scope = contextScope(view, (read) => {
      onUse(read);
      attribute.reads.add(read.name);
      if (read.decl.source === 'computed') attribute.dependsOn.add(read.name);
    });
    const checker = createExprChecker(scope, sink);
    const derivation = checker.check(value, NOTHING_NARROWED);
    checkAssignable(checker, derivation, value, attribute.type);
    attribute.derivation = derivation;
  }
}

/** ADEC4014 for each cycle among the computed attributes of `own`. */
export function reportDerivationCycles(own: readonly DeclaredAttribute[], sink: DiagnosticSink): void {
  const computed = own.filter((a) => a.decl.source === 'computed');
  const { cycles } = dependencyOrder(computed.map((a) => ({ name: a.name, dependsOn: a.dependsOn })));
  for (const cycle of cycles) {
    const first = computed.find((a) => a.name === cycle[0]);
    if (first) sink.report('ADEC4014', first.decl.name.span, { name: first.name, cycle: formatCycle(cycle) });
  }
}

/**
 * The attributes of a view as the checked model lists them: supplied and system attributes
 * in declaration order, then computed ones in dependency order.
 */
export function orderedContext(view: ContextView): ContextAttribute[] {
  const inputs = view.attributes.filter((a) => a.decl.source !== 'computed');
  const computed = view.attributes.filter((a) => a.decl.source === 'computed');
  const { order } = dependencyOrder(computed.map((a) => ({ name: a.name, dependsOn: a.dependsOn })));
  const ordered = [...inputs, ...order.map((name) => view.byName.get(name)!)];
  return ordered.map(toContextAttribute);
}

function toContextAttribute(attribute: DeclaredAttribute): ContextAttribute {
  return {
    name: attribute.name,
    source: attribute.decl.source,
    type: attribute.type,
    ...(attribute.defaultValue !== undefined && { defaultValue: attribute.defaultValue }),
    ...(attribute.derivation !== undefined && { derivation: attribute.derivation, reads: [...attribute.reads].sort() }),
    span: attribute.decl.span,
  };
}
