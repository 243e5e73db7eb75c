/**
 * The parameter names of generated functions (compiler generate/emit-actions.ts,
 * emit-scenarios.ts, emit-skills.ts, emit-expr.ts): the only names their bodies read.
 */

/** Rules, filters and derivations of an action: its context. */
export const ACTION_CONTEXT = ['ctx'] as const;
/** A scenario's state derivations. */
export const SIGNALS_AND_STATE = ['signals', 'state'] as const;
/** A guardrail's `when`. */
export const ENV = ['env'] as const;
/** Block predicates, caps, objectives and tie-breaks, per candidate action. */
export const ENV_AND_ACTION = ['env', 'action'] as const;
/** Skill prompts, templates and invariants. */
export const INPUT = ['input'] as const;
/** An invariant compared as a reader sees the text. */
export const INPUT_AND_FOLD = ['input', 'fold'] as const;

/** A long chain's block: the chain's value so far. */
export const CHAIN_VALUE = 'left';

/** Parameters that hold functions rather than values: an invariant's `fold`. */
export const FUNCTION_PARAMETERS: ReadonlySet<string> = new Set(['fold']);

/** Every name a value parameter has, a chain block's included. */
export const VALUE_PARAMETERS: ReadonlySet<string> = new Set(
  [...ACTION_CONTEXT, ...SIGNALS_AND_STATE, ...ENV, ...ENV_AND_ACTION, ...INPUT, ...INPUT_AND_FOLD, CHAIN_VALUE].filter((name) => !FUNCTION_PARAMETERS.has(name)),
);
