/**
 * The module's scenarios and skills as the selection extension describes them to the host
 * (`__adec_scenarios`, `__adec_skills`): their data, without the functions, which stay in the
 * isolate. The host reads them once per loaded module (packages/engine/src/scenario-catalog.ts,
 * skills/skill-catalog.ts). A module's answer is module output, so it is validated, not trusted.
 */
import { checkBoolean, checkNumber, checkString, checkStrings, listOf, mapOf, nullable, oneOf, optional, required, shape, type Check } from './checks.js';
import type { JsonValue } from './json-value.js';
import { checkValueSchema, type ValueSchema } from './value-schema.js';

export type ExecutionMode = (typeof EXECUTION_MODES)[number];
export const EXECUTION_MODES = ['deterministic_only', 'skill_enhanced'] as const;

export interface ScenarioDescription {
  readonly version: string;
  readonly default_mode: ExecutionMode;
  readonly signals: readonly SignalDescription[];
  readonly action_types: readonly ActionTypeDescription[];
}

export interface SignalDescription {
  readonly name: string;
  /** Absent in modules built by compilers older than the engine's schema validation. */
  readonly schema?: ValueSchema;
  /** The wire form of the signal's default, when it declares one. */
  readonly default?: JsonValue;
}

export interface ActionTypeDescription {
  readonly name: string;
  readonly fields: readonly string[];
  /** Per field; absent in modules built by older compilers. */
  readonly schemas?: { readonly [field: string]: ValueSchema };
  /** The skill the action type maps to, or null. */
  readonly skill: string | null;
}

export type SkillType = (typeof SKILL_TYPES)[number];
export const SKILL_TYPES = ['llm', 'deterministic'] as const;

export interface SkillDescription {
  readonly version: string;
  readonly type: SkillType;
  readonly description: string | null;
  readonly has_prompt: boolean;
  readonly timeout_ms: number;
  readonly hard_limit_ms: number;
  /** The deterministic skill run when this one fails, or null. */
  readonly fallback: string | null;
  /** Absent in modules built by older compilers. */
  readonly action_metadata_fields?: readonly string[];
  readonly user_state_fields?: readonly string[];
  readonly output_schema: ValueSchema;
  readonly prohibitions: readonly ProhibitionDescription[];
  readonly invariants: readonly InvariantDescription[];
  /** Template names, in the order they are tried. */
  readonly templates: readonly string[];
}

export interface ProhibitionDescription {
  readonly id: string;
  /** As the skill contract writes it (`(?i)…`). */
  readonly pattern: string;
  /** The JavaScript regular expression's source and flags. */
  readonly source: string;
  readonly flags: string;
  readonly reason: string;
}

export interface InvariantDescription {
  readonly id: string;
  readonly description: string;
  readonly source: string;
}

const checkSignal: Check<SignalDescription> = shape((object, path, problems) => {
  required(object, 'name', path, problems, checkString);
  optional(object, 'schema', path, problems, checkValueSchema);
});

const checkActionType: Check<ActionTypeDescription> = shape((object, path, problems) => {
  required(object, 'name', path, problems, checkString);
  required(object, 'fields', path, problems, checkStrings);
  optional(object, 'schemas', path, problems, mapOf(checkValueSchema));
  required(object, 'skill', path, problems, nullable(checkString));
});

const checkScenario: Check<ScenarioDescription> = shape((object, path, problems) => {
  required(object, 'version', path, problems, checkString);
  required(object, 'default_mode', path, problems, oneOf(EXECUTION_MODES));
  required(object, 'signals', path, problems, listOf(checkSignal));
  required(object, 'action_types', path, problems, listOf(checkActionType));
});

/** What `__adec_scenarios` returns: scenario id → its description. */
export const checkScenarioDescriptions: Check<{ readonly [scenario: string]: ScenarioDescription }> = mapOf(checkScenario);

const checkProhibition: Check<ProhibitionDescription> = shape((object, path, problems) => {
  for (const key of ['id', 'pattern', 'source', 'flags', 'reason']) required(object, key, path, problems, checkString);
});

const checkInvariant: Check<InvariantDescription> = shape((object, path, problems) => {
  for (const key of ['id', 'description', 'source']) required(object, key, path, problems, checkString);
});

const checkSkill: Check<SkillDescription> = shape((object, path, problems) => {
  required(object, 'version', path, problems, checkString);
  required(object, 'type', path, problems, oneOf(SKILL_TYPES));
  required(object, 'description', path, problems, nullable(checkString));
  required(object, 'has_prompt', path, problems, checkBoolean);
  required(object, 'timeout_ms', path, problems, checkNumber);
  required(object, 'hard_limit_ms', path, problems, checkNumber);
  required(object, 'fallback', path, problems, nullable(checkString));
  optional(object, 'action_metadata_fields', path, problems, checkStrings);
  optional(object, 'user_state_fields', path, problems, checkStrings);
  required(object, 'output_schema', path, problems, checkValueSchema);
  required(object, 'prohibitions', path, problems, listOf(checkProhibition));
  required(object, 'invariants', path, problems, listOf(checkInvariant));
  required(object, 'templates', path, problems, checkStrings);
});

/** What `__adec_skills` returns: skill id → its description. */
export const checkSkillDescriptions: Check<{ readonly [skill: string]: SkillDescription }> = mapOf(checkSkill);
