/**
 * Loading a module prepares everything its first selection needs (docs/spec/selection.md §7.4),
 * so that the first selection after a load is as fast as any other. Hosts pass it to the
 * loader as `prepare` beside SELECTION_EXTENSION.
 *
 * Measured (learning-coach and fitness, a fresh process each, a 2-core machine shared with other
 * work; bench/select/first-selection-bench.mjs): without preparation the first selection took
 * 150–700 ms against 1–2 ms warm; stage 5 (reading the skills, ajv's first compile) 40–380 ms
 * and stage 7 (the first run of the text checks: compiling the ranking-language and prohibition
 * patterns, the reading code) 85–450 ms. The designs tried, each measured:
 *
 *   - the catalogs alone read at load: stage 5 at 0.1 ms, but stage 7 still 86 ms;
 *   - and one warm-up of each skill's stages 6–7: 6–9 ms in process, but in a sandbox process
 *     the first crossing of stages 2–4 cost 20–40 ms, once 65 ms (its time limit);
 *   - and one warm-up cycle per scenario and mode: first selections 4–30 ms, the few after it
 *     still 2–4 times a warm one (code V8 had run only once);
 *   - and cycles per action type with tied candidates, three rounds: first selections p50
 *     4–9 ms, max 20 ms, stage 5 at 0.02 ms as warm, but stage 7 still 3–6 ms (warm: 0.3–1);
 *   - the same, ten rounds (this file): see WARM_UP_ROUNDS.
 *
 * So preparation does, once, at load:
 *
 *   1. the scenario catalog: the isolate's scenarios, each signal's and field's converter;
 *   2. the skill catalog: every skill's contract, its output schema compiled, its prohibitions;
 *   3. one warm-up run of stages 6 and 7 per skill on a synthetic input and payload: its
 *      template or prompt and its compiled invariants cross into the isolate, and the payload
 *      goes through every check of stage 7;
 *   4. warm-up cycles (stages 1 to 9), WARM_UP_ROUNDS times (within WARM_UP_BUDGET_MS) for each
 *      scenario, action type and mode, on a synthetic request: two alike candidates of the type, every required value
 *      the smallest its schema allows (sample-value.ts); in `skill_enhanced` an LLM skill is
 *      answered at once by a stub.
 *
 * A warm-up is nothing but that: no decision, its result dropped, never audited, returned or
 * shown to a model (no executor is given one).
 */
import type { LoadedModule, ModulePreparation } from '@adec/runtime';
import { runCycle } from './cycle/run-cycle.js';
import { llmStubExecutor } from './skills/executors/llm-stub-executor.js';
import { sampleValue } from './sample-value.js';
import { scenarioCatalog, type ScenarioSpec } from './scenario-catalog.js';
import type { ExecutionMode, SelectionRequest } from './selection-request.js';
import { timeLimitOf } from './skills/execute-skill.js';
import { skillCatalog, type SkillContract } from './skills/skill-catalog.js';
import { SkillCrossings } from './skills/skill-crossings.js';
import { moduleSkillInput, type SkillInput } from './skills/skill-input.js';
import { validateOutput } from './skills/validate-output.js';

/**
 * Preparation's crossings run on an isolate that has not run yet, on a machine that may be busy
 * loading: a crossing given a selection's limit could time out there, and the runtime would
 * rebuild the isolate it was warming. A crossing that never ends still ends.
 */
const PREPARATION_TIME_LIMIT_MS = 1_000;

/** The warm-up's decision: a UUID v4 no service generates for a decision of its own. */
const WARM_UP_DECISION_ID = '00000000-0000-4000-8000-000000000000';
const WARM_UP_TIMESTAMP = '2026-01-01T00:00:00.000Z';
const WARM_UP_ACTION = 'warm-up';
/** Both modes, so that an LLM skill's path (prompt, reply, parse) has run too. */
const WARM_UP_MODES: readonly ExecutionMode[] = ['deterministic_only', 'skill_enhanced'];
/**
 * How often the warm-up cycles run. Measured (bench/RESULTS.md "First selection after a load"):
 * after one round the next few selections still took 2–4 times a warm one, and after three or
 * six the first real selection still spent 3–10 ms in stage 7, where V8 chose that moment to
 * optimize the text-reading code (and prepared the optimization on the main thread); after ten
 * rounds that happened during the load, and the first selection took 1–2 ms, as warm.
 */
const WARM_UP_ROUNDS = 10;
/** No more rounds are started past this much preparation: a world of many action types has warmed its code sooner. */
const WARM_UP_BUDGET_MS = 2_000;
/** Answers every call at once with a payload of the skill's output schema: no model is asked. */
const WARM_UP_MODEL = llmStubExecutor((call) => ({ payload: sampleValue(call.outputSchema) }), { id: 'warm-up' });

