/**
 * Loading a module prepares everything its first selection needs (docs/spec/selection.md §7.4),
 * so that the first selection after a load is as fast as any other. Hosts pass it to the
 * loader as `prepare` beside SELECTION_EXTENSION.
 *
 * Measured before (learning-coach, fresh process): the first selection took 145–340 ms against
 * 2 ms warm; stage 5 (reading the skills, ajv's first compile) 40–90 ms and stage 7 (the first
 * run of the text checks: compiling the ranking-language and prohibition patterns, the reading
 * code) 85–210 ms. So preparation does, once, at load:
 *
 *   1. the scenario catalog: the isolate's scenarios, each signal's and field's converter;
 *   2. the skill catalog: every skill's contract, its output schema compiled, its prohibitions;
 *   3. one warm-up run of stages 6 and 7 per skill, on a synthetic input and payload: the
 *      skill's template or prompt and its compiled invariants cross into the isolate, and the
 *      payload goes through every check of stage 7, so that the host's checking code and its
 *      patterns, and the isolate's skill functions, have run once.
 *
 * A warm-up run is nothing but that: it is no decision, its result is dropped, and it is never
 * audited, returned or seen by a model (no executor is given one).
 */
import type { ValueSchema, ValueType } from '@adec/abi';
import type { LoadedModule, ModulePreparation } from '@adec/runtime';
import { scenarioCatalog } from './scenario-catalog.js';
import type { ExecutionMode } from './selection-request.js';
import { timeLimitOf } from './skills/execute-skill.js';
import { skillCatalog, type SkillContract } from './skills/skill-catalog.js';
import { SkillCrossings } from './skills/skill-crossings.js';
import type { SkillInput } from './skills/skill-input.js';
import { validateOutput } from './skills/validate-output.js';

/**
 * Preparation's crossings run on an isolate that has not run yet, on a machine that may be busy
 * loading: a crossing given a selection's limit could time out there, and the runtime would
 * rebuild the isolate it was warming. A crossing that never ends still ends.
 */
const PREPARATION_TIME_LIMIT_MS = 1_000;

/** Who the synthetic input is about: no candidate of any request can be a decision of its. */
const WARM_UP_DECISION_ID = '00000000-0000-4000-8000-000000000000';
const WARM_UP_ACTION = 'warm-up';
/** Every string of a warm-up payload: plain text, which every text check reads in full. */
const WARM_UP_TEXT = 'A short session today keeps the habit going.';

export async function prepareSelection(module: LoadedModule): Promise<ModulePreparation> {
  const started = performance.now();
  const finished = (prepared: Record<string, number>, problem: string | null): ModulePreparation => ({ durationMs: performance.now() - started, prepared, problem });
  const scenarios = await scenarioCatalog(module, PREPARATION_TIME_LIMIT_MS);
  if (!scenarios.ok) return finished({}, `${scenarios.error.code}: ${scenarios.error.message}`);
  const skills = await skillCatalog(module, PREPARATION_TIME_LIMIT_MS);
  if (!skills.ok) return finished({ scenarios: scenarios.catalog.size }, `${skills.error.code}: ${skills.error.message}`);
  const contracts = [...skills.catalog.values()];
  for (const skill of contracts) await warmUp(module, skill);
  return finished(
    {
      scenarios: scenarios.catalog.size,
      skills: contracts.length,
      output_schemas: contracts.length,
      prohibitions: contracts.reduce((sum, skill) => sum + skill.prohibitions.length, 0),
      warm_up_runs: contracts.length,
    },
    null,
  );
}

/** Stages 6 and 7 of `skill` once, on a synthetic input; whatever they answer is dropped. */
async function warmUp(module: LoadedModule, skill: SkillContract): Promise<void> {
  const mode: ExecutionMode = skill.type === 'llm' ? 'skill_enhanced' : 'deterministic_only';
  const input = warmUpInput(skill, mode);
  const crossings = new SkillCrossings(module);
  await crossings.call(skill.type === 'llm' ? '__adec_skill_prompt' : '__adec_skill_render', skill.id, JSON.stringify(input), PREPARATION_TIME_LIMIT_MS);
  const candidates = [{ action_id: WARM_UP_ACTION, type: WARM_UP_ACTION }];
  await validateOutput(samplePayload(skill.outputSchema), { crossings, skill, input, candidates, competitorNames: [WARM_UP_ACTION], timeLimitMs: PREPARATION_TIME_LIMIT_MS });
}

/** The skill's input envelope with every field it reads null, as for an absent optional value. */
function warmUpInput(skill: SkillContract, mode: ExecutionMode): SkillInput {
  const nulls = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, null]));
  const actionMetadata = nulls(skill.actionMetadataFields);
  return {
    decision_context: { decision_id: WARM_UP_DECISION_ID, selected_action: WARM_UP_ACTION, action_metadata: actionMetadata, ranked_options: [{ action_id: WARM_UP_ACTION, score: 0, rank: 1 }], guardrails_applied: [] },
    action_metadata: actionMetadata,
    user_state: nulls(skill.userStateFields),
    skill_config: { skill_id: skill.id, skill_version: skill.version, execution_mode: mode, timeout_ms: timeLimitOf(skill) },
  };
}

/** A value of `schema`'s shape, every string WARM_UP_TEXT: what a skill's payload looks like. */
function samplePayload(schema: ValueSchema): unknown {
  const type: ValueType | undefined = typeof schema.type === 'string' ? schema.type : schema.type?.[0];
  if (schema.enum !== undefined) return schema.enum[0] ?? null;
  if (schema.anyOf !== undefined) return samplePayload(schema.anyOf.find((option) => option.type !== 'null') ?? {});
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, samplePayload(property)]));
    case 'array':
      return schema.items === undefined ? [] : [samplePayload(schema.items)];
    case 'string':
      return WARM_UP_TEXT;
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
