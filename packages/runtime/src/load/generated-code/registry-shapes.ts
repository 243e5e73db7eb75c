/**
 * Where the compiler puts functions in a module's registries, and in which form
 * (generated-functions.ts); everything else in a registry is data (data-literal.ts). Read off
 * the emitters: compiler generate/emit-actions.ts (`_RULE_FUNCTIONS`, `_RULE_APPLIES_WHEN`,
 * `_COMPUTED`), emit-scenarios.ts (`_SCENARIOS`), emit-skills.ts (`_SKILLS`, `_INVARIANTS`).
 * Keys the world names (action, rule, scenario and skill ids) are `entries`; keys the
 * generator fixes (`derive`, `when`, `check`, …) are `fields`.
 */
import { functionForm, type FunctionForm } from './generated-functions.js';
import { ACTION_CONTEXT, ENV, ENV_AND_ACTION, INPUT, INPUT_AND_FOLD, SIGNALS_AND_STATE } from './generated-parameters.js';

export type RegistryShape =
  | { readonly kind: 'data' }
  | { readonly kind: 'function'; readonly form: FunctionForm; readonly nullable: boolean }
  /** An object whose keys the world names, each value of one shape. */
  | { readonly kind: 'entries'; readonly of: RegistryShape }
  /** An object with fixed keys; the keys listed hold their shape, any other holds data. */
  | { readonly kind: 'fields'; readonly fields: ReadonlyMap<string, RegistryShape> }
  | { readonly kind: 'list'; readonly of: RegistryShape };

export const DATA: RegistryShape = { kind: 'data' };

const fn = (parameters: readonly string[], body: FunctionForm['body'] = 'expression', nullable = false): RegistryShape => ({ kind: 'function', form: functionForm(parameters, body), nullable });
const entries = (of: RegistryShape): RegistryShape => ({ kind: 'entries', of });
const list = (of: RegistryShape): RegistryShape => ({ kind: 'list', of });
const fields = (shapes: Readonly<Record<string, RegistryShape>>): RegistryShape => ({ kind: 'fields', fields: new Map(Object.entries(shapes)) });

/** Each registry the module declares, and its shape. */
export const REGISTRY_SHAPES: ReadonlyMap<string, RegistryShape> = new Map([
  ['_ABI_VERSION', DATA],
  ['_WORLD', DATA],
  ['_ACTIONS', DATA],
  ['_RULE_FUNCTIONS', entries(fn(ACTION_CONTEXT, 'rule'))],
  ['_RULE_APPLIES_WHEN', entries(fn(ACTION_CONTEXT))],
  ['_RULE_OUTCOME', DATA],
  ['_RULE_SEVERITY', DATA],
  ['_RULE_SUPPRESSES', DATA],
  ['_RULE_READS', DATA],
  ['_COMPUTED', entries(entries(fn(ACTION_CONTEXT)))],
  [
    '_SCENARIOS',
    entries(
      fields({
        state: list(fields({ derive: fn(SIGNALS_AND_STATE) })),
        guardrails: list(fields({ when: fn(ENV), predicate: fn(ENV_AND_ACTION), limit: fn(ENV_AND_ACTION) })),
        objectives: list(fields({ score: fn(ENV_AND_ACTION) })),
        tie_breaks: list(fields({ key: fn(ENV_AND_ACTION) })),
      }),
    ),
  ],
  [
    '_SKILLS',
    entries(
      fields({
        prompt: fn(INPUT, 'template', true),
        templates: list(fields({ when: fn(INPUT), render: fn(INPUT, 'render') })),
      }),
    ),
  ],
  ['_INVARIANTS', entries(list(fields({ check: fn(INPUT), check_folded: fn(INPUT_AND_FOLD) })))],
]);
