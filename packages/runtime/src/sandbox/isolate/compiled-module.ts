/**
 * The tables of a compiled module as the evaluator reads them inside the isolate (after the
 * ABI 1 shim: module/legacy-abi1.ts). Values come from module code, so every function may throw
 * or return anything.
 */

/** A computed attribute's derivation, an `applies_when` filter, or a predicate: all read the context. */
export type ContextFunction = (ctx: Record<string, unknown>) => unknown;

export interface CompiledAction {
  readonly rules: readonly string[];
  readonly computed?: readonly string[];
}

export interface CompiledModule {
  readonly _ABI_VERSION: unknown;
  readonly _WORLD: unknown;
  readonly _ACTIONS: Readonly<Record<string, CompiledAction>>;
  readonly _RULE_FUNCTIONS: Readonly<Record<string, ContextFunction>>;
  readonly _RULE_APPLIES_WHEN?: Readonly<Record<string, ContextFunction>>;
  readonly _COMPUTED?: Readonly<Record<string, Readonly<Record<string, ContextFunction>>>>;
  readonly _RULE_OUTCOME?: unknown;
  readonly _RULE_SEVERITY: unknown;
  readonly _RULE_SUPPRESSES?: unknown;
  readonly _RULE_READS?: unknown;
}
