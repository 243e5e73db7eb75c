/**
 * Each skill's contract document (docs/spec/skill-contract.md §7), as `adec build` writes it into
 * the manifest, against what the engine really does: for every skill of examples/learning-coach
 * and examples/fitness, the document conforms to SkillContractDocument; its input schema accepts
 * the input envelope the engine builds for a real selection (an LLM skill's, as its executor
 * receives it; a deterministic skill's, as its templates receive it, captured by templates that
 * render their input) and refuses that input with any declared field of another type, any field
 * it does not declare or any part missing; its output schema accepts the output envelope the run
 * recorded; and its time limit is the one the engine ran the skill under.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { contractProblems, SkillContractDocument, type SkillInputEnvelope, type SkillOutput as SkillOutputSchema, type Wire } from '@adec/contracts';
import { llmStubExecutor, runCycle, type CandidateAction, type CycleRequest, type LlmExecutor, type ModuleSkillInput } from '@adec/engine';
import type { LoadedModule } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle } from '../../../test/support/runtime.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';
import { loadForSelection } from './selection-fixtures.js';

type SkillContract = Wire<typeof SkillContractDocument>;
type JsonObject = Record<string, unknown>;

/** What the engine did when a skill ran: the input it built, the output it recorded, its time limit. */
interface SkillRun {
  input?: JsonObject;
  output?: { payload: unknown; metadata: unknown };
  timeLimitMs?: number;
}

/** Every template of every skill renders its own input: the payload then is the input, recorded in the trace. */
const RENDER_THE_INPUT = 'for (const skill of Object.values(m._SKILLS)) for (const template of skill.templates) template.render = (input) => ({ captured_input: input });';

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, formats: { 'date-time': (text: string) => !Number.isNaN(Date.parse(text)) } });

interface WorldCase {
  readonly world: string;
  readonly requests: readonly CycleRequest[];
  /** A valid reply for each LLM skill (the stub executor's script). */
  readonly replies: Readonly<Record<string, JsonObject>>;
}

const LESSON: CandidateAction = { action_id: 'lesson-past-tense', type: 'lesson', title: 'The past tense', level: 'beginner', minutes: 20 };
const REVIEW: CandidateAction = { action_id: 'review-short', type: 'review', title: 'Quick review', cards: 30, minutes: 10 };
const HIIT: CandidateAction = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN: CandidateAction = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };

const WORLDS: readonly WorldCase[] = [
  {
    world: 'examples/learning-coach',
    requests: [
      { scenario: 'next_activity', signals: { cards_due: 12, lessons_this_week: 0 }, actions: [LESSON, REVIEW] },
      { scenario: 'next_activity', signals: { cards_due: 80, since_last_session: '9d' }, actions: [LESSON, REVIEW] },
    ],
    replies: { lesson_pitch: { note: 'The past tense opens the door to telling stories.', tone: 'warm' } },
  },
  {
    world: 'examples/fitness',
    requests: [{ scenario: 'fitness_daily_session', signals: { sessions_last_7d: 0, rest_days_last_7d: 3, consecutive_high_intensity: 0 }, actions: [HIIT, RUN] }],
    replies: { fitness_session_rationale: { rationale: 'HIIT Blast is a short, lively way to start the week.' } },
  },
];