export async function prepareSelection(module: LoadedModule): Promise<ModulePreparation> {
  const started = performance.now();
  const finished = (prepared: Record<string, number>, problem: string | null): ModulePreparation => ({ durationMs: performance.now() - started, prepared, problem });
  const scenarios = await scenarioCatalog(module, PREPARATION_TIME_LIMIT_MS);
  if (!scenarios.ok) return finished({}, `${scenarios.error.code}: ${scenarios.error.message}`);
  const skills = await skillCatalog(module, PREPARATION_TIME_LIMIT_MS);
  if (!skills.ok) return finished({ scenarios: scenarios.catalog.size }, `${skills.error.code}: ${skills.error.message}`);
  const contracts = [...skills.catalog.values()];
  for (const skill of contracts) await warmUpSkill(module, skill);
  const refused: string[] = [];
  let cycles = 0;
  for (let round = 0; round < WARM_UP_ROUNDS && (round === 0 || performance.now() - started < WARM_UP_BUDGET_MS); round++) {
    for (const scenario of scenarios.catalog.values()) {
      for (const type of scenario.actionTypes.keys()) {
        for (const mode of WARM_UP_MODES) {
          const options = { decisionId: WARM_UP_DECISION_ID, timestamp: WARM_UP_TIMESTAMP, timeLimitMs: PREPARATION_TIME_LIMIT_MS, executors: mode === 'skill_enhanced' ? [WARM_UP_MODEL] : [] };
          const cycle = await runCycle(module, { ...warmUpRequest(scenario, type), execution_mode_override: mode }, options);
          if (cycle.ok) cycles += 1;
          else if (round === 0) refused.push(`scenario \`${scenario.id}\`, action type \`${type}\`, ${mode}: ${cycle.error.code}: ${cycle.error.message}`);
        }
      }
    }
  }
  const prepared = {
    scenarios: scenarios.catalog.size,
    skills: contracts.length,
    output_schemas: contracts.length,
    prohibitions: contracts.reduce((sum, skill) => sum + skill.prohibitions.length, 0),
    warm_up_skill_runs: contracts.length,
    warm_up_cycles: cycles,
  };
  return finished(prepared, refused.length === 0 ? null : `a warm-up cycle could not run (${refused.join('; ')}); the first such selection may be slower`);
}

/** Stages 6 and 7 of `skill` once, on a synthetic input; whatever they answer is dropped. */
async function warmUpSkill(module: LoadedModule, skill: SkillContract): Promise<void> {
  const mode: ExecutionMode = skill.type === 'llm' ? 'skill_enhanced' : 'deterministic_only';
  const input = warmUpInput(skill, mode);
  const crossings = new SkillCrossings(module);
  await crossings.call(skill.type === 'llm' ? '__adec_skill_prompt' : '__adec_skill_render', skill.id, JSON.stringify(moduleSkillInput(input)), PREPARATION_TIME_LIMIT_MS);
  // A rival with a name, so that the authority check's search for other candidates runs too.
  const candidates = [{ action_id: WARM_UP_ACTION, type: WARM_UP_ACTION, title: 'Warm-up' }, { action_id: `${WARM_UP_ACTION}-rival`, type: WARM_UP_ACTION, title: 'Another plan' }];
  // An llm skill's payload comes in a model's reply, whose envelope stage 7 reads too.
  const payload = sampleValue(skill.outputSchema);
  const reply = { payload, metadata: { skill_id: skill.id, skill_version: skill.version, generated_at: WARM_UP_TIMESTAMP } };
  const output = { payload, model_outcome: skill.type === 'llm' ? { kind: 'reply' as const, text: JSON.stringify(reply), token_count: null } : null };
  await validateOutput(output, { crossings, skill, input, candidates, competitorNames: [WARM_UP_ACTION], timeLimitMs: PREPARATION_TIME_LIMIT_MS });
}

/** The skill's input envelope with every field it reads null, as for an absent optional value. */
function warmUpInput(skill: SkillContract, mode: ExecutionMode): SkillInput {
  const nulls = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, null]));
  return {
    decision_context: { decision_id: WARM_UP_DECISION_ID, selected_action: WARM_UP_ACTION, action_metadata: nulls(skill.actionMetadataFields), ranked_options: [{ action_id: WARM_UP_ACTION, score: 0, rank: 1 }], guardrails_applied: [] },
    user_state: { core: {}, scenario_extensions: nulls(skill.userStateFields) },
    skill_config: { skill_id: skill.id, skill_version: skill.version, execution_mode: mode, timeout_ms: timeLimitOf(skill) },
  };
}

/**
 * A request of `scenario` with its required signals and two candidates of action type `type`,
 * alike but for their id: when both stay eligible their scores tie and the tie-breaks run, and
 * the one selected is of `type`, so that its skill runs on values of the action's own shape.
 */
function warmUpRequest(scenario: ScenarioSpec, type: string): SelectionRequest {
  const signals = Object.fromEntries(scenario.signals.filter((signal) => !signal.hasDefault && !signal.optional).map((signal) => [signal.name, sampleValue(signal.schema, 'null')]));
  const fields = scenario.actionTypes.get(type) ?? [];
  const values = Object.fromEntries(fields.filter((field) => !field.optional).map((field) => [field.name, sampleValue(field.schema, 'null')]));
  return { scenario: scenario.id, signals, actions: [1, 2].map((twin) => ({ action_id: `${WARM_UP_ACTION}-${twin}`, type, ...values })) };
}
