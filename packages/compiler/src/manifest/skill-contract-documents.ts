/**
 * Each skill's contract as a document of its own (@adec/contracts `SkillContractDocument`,
 * docs/spec/skill-contract.md §7), written into the manifest so that it is signed with it: what
 * a skill receives, what it may return, the checks its output passes, its time limits and its
 * fallbacks, read off the checked world and the limits and universal checks the engine applies
 * (@adec/abi), never restated here.
 */
import { DEFAULT_RETENTION_DAYS, enforcedSkillTimeLimits, UNIVERSAL_INVARIANTS, UNIVERSAL_PROHIBITIONS, type ValueSchema } from '@adec/abi';
import { SEC_VERSION, skillAuditFields, skillInputSchema, skillOutputSchema, type JsonSchemaObject, type SkillContractDocument, type Wire } from '@adec/contracts';
import type { CheckedSkill, CheckedWorld, RecordField } from '../model/index.js';
import { objectSchema } from './json-schema.js';

export type SkillContract = Wire<typeof SkillContractDocument>;

/** One document per skill, in the world's order of skills (the manifest's `skills`). */
export function skillContractDocuments(world: CheckedWorld): SkillContract[] {
  const skills = new Map(world.skills.map((skill) => [skill.id, skill]));
  const auditFields = skillAuditFields();
  return world.skills.map((skill) => skillContractDocument(skill, skills, auditFields));
}

/** What each universal check is, the same in every document. */
const UNIVERSAL_CHECKS: SkillContract['universal_checks'] = {
  invariants: UNIVERSAL_INVARIANTS.map((invariant) => ({ id: invariant.id, description: invariant.description, check: invariant.check })),
  prohibitions: UNIVERSAL_PROHIBITIONS.map((prohibition) => ({ id: prohibition.id, pattern: contractPattern(prohibition.regex), reason: prohibition.category })),
};

function skillContractDocument(skill: CheckedSkill, skills: ReadonlyMap<string, CheckedSkill>, auditFields: SkillContract['audit_fields']): SkillContract {
  const limits = enforcedSkillTimeLimits(skill);
  const identity = { skillId: skill.id, skillVersion: skill.version };
  const fallback = skill.fallback === undefined ? undefined : skills.get(skill.fallback);
  return {
    sec_version: SEC_VERSION,
    skill_id: skill.id,
    skill_version: skill.version,
    skill_type: skill.type,
    input_schema: skillInputSchema({
      ...identity,
      timeoutMs: limits.timeoutMs,
      actionMetadata: jsonSchema(objectSchema(skill.actionMetadata)),
      scenarioExtensions: jsonSchema(userStateSchema(skill.userState)),
    }),
    output_schema: skillOutputSchema({ ...identity, payload: jsonSchema(objectSchema(skill.output)) }),
    invariants: {
      universal: UNIVERSAL_INVARIANTS.map((invariant) => invariant.id),
      skill_specific: skill.invariants.map((invariant) => ({ id: invariant.id, description: invariant.description, check: invariant.source })),
    },
    prohibitions: {
      universal: true,
      skill_specific: skill.prohibitions.map((prohibition) => ({ id: prohibition.id, pattern: prohibition.pattern, reason: prohibition.reason })),
    },
    timeout: { default_ms: limits.timeoutMs, hard_limit_ms: limits.hardLimitMs },
    fallback: fallback === undefined ? null : { skill_id: fallback.id, skill_version: fallback.version },
    audit: { log_input: true, log_output: true, log_output_hash: true, retention_days: DEFAULT_RETENTION_DAYS },
    description: skill.description ?? null,
    universal_checks: UNIVERSAL_CHECKS,
    fallback_chain: fallbackChain(skill, fallback),
    templates: skill.templates.map((template) => template.name),
    audit_fields: auditFields,
  };
}

/**
 * The declared signals and state values. Each may be null: a state value whose derivation
 * failed reaches the skill as null (docs/spec/selection.md §3.2), whatever its type.
 */
function userStateSchema(fields: readonly RecordField[]): ValueSchema {
  const schema = objectSchema(fields);
  const properties: Record<string, ValueSchema> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) properties[name] = acceptsNull(property) ? property : { anyOf: [property, { type: 'null' }] };
  return { ...schema, properties };
}

function acceptsNull(schema: ValueSchema): boolean {
  return schema.type === 'null' || (schema.anyOf ?? []).some(acceptsNull);
}

/**
 * Tier 1 the skill, tier 2 its deterministic fallback (when it has one: the compiler refuses any
 * other, ADEC4016), tier 3 the minimal safe output (docs/spec/skill-contract.md §6.1).
 */
function fallbackChain(skill: CheckedSkill, fallback: CheckedSkill | undefined): SkillContract['fallback_chain'] {
  const tier2 =
    fallback === undefined
      ? []
      : [
          {
            tier: 2 as const,
            skill_id: fallback.id,
            skill_version: fallback.version,
            runs_when: `runs when tier 1's output cannot be used (timeout, executor error, failed validation, prohibited content)${skill.type === 'llm' ? ', and in its place when no model can run it or the execution mode is deterministic_only' : ''}`,
          },
        ];
  return [
    { tier: 1, skill_id: skill.id, skill_version: skill.version, runs_when: skill.type === 'llm' ? 'runs when a model executor is available and the execution mode is skill_enhanced' : 'runs first: its first template whose condition holds renders the payload' },
    ...tier2,
    { tier: 3, skill_id: null, skill_version: null, runs_when: `the minimal safe output, an empty payload: used when ${tier2.length === 0 ? "tier 1's output cannot be used" : 'tier 2 cannot be used either'}` },
  ];
}

/** A JavaScript regular expression as the contract language writes patterns (`(?i)…`). */
function contractPattern(regex: RegExp): string {
  return `${regex.flags.includes('i') ? '(?i)' : ''}${regex.source}`;
}

function jsonSchema(schema: ValueSchema): JsonSchemaObject {
  return schema as unknown as JsonSchemaObject;
}
