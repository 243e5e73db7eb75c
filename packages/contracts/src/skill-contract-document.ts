/**
 * A skill's contract as a document of its own (docs/spec/skill-contract.md §7): what a host or
 * an auditor needs to know about a skill without its source. `adec build` writes one per skill
 * into the signed manifest (`skill_contracts`), and `adec skill-contract` prints them.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { SKILL_TYPES } from '@adec/abi';
import { Closed, Nullable, OneOf, OpenObject } from './schema-kit.js';
import { StageArtifacts } from './stage-artifacts.js';

export const SEC_VERSION = '1.0.0';

const Check = Closed({
  id: Type.String(),
  description: Type.String(),
  check: Type.String({ description: 'The check as written in the check language (docs/spec/skill-contract.md §9); for a universal invariant, what the engine checks' }),
});

const Prohibition = Closed({
  id: Type.String(),
  pattern: Type.String({ description: 'As the contract language writes it (`(?i)…`)' }),
  reason: Type.String(),
});

export const SkillContractDocument = Closed(
  {
    sec_version: Type.Literal(SEC_VERSION),
    skill_id: Type.String({ minLength: 1 }),
    skill_version: Type.String(),
    skill_type: OneOf(SKILL_TYPES),
    input_schema: OpenObject({ description: 'JSON Schema (draft 2020-12) of the input envelope this skill receives: SkillInputEnvelope with its declared fields' }),
    output_schema: OpenObject({ description: 'JSON Schema (draft 2020-12) of the output envelope: its declared payload schema and the metadata of the run' }),
    invariants: Closed({
      universal: Type.Array(Type.String(), { description: 'The ids of the invariants every skill’s output must hold (docs/spec/skill-contract.md §3.1; `universal_checks` says what each checks)' }),
      skill_specific: Type.Array(Check, { description: 'The invariants this skill declares' }),
    }),
    prohibitions: Closed({
      universal: Type.Literal(true, { description: 'The universal prohibitions apply to every skill (docs/spec/skill-contract.md §4.1)' }),
      skill_specific: Type.Array(Prohibition, { description: 'The patterns this skill declares' }),
    }),
    timeout: Closed(
      {
        default_ms: Type.Integer({ minimum: 1, description: 'At this limit the skill is given up and its fallback runs' }),
        hard_limit_ms: Type.Integer({ minimum: 1, description: 'No run of the skill lasts longer, whatever the module says' }),
      },
      { description: 'As the engine enforces them (docs/spec/skill-contract.md §5)' },
    ),
    fallback: Nullable(Closed({ skill_id: Type.String(), skill_version: Type.String() }), { description: 'The deterministic skill that answers when this one’s output cannot be used; null when the minimal safe output does' }),
    audit: Closed(
      {
        log_input: Type.Literal(true, { description: 'The trace records what the input was made from (the request, the memory) and what was withheld' }),
        log_output: Type.Literal(true, { description: 'The trace records the payload, and a model’s reply as received' }),
        log_output_hash: Type.Literal(true, { description: 'The trace records the payload’s sha256' }),
        retention_days: Type.Integer({ minimum: 1, description: 'How long the audit store keeps the record by default (`adec serve --retention-days` sets a host’s)' }),
      },
      { description: 'What the audit store keeps of a run of the skill' },
    ),
    description: Nullable(Type.String(), { description: 'adec: what the skill is for, as its world says' }),
    universal_checks: Closed(
      { invariants: Type.Array(Check), prohibitions: Type.Array(Prohibition) },
      { description: 'adec: what each universal invariant and prohibition checks' },
    ),
    fallback_chain: Type.Array(
      Closed({
        tier: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
        skill_id: Nullable(Type.String(), { description: 'null for tier 3, the minimal safe output (an empty payload)' }),
        skill_version: Nullable(Type.String()),
        runs_when: Type.String(),
      }),
      { minItems: 2, description: 'adec: from the skill itself down to the minimal safe output (docs/spec/skill-contract.md §6)' },
    ),
    templates: Type.Array(Type.String(), { description: 'adec: a deterministic skill’s template names, in the order they are tried; empty for an LLM skill' }),
    audit_fields: Type.Array(Closed({ path: Type.String({ description: 'Where in the SelectionTrace' }), description: Nullable(Type.String()) }), {
      description: 'adec: what the trace records of a run of the skill (stages 5 to 8)',
    }),
  },
  { description: 'A skill’s execution contract as a document (docs/spec/skill-contract.md §7)' },
);

/** The stages of the trace that record a skill's run (docs/spec/selection.md §3.5–3.8). */
const SKILL_STAGES = ['resolve_skills', 'execute_skill', 'validate_output', 'fallback'] as const;

/**
 * Every field the trace records of a skill's run, read off the trace's own schema, so the list
 * follows the contract as it grows: a closed object is listed by its fields, anything else is a
 * field.
 */
export function skillAuditFields(): { path: string; description: string | null }[] {
  const fields: { path: string; description: string | null }[] = [];
  const visit = (schema: TSchema, path: string): void => {
    const properties = schema['properties'] as Record<string, TSchema> | undefined;
    if (schema['type'] === 'object' && properties !== undefined) {
      for (const [name, property] of Object.entries(properties)) visit(property, `${path}.${name}`);
    } else {
      fields.push({ path, description: typeof schema['description'] === 'string' ? schema['description'] : null });
    }
  };
  for (const stage of SKILL_STAGES) {
    const nullable = StageArtifacts.properties[stage] as TSchema;
    const artifact = (nullable['anyOf'] as TSchema[]).find((variant) => variant['type'] === 'object')!;
    visit(artifact, `stages.${stage}`);
  }
  return fields;
}
