/**
 * The names an expression can see. Each place expressions occur builds its own scope:
 * rules see context attributes; scenarios see signals, state, `action` and `action_id`;
 * skills see `payload`, `action_metadata`, `user_state` and `decision_context`.
 */
import type { RefRoot, Type } from '../model/index.js';
import type { BoundTarget } from './name-bindings.js';

export interface NameBinding {
  readonly root: RefRoot;
  /** The attribute name, or the root's own name for `payload`, `action`, … */
  readonly name: string;
  readonly type: Type;
  /** What the name refers to, for the recorded bindings (name-bindings.ts). */
  readonly target?: BoundTarget;
}

export interface ExprScope {
  lookup(name: string): NameBinding | undefined;
  /** Every visible name, for "did you mean". */
  readonly names: readonly string[];
  /** Called for each resolved name: how rules learn what they read and attributes get marked used. */
  readonly onReference?: (binding: NameBinding) => void;
  /** Set inside an SEC invariant, whose unknown `payload` fields get their own message. */
  readonly invariant?: { readonly id: string; readonly skill: string };
}

export interface ScopeOptions {
  readonly onReference?: (binding: NameBinding) => void;
  readonly invariant?: { readonly id: string; readonly skill: string };
}

export function createScope(bindings: readonly NameBinding[], options: ScopeOptions = {}): ExprScope {
  const byName = new Map(bindings.map((b) => [b.name, b] as const));
  return {
    lookup: (name) => byName.get(name),
    names: [...byName.keys()],
    ...(options.onReference !== undefined && { onReference: options.onReference }),
    ...(options.invariant !== undefined && { invariant: options.invariant }),
  };
}

/** The same names, reporting references to `onReference` as well. */
export function withReferenceObserver(scope: ExprScope, observe: (binding: NameBinding) => void): ExprScope {
  return {
    ...scope,
    onReference: (binding) => {
      scope.onReference?.(binding);
      observe(binding);
    },
  };
}
