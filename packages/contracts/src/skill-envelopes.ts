/**
 * The envelopes a skill runs between (docs/spec/skill-contract.md §1, §2): the input envelope,
 * the only data a skill receives, and the output envelope, its payload with the metadata of the
 * run. Here they are generic (the declared fields open); each skill's contract document
 * (skill-contract-document.ts) states them for that skill, with the fields it declares.
 */
import { Type } from '@sinclair/typebox';
import { JSON_SCHEMA_DIALECT } from './json-schema-dialect.js';
import { Closed, DecisionId, OpenObject } from './schema-kit.js';
import { ExecutionMode, Payload, SkillOutputMetadata } from './selection-details.js';

/** How many ranked options a skill sees, as read-only context (docs/spec/skill-contract.md 1.3). */
export const RANKED_OPTIONS_SHOWN = 3;

export const SkillInputEnvelope = Closed(
  {
    decision_context: Closed({
      decision_id: DecisionId(),
      selected_action: Type.String({ description: 'The selected action’s id, read-only' }),
      action_metadata: OpenObject({ description: "The selected action's fields the skill declares it reads (null for an absent optional one)" }),
      ranked_options: Type.Array(Closed({ action_id: Type.String(), score: Type.Number(), rank: Type.Integer({ minimum: 1 }) }), {
        maxItems: RANKED_OPTIONS_SHOWN,
        description: 'The top of the ranking, as read-only context: a skill may not compare or re-evaluate them',
      }),
      guardrails_applied: Type.Array(Type.String(), { description: 'The ids of the guardrails that fired' }),
    }),
    user_state: Closed({
      core: Closed({}, { description: 'Engine-wide state dimensions: adec defines none, so it is always empty' }),
      scenario_extensions: OpenObject({ description: 'The signals and state values the skill declares it reads (null for one whose derivation failed)' }),
    }),
    skill_config: Closed({
      skill_id: Type.String(),
      skill_version: Type.String(),
      execution_mode: ExecutionMode,
      timeout_ms: Type.Integer({ minimum: 1, description: 'The time limit the engine runs the skill under' }),
    }),
  },
  { description: 'The SEC input envelope (docs/spec/skill-contract.md §1): no raw user data, only what the skill declares' },
);

export const SkillOutputEnvelope = Closed(
  { payload: Payload, metadata: SkillOutputMetadata },
  { description: 'The SEC output envelope (docs/spec/skill-contract.md §2): the payload and the metadata of the run' },
);

/** A JSON Schema as plain JSON (no TypeBox symbols), so that it can be specialized and serialized. */
export type JsonSchemaObject = { [keyword: string]: unknown };

function plain(schema: object): JsonSchemaObject {
  return JSON.parse(JSON.stringify(schema)) as JsonSchemaObject;
}

/** Replaces the property at `path` (names of nested `properties`) of a plain schema. */
function withProperty(schema: JsonSchemaObject, path: readonly string[], value: JsonSchemaObject): JsonSchemaObject {
  const [name, ...rest] = path;
  if (name === undefined) return value;
  const properties = schema['properties'] as Record<string, JsonSchemaObject>;
  return { ...schema, properties: { ...properties, [name]: withProperty(properties[name]!, rest, value) } };
}

export interface SkillInputFields {
  readonly skillId: string;
  readonly skillVersion: string;
  readonly timeoutMs: number;
  /** A closed object schema of the action fields the skill declares. */
  readonly actionMetadata: JsonSchemaObject;
  /** A closed object schema of the signals and state values the skill declares. */
  readonly scenarioExtensions: JsonSchemaObject;
}

/** The input envelope of one skill: its declared fields, its identity and its time limit fixed. */
export function skillInputSchema(fields: SkillInputFields): JsonSchemaObject {
  const pinned = (value: string | number) => ({ ...(typeof value === 'number' ? { type: 'integer' } : { type: 'string' }), const: value });
  let schema = plain(SkillInputEnvelope);
  schema = withProperty(schema, ['decision_context', 'action_metadata'], fields.actionMetadata);
  schema = withProperty(schema, ['user_state', 'scenario_extensions'], fields.scenarioExtensions);
  schema = withProperty(schema, ['skill_config', 'skill_id'], pinned(fields.skillId));
  schema = withProperty(schema, ['skill_config', 'skill_version'], pinned(fields.skillVersion));
  schema = withProperty(schema, ['skill_config', 'timeout_ms'], pinned(fields.timeoutMs));
  return { $schema: JSON_SCHEMA_DIALECT, ...schema };
}

/** The output envelope of one skill: its declared payload schema, its identity fixed in the metadata. */
export function skillOutputSchema(fields: { readonly skillId: string; readonly skillVersion: string; readonly payload: JsonSchemaObject }): JsonSchemaObject {
  let schema = plain(SkillOutputEnvelope);
  schema = withProperty(schema, ['payload'], fields.payload);
  schema = withProperty(schema, ['metadata', 'skill_id'], { type: 'string', const: fields.skillId });
  schema = withProperty(schema, ['metadata', 'skill_version'], { type: 'string', const: fields.skillVersion });
  return { $schema: JSON_SCHEMA_DIALECT, ...schema };
}