describe.each(WORLDS)('$world', ({ world, requests, replies }) => {
  let documents: SkillContract[];
  const runs = new Map<string, SkillRun>();

  beforeAll(async () => {
    const artifacts = await buildFixture(world);
    // Read as the bundle holds them: manifest.json's bytes.
    documents = (JSON.parse(artifacts.manifestJson) as { skill_contracts: SkillContract[] }).skill_contracts;
    const bundle = asTestBundle(artifacts);
    const module = await loadForSelection(bundle);
    const capturing = await loadForSelection(injectIntoBundle(bundle, RENDER_THE_INPUT));
    const model = llmStubExecutor((call) => {
      run(call.skillId).input = call.input;
      return { payload: replies[call.skillId], tokenCount: 12 };
    });
    const run = (skillId: string): SkillRun => runs.get(skillId) ?? (runs.set(skillId, {}), runs.get(skillId)!);
    let sequence = 0;
    const decide = async (on: LoadedModule, request: CycleRequest, executors: readonly LlmExecutor[]) => {
      const result = await runCycle(on, request, { decisionId: testDecisionId(`${world}-${++sequence}`), timestamp: '2026-11-25T12:00:00.000Z', executors });
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      return result.trace.stages.execute_skill?.output.SkillOutput ?? null;
    };
    // With the model, the LLM skills run; without, their deterministic fallbacks run in their place.
    for (const request of requests) {
      for (const executors of [[model], []]) {
        const output = await decide(module, request, executors);
        if (output === null) continue;
        Object.assign(run(output.skill_bundle_id), { output: { payload: output.payload, metadata: output.metadata }, timeLimitMs: output.time_limit_ms });
        const captured = await decide(capturing, request, executors);
        if (captured !== null && captured.executor_id === 'deterministic') run(captured.skill_bundle_id).input = envelopeOf((captured.payload as { captured_input: ModuleSkillInput }).captured_input, captured);
      }
    }
  });

  test('one document per skill of the manifest, in its order', async () => {
    const manifest = JSON.parse((await buildFixture(world)).manifestJson) as { skills: { id: string; version: string; type: string }[] };
    expect(documents.map((document) => [document.skill_id, document.skill_version, document.skill_type])).toEqual(manifest.skills.map((skill) => [skill.id, skill.version, skill.type]));
  });

  test('every document conforms to SkillContractDocument, and its schemas compile in strict mode', () => {
    for (const document of documents) {
      expect(contractProblems(SkillContractDocument, document), document.skill_id).toEqual([]);
      expect(() => ajv.compile(document.input_schema), document.skill_id).not.toThrow();
      expect(() => ajv.compile(document.output_schema), document.skill_id).not.toThrow();
    }
  });

  test('every skill ran under the time limit its document states', () => {
    for (const document of documents) {
      expect(runs.get(document.skill_id)?.timeLimitMs, `${document.skill_id} did not run`).toBe(document.timeout.default_ms);
      expect(document.timeout.default_ms).toBeLessThanOrEqual(document.timeout.hard_limit_ms);
    }
  });

  test('the input schema accepts the input the engine built for the skill', () => {
    for (const document of documents) {
      const input = runs.get(document.skill_id)?.input;
      expect(input, `no input of ${document.skill_id} was captured`).toBeDefined();
      expect(problems(ajv.compile(document.input_schema), input as unknown as SecInput), document.skill_id).toEqual([]);
    }
  });

  test('the input schema refuses that input with a declared field of another type, a field it does not declare, a part missing or another skill', () => {
    for (const document of documents) {
      const validate = ajv.compile(document.input_schema);
      const variants = inputVariants(runs.get(document.skill_id)!.input as unknown as SecInput);
      expect(variants.length).toBeGreaterThan(10);
      for (const [name, variant] of variants) expect(validate(variant), `${document.skill_id}: ${name}`).toBe(false);
    }
  });

  test('the output schema accepts the output envelope the run recorded, and refuses it changed', () => {
    for (const document of documents) {
      const output = runs.get(document.skill_id)?.output;
      expect(output, `${document.skill_id} recorded no output`).toBeDefined();
      const validate = ajv.compile(document.output_schema);
      expect(problems(validate, output), document.skill_id).toEqual([]);
      const metadata = output!.metadata as JsonObject;
      for (const [name, variant] of [
        ['another skill id', { ...output, metadata: { ...metadata, skill_id: `${document.skill_id}_other` } }],
        ['another skill version', { ...output, metadata: { ...metadata, skill_version: '9.9.9' } }],
        ['a field added to the envelope', { ...output, extra: 1 }],
        ['a field added to the payload', { ...output, payload: { ...(output!.payload as JsonObject), extra: 'x' } }],
        ['no metadata', { payload: output!.payload }],
      ] as const) {
        expect(validate(variant), `${document.skill_id}: ${name}`).toBe(false);
      }
    }
  });
});

function problems(validate: ValidateFunction, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`);
}

type SecInput = Wire<typeof SkillInputEnvelope>;
type SkillOutput = Wire<typeof SkillOutputSchema>;

/**
 * A template sees the envelope's values under the language's roots (`moduleSkillInput`,
 * docs/spec/skill-contract.md 1.1.1): the envelope it was made from, its config as the trace
 * recorded the run.
 */
function envelopeOf(view: ModuleSkillInput, run: SkillOutput): JsonObject {
  const skill_config = { skill_id: run.skill_bundle_id, skill_version: run.skill_version, execution_mode: run.execution_mode, timeout_ms: run.time_limit_ms };
  return { decision_context: view.decision_context, user_state: { core: {}, scenario_extensions: view.user_state }, skill_config };
}

/** The input, each time broken in one way the contract refuses. */
function inputVariants(input: SecInput): [string, unknown][] {
  const variants: [string, unknown][] = [];
  const copy = () => structuredClone(input) as unknown as Record<string, JsonObject & Record<string, JsonObject>>;
  const declared = [
    ['decision_context', 'action_metadata'],
    ['user_state', 'scenario_extensions'],
  ] as const;
  for (const [part, fields] of declared) {
    for (const name of Object.keys(input[part][fields as never])) {
      const wrong = copy();
      wrong[part]![fields]![name] = { not: 'a declared type' };
      variants.push([`${part}.${fields}.${name} of another type`, wrong]);
    }
    const extra = copy();
    extra[part]![fields]!['undeclared_field'] = 1;
    variants.push([`${part}.${fields} with a field it does not declare`, extra]);
  }
  for (const part of ['decision_context', 'user_state', 'skill_config'] as const) {
    for (const name of Object.keys(input[part])) {
      const missing = copy();
      Reflect.deleteProperty(missing[part]!, name);
      variants.push([`${part}.${name} missing`, missing]);
    }
    const extra = copy();
    extra[part]!['undeclared_field'] = {};
    variants.push([`${part} with a field it does not declare`, extra]);
    const whole = copy();
    Reflect.deleteProperty(whole, part);
    variants.push([`${part} missing`, whole]);
  }
  const core = copy();
  core['user_state']!['core'] = { raw_user_data: 'x' };
  variants.push(['user_state.core holding a field', core]);
  for (const [name, value] of [
    ['skill_id', `${input.skill_config.skill_id}_other`],
    ['skill_version', '9.9.9'],
    ['timeout_ms', input.skill_config.timeout_ms + 1],
    ['execution_mode', 'fast'],
  ] as const) {
    const other = copy();
    other['skill_config']![name] = value as never;
    variants.push([`skill_config.${name} of another skill`, other]);
  }
  const decisionId = copy();
  decisionId['decision_context']!['decision_id'] = 'd-1' as never;
  variants.push(['a decision id that is no UUID v4', decisionId]);
  const ranked = copy();
  (ranked['decision_context']!['ranked_options'] as unknown as unknown[]).push(...Array.from({ length: 4 }, (_, i) => ({ action_id: `a${i}`, score: 0, rank: i + 1 })));
  variants.push(['more than three ranked options', ranked]);
  return variants;
}
