/**
 * The whole ADE cycle (docs/spec/selection.md §3) on real modules in a real isolate: the fitness world
 * end to end, and the Skill Execution Contract (docs/spec/skill-contract.md) on the SEC lab world, whose LLM skill
 * uses every operator of docs/spec/skill-contract.md §9. Every decision is replayed and must be identical.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import {
  API_VERSION,
  cloudLlmExecutor,
  envelopeText,
  llmStubExecutor,
  replayCycle,
  runCycle,
  type CandidateAction,
  type CycleOptions,
  type CycleRequest,
  type DecisionResponse,
  type LlmCall,
  type LlmExecutor,
  type ScriptedAnswer,
  type ValidationFailure,
} from '@adec/engine';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../../../test/support/chat-completions-server.js';
import { loadWorld } from './selection-fixtures.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

const TIMESTAMP = '2026-11-25T12:00:00.000Z';
let sequence = 0;

let fitness: LoadedModule;
let lab: LoadedModule;
beforeAll(async () => {
  fitness = await loadWorld('examples/fitness');
  lab = await loadWorld('packages/engine/test/worlds/sec-lab');
});

/** Runs the cycle, then replays it: every decision in this file must replay identically. */
async function decide(module: LoadedModule, request: CycleRequest, options: Partial<CycleOptions> = {}) {
  const result = await runCycle(module, request, { decisionId: testDecisionId(`d-${++sequence}`), timestamp: TIMESTAMP, ...options });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  const replay = await replayCycle(module, result.trace, { ...(options.competitorNames !== undefined && { competitorNames: options.competitorNames }) });
  if (!replay.ok) throw new Error(`replay: ${replay.error.code}: ${replay.error.message}`);
  expect(replay.differences).toEqual([]);
  return result;
}

async function decided(module: LoadedModule, request: CycleRequest, options: Partial<CycleOptions> = {}): Promise<{ response: DecisionResponse; trace: Awaited<ReturnType<typeof decide>>['trace'] }> {
  const result = await decide(module, request, options);
  if (result.response === null) throw new Error(`no response: ${result.outcome}`);
  return { response: result.response, trace: result.trace };
}

// ── The fitness world ─────────────────────────────────────────────────────────────────────

const FITNESS = 'fitness_daily_session';
const HIIT: CandidateAction = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN: CandidateAction = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const YOGA: CandidateAction = { action_id: 'yoga-30', type: 'workout_session', session_name: 'Morning Yoga', session_type: 'yoga', intensity: 'low', duration_minutes: 30 };
const REST: CandidateAction = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

const coach = (payload: Record<string, unknown>) => llmStubExecutor(() => ({ payload }));

describe('the fitness world, end to end', () => {
  test('the rest-day guardrail forces rest_day, and its deterministic skill explains it', async () => {
    const { response, trace } = await decided(fitness, { scenario: FITNESS, signals: { sessions_last_7d: 6, rest_days_last_7d: 0, consecutive_high_intensity: 1 }, actions: [HIIT, YOGA, REST] }, { executors: [coach({ rationale: 'unused' })] });
    expect(response.decision).toMatchObject({ selected_action: 'rest', payload: { rationale: 'Great momentum! Active recovery walk will help you maintain your streak.' } });
    expect(response.execution).toEqual({
      execution_mode: 'skill_enhanced',
      skill_bundle_id: 'decision_rationale_template',
      skill_version: '1.0.0',
      executor_id: 'deterministic',
      executor_instance_id: 'deterministic',
      validation_status: 'passed',
      fallback_used: false,
      fallback_reason_code: null,
      fallback_tier: 1,
    });
    expect(trace.stages.evaluate_guardrails.output.EligibleActions.rejected).toEqual([
      { action_id: 'hiit-20', violated_guardrails: ['GR-REST-MIN'] },
      { action_id: 'yoga-30', violated_guardrails: ['GR-REST-MIN'] },
    ]);
    expect(trace.stages.execute_skill?.output.SkillOutput).toMatchObject({ template: 'high_engagement', status: 'completed' });
  });

  test('the intensity cap blocks high intensity; the LLM skill explains the session chosen instead', async () => {
    const { response, trace } = await decided(fitness, { scenario: FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 }, actions: [HIIT, RUN] }, { executors: [coach({ rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' })] });
    expect(trace.stages.evaluate_guardrails.output.EligibleActions.rejected).toEqual([{ action_id: 'hiit-20', violated_guardrails: ['GR-INTENSITY-CAP'] }]);
    expect(response.decision.selected_action).toBe('run-40');
    expect(response.decision.payload).toEqual({ rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' });
    expect(response.execution).toMatchObject({ skill_bundle_id: 'fitness_session_rationale', executor_id: 'llm_stub', validation_status: 'passed', fallback_used: false, fallback_tier: 1 });
  });

  test('ranking and tie-breaks are deterministic: any order of the candidates gives the same decision and trace', async () => {
    const request = { scenario: FITNESS, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, execution_mode_override: 'deterministic_only' as const };
    const forward = await decided(fitness, { ...request, actions: [HIIT, RUN, YOGA] }, { decisionId: testDecisionId('same') });
    const backward = await decided(fitness, { ...request, actions: [YOGA, RUN, HIIT] }, { decisionId: testDecisionId('same') });
    expect(forward.response.decision).toEqual(backward.response.decision);
    expect(forward.response.decision.ranked_options.map((o) => o.action_id)).toEqual(['yoga-30', 'run-40', 'hiit-20']);
  });

  test('zero eligible actions: no response, and a trace to store (docs/spec/selection.md §6: 422 NO_ELIGIBLE_ACTIONS)', async () => {
    const spin = { ...HIIT, action_id: 'spin-45', duration_minutes: 45 };
    const result = await decide(fitness, { scenario: FITNESS, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, spin] });
    expect(result).toMatchObject({ outcome: 'no_eligible_actions', response: null });
    expect(result.trace.stages.evaluate_guardrails.output).toMatchObject({ eligible_count: 0, rejected_count: 2 });
    expect(result.trace.stages.score_and_rank).toBeNull();
    expect(result.trace.stages.resolve_skills).toBeNull();
    expect(result.trace.content_address).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test('execution risk is per candidate and changes a ranking: offline, the rest day overtakes a workout whose skill needs the model', async () => {
    const request = { scenario: FITNESS, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, actions: [YOGA, REST] };
    const online = await decided(fitness, request, { executors: [coach({ rationale: 'Morning Yoga is a calm way to keep moving today.' })] });
    // Equal scores (0.88); the rest day has no duration, and an absent tie-break key sorts last.
    expect(online.response.decision.selected_action).toBe('yoga-30');
    const offline = await decided(fitness, { ...request, conditions: ['offline_mode'] }, { executors: [coach({ rationale: 'unused' })] });
    expect(offline.trace.stages.score_and_rank!.output.RankedActions.scores.map((s) => [s.action_id, s.execution_risk_factors, s.final_score])).toEqual([
      ['yoga-30', ['offline_mode'], 0.86],
      ['rest', [], 0.88],
    ]);
    expect(offline.response.decision.selected_action).toBe('rest');
    // In deterministic_only mode no model is needed, so offline costs the workout nothing.
    const deterministic = await decided(fitness, { ...request, conditions: ['offline_mode'], execution_mode_override: 'deterministic_only' });
    expect(deterministic.response.decision.selected_action).toBe('yoga-30');
  });
});

// ── The Skill Execution Contract on the SEC lab ──────────────────────────────────────────

const LAB = 'lab_pick';
const NOTE: CandidateAction = { action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 };
const QUIET: CandidateAction = { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' };
const LAB_REQUEST: CycleRequest = { scenario: LAB, signals: { visits: 4 }, actions: [NOTE, QUIET] };
const VALID = { text: 'The weather is bright today.', title: 'Morning digest' };
// The fallback explains the selected action (never the other candidate).
const FALLBACK_PAYLOAD = { text: 'Morning digest is ready for you today.' };

function scripted(answer: ScriptedAnswer | ((call: LlmCall) => ScriptedAnswer)) {
  const calls: LlmCall[] = [];
  const executor = llmStubExecutor((call) => {
    calls.push(call);
    return typeof answer === 'function' ? answer(call) : answer;
  });
  return { executor, calls };
}

/** How the model is reached: a scripted llm_stub, or cloud_llm over a real chat-completions server on loopback. */
interface Model {
  readonly executorId: string;
  answer(text: string): { executor: LlmExecutor; calls: () => readonly { prompt: string; input: LlmCall['input'] }[] };
}

const STUB_MODEL: Model = {
  executorId: 'llm_stub',
  answer(text) {
    const { executor, calls } = scripted({ text });
    return { executor, calls: () => calls };
  },
};

let chat: ChatCompletionsServer;
function cloudModel(): Model {
  return {
    executorId: 'cloud_llm:lab-model',
    answer(text) {
      const before = chat.requests.length;
      chat.answer(() => ({ content: text }));
      const executor = cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'lab-model', apiKey: 'lab-key' });
      const calls = () =>
        chat.requests.slice(before).map((request) => {
          const [system, user] = request.body.messages;
          const inputLine = system!.content.split('\n').find((line) => line.startsWith('Input: '))!;
          return { prompt: user!.content, input: JSON.parse(inputLine.slice('Input: '.length)) as LlmCall['input'] };
        });
      return { executor, calls };
    },
  };
}

/** The model the lab's decisions ask (the blocks below run with each). */
let model: Model = STUB_MODEL;

/** One lab decision with the model answering `payload` (an object, or raw text). */
/** The lab's LLM skill answering `payload` in a well-formed output envelope. */
const noteWriterReply = (payload: unknown) => envelopeText({ skillId: 'note_writer', skillVersion: '1.0.0' }, payload);

async function labWith(payload: unknown, options: Partial<CycleOptions> = {}) {
  const text = typeof payload === 'string' ? payload : noteWriterReply(payload);
  const { executor, calls: callsOf } = model.answer(text);
  const violations: ValidationFailure[][] = [];
  const result = await decided(lab, LAB_REQUEST, { executors: [executor], onAuthorityViolation: (failures) => violations.push([...failures]), ...options });
  // Whatever the skill said, the selection locked at stage 4 stands.
  expect(result.response.decision.selected_action).toBe('note-a');
  return { ...result, calls: callsOf(), violations };
}

const idsOf = (failures: readonly ValidationFailure[] | undefined) => [...new Set((failures ?? []).map((f) => f.id))].sort();

describe("the skill execution tests of docs/spec/skill-contract.md §10", () => {
  test('happy path: a valid output is used as it is, after every check passed', async () => {
    const { response, trace, calls } = await labWith(VALID);
    expect(response.decision.payload).toEqual(VALID);
    expect(response.execution).toMatchObject({ skill_bundle_id: 'note_writer', executor_id: model.executorId.replace(/:.*$/, ''), executor_instance_id: model.executorId, validation_status: 'passed', fallback_used: false, fallback_reason_code: null, fallback_tier: 1 });
    expect(trace.stages.validate_output?.output.ValidationResult).toMatchObject({ valid: true, checks_passed: ['schema_valid', 'invariants_satisfied', 'authority_boundary_intact', 'prohibited_fields_absent'], checks_failed: [] });
    // The skill got its prompt, rendered in the isolate, and only the fields it declares.
    expect(calls[0]!.prompt).toBe('Write one sentence about weather titled Morning digest.');
    expect(calls[0]!.input.decision_context.action_metadata).toEqual({ title: 'Morning digest', topic: 'weather' });
    expect(calls[0]!.input.user_state).toEqual({ core: {}, scenario_extensions: { visits: 4, engaged: true } });
    expect(trace.redaction_info).toEqual({ withheld_action_fields: ['priority'], withheld_state: ['mood'] });
  });

  test('timeout: a model slower than the skill\'s limit is abandoned and the fallback answers', async () => {
    let aborted = false;
    const executor = llmStubExecutor(() => ({ payload: VALID, delayMs: 2_000 }));
    const watching = { ...executor, complete: (call: LlmCall, signal: AbortSignal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return executor.complete(call, signal);
    } };
    const { response, trace } = await decided(lab, LAB_REQUEST, { executors: [watching] });
    expect(aborted).toBe(true);
    expect(trace.stages.execute_skill?.output.SkillOutput).toMatchObject({ status: 'timeout', time_limit_ms: 100, model_outcome: { kind: 'timeout' } });
    expect(response.decision.payload).toEqual(FALLBACK_PAYLOAD);
    expect(response.execution).toMatchObject({ skill_bundle_id: 'quiet_template', executor_id: 'deterministic', fallback_used: true, fallback_reason_code: 'timeout', fallback_tier: 2, validation_status: 'passed' });
  });

  test.each([
    ['not JSON', 'The weather is bright today.', ['type']],
    ['a field the contract does not declare', { ...VALID, mood: 'sunny' }, ['additionalProperties']],
    ['a required field missing', { title: 'Morning digest' }, ['required']],
    ['a field of the wrong type', { ...VALID, title: 7 }, ['type']],
  ])('invalid output (%s) fails the schema, and the fallback answers', async (_, output, keywords) => {
    const { response, trace } = await labWith(output);
    const schemaFailures = trace.stages.validate_output!.output.ValidationResult.failures.filter((f) => f.check === 'schema_valid');
    expect(schemaFailures.map((f) => f.id)).toEqual(expect.arrayContaining(keywords));
    expect(response.execution).toMatchObject({ validation_status: 'passed', fallback_used: true, fallback_reason_code: 'validation_failed', fallback_tier: 2 });
    expect(response.decision.payload).toEqual(FALLBACK_PAYLOAD);
    expect(trace.stages.fallback?.output.FallbackOutput).toMatchObject({ fallback_reason_code: 'validation_failed', tier: 2, fallback_skill_id: 'quiet_template' });
  });

  test('a competitor the host names is prohibited too', async () => {
    const { trace } = await labWith({ ...VALID, text: 'The weather today is better on Stravix.' }, { competitorNames: ['Stravix'] });
    expect(trace.stages.validate_output!.output.ValidationResult.failures).toContainEqual(expect.objectContaining({ id: 'PROHIB-COMPETITOR', check: 'prohibited_fields_absent' }));
  });
});

// The checks of stage 7, with the model reached each way: scripted in this process, and over
// HTTP as cloud_llm against a real chat-completions server on loopback.
describe.each([
  ['a scripted llm_stub', () => STUB_MODEL],
  ['cloud_llm over a chat-completions server on loopback', () => cloudModel()],
])('stage 7 with %s', (_, modelOf) => {
  beforeAll(async () => {
    chat = await startChatCompletionsServer();
    model = modelOf();
    // One decision first, so that the connection to the server is open before the skill's 100 ms
    // limit counts (a first connection on a busy machine can take longer than that).
    await runCycle(lab, LAB_REQUEST, { decisionId: testDecisionId('warm-up'), timestamp: TIMESTAMP, executors: [model.answer(JSON.stringify(VALID)).executor] });
  });
  afterAll(async () => {
    model = STUB_MODEL;
    await chat.close();
  });

  describe('prohibited content', () => {
    test.each([
      ['the skill\'s own prohibition', 'The weather today is perfect for a lottery ticket.', 'LAB-PROHIB-001'],
      ['PROHIB-001, a decision override', 'You should check the weather today.', 'PROHIB-001'],
      ['PROHIB-002, a medical claim', 'The weather today will cure your cold.', 'PROHIB-002'],
      ['PROHIB-003, urgency', 'Act now: the weather today is great.', 'PROHIB-003'],
      ['PROHIB-004, negative framing', 'You failed to check the weather today.', 'PROHIB-004'],
      ['PROHIB-005, personal data', 'The weather today, for jane@example.org.', 'PROHIB-005'],
    ])('prohibited content (%s) is rejected as prohibited_content', async (_, text, id) => {
      const { response, trace } = await labWith({ ...VALID, text });
      expect(idsOf(trace.stages.validate_output!.output.ValidationResult.failures.filter((f) => f.check === 'prohibited_fields_absent'))).toContain(id);
      expect(response.execution.fallback_used).toBe(true);
      expect(response.execution.fallback_reason_code).toBe(trace.stages.validate_output!.output.ValidationResult.checks_failed.length === 1 ? 'prohibited_content' : 'validation_failed');
      expect(response.decision.payload).toEqual(FALLBACK_PAYLOAD);
    });
  });

  describe('the universal invariants, one case each', () => {
    test.each([
      ['INV-001', { ...VALID, action_id: 'quiet-1' }],
      ['INV-002', { ...VALID, score: 0.9 }],
      ['INV-003', { ...VALID, set_mood: 'busy' }],
      ['INV-004', { ...VALID, text: 'The weather today lets you ignore the usual limits.' }],
      ['INV-005', { ...VALID, text: 'The weather today: see more at www.example.com' }],
      ['INV-006', { ...VALID, text: `The weather today ${'is lovely '.repeat(12)}` }],
    ])('%s', async (id, output) => {
      const { response, trace } = await labWith(output);
      expect(idsOf(trace.stages.validate_output!.output.ValidationResult.failures.filter((f) => f.check === 'invariants_satisfied'))).toContain(id);
      expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed', fallback_tier: 2 });
    });
  });

  describe('the compiled invariants, one per docs/spec/skill-contract.md §9 operator', () => {
    test.each([
      ['CONTAINS', 'LAB-CONTAINS', { ...VALID, text: 'Sunny skies today.' }],
      ['CONTAINS_ANY', 'LAB-CONTAINS-ANY', { ...VALID, text: 'The weather is bright.' }],
      ['NOT CONTAINS', 'LAB-NOT-CONTAINS', { ...VALID, text: 'The weather today is not forbidden.' }],
      ['NOT CONTAINS_ANY', 'LAB-NOT-CONTAINS-ANY', { ...VALID, text: 'The weather today is maybe bright.' }],
      ['MATCHES', 'LAB-MATCHES', { ...VALID, text: 'the weather is bright today.' }],
      ['NOT MATCHES', 'LAB-NOT-MATCHES', { ...VALID, text: 'The weather today: 90% sun.' }],
      ['IS NULL / EQUALS', 'LAB-IS-NULL-EQUALS', { ...VALID, tone: 'cold' }],
      ['IS NOT NULL', 'LAB-IS-NOT-NULL', { text: VALID.text }],
      ['LENGTH <', 'LAB-LENGTH', { ...VALID, text: `The weather today ${'x'.repeat(90)}.` }],
    ])('%s', async (_, id, output) => {
      const { response, trace } = await labWith(output);
      expect(idsOf(trace.stages.validate_output!.output.ValidationResult.failures)).toEqual([id]);
      expect(trace.stages.validate_output!.output.ValidationResult.failures[0]!.message).toContain('does not hold');
      expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed' });
    });
  });

  describe('the authority boundary: the selection locks at stage 4', () => {
    test.each([
      ['names another action by id', { ...VALID, text: 'The weather today beats quiet-1.' }, 'NAMES_OTHER_ACTION'],
      ['names another action by its title', { ...VALID, text: 'The weather today, unlike Quiet hour.' }, 'NAMES_OTHER_ACTION'],
      ['re-ranks the options', { ...VALID, text: 'The weather today ranks first of your options.' }, 'RANK-RANKS'],
      ['claims another selection', { ...VALID, selected_action: 'quiet-1' }, 'INV-001'],
      ['recommends an action', { ...VALID, recommended_action: 'quiet-1' }, 'INV-001'],
    ])('a skill output that %s is rejected, logged, and changes nothing', async (_, output, id) => {
      const { response, trace, violations } = await labWith(output);
      expect(idsOf(trace.stages.validate_output!.output.ValidationResult.failures)).toContain(id);
      expect(violations.flat().map((f) => f.id)).toContain(id);
      expect(response.decision.payload).toEqual(FALLBACK_PAYLOAD);
    });
  });
});

describe('resolution, executors and fallback tiers', () => {
  test('deterministic_only runs the fallback skill in the LLM skill\'s place, without asking the model', async () => {
    const { executor, calls } = scripted({ payload: VALID });
    const { response, trace } = await decided(lab, { ...LAB_REQUEST, execution_mode_override: 'deterministic_only' }, { executors: [executor] });
    expect(calls).toHaveLength(0);
    expect(trace.stages.resolve_skills?.output.SkillResolution).toMatchObject({ mapped_skill_id: 'note_writer', skill_bundle_id: 'quiet_template', resolution_reason: 'mode_override', execution_mode: 'deterministic_only' });
    expect(response.execution).toMatchObject({ execution_mode: 'deterministic_only', fallback_used: true, fallback_reason_code: 'mode_override', fallback_tier: 2, validation_status: 'passed' });
  });

  test.each([
    ['offline_mode is reported', { conditions: ['offline_mode'] }, true],
    ['no executor is configured', {}, false],
  ])('the model is unavailable when %s: llm_unavailable, flagged', async (_, extra, withExecutor) => {
    const { executor, calls } = scripted({ payload: VALID });
    const { response, trace } = await decided(lab, { ...LAB_REQUEST, ...extra }, { executors: withExecutor ? [executor] : [] });
    expect(calls).toHaveLength(0);
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'executor_error', skill_bundle_id: 'quiet_template' });
    expect(trace.stages.resolve_skills?.output.SkillResolution.resolution_reason).toBe('llm_unavailable');
    expect(response.degradations).toEqual([expect.objectContaining({ stage: 'resolve_skills', reason_code: 'executor_error' })]);
  });

  test('an executor error falls back with executor_error', async () => {
    const { executor } = scripted({ error: 'the model is overloaded' });
    const { response, trace } = await decided(lab, LAB_REQUEST, { executors: [executor] });
    expect(trace.stages.execute_skill?.output.SkillOutput).toMatchObject({ status: 'executor_error', message: 'the model is overloaded' });
    expect(response.execution).toMatchObject({ fallback_reason_code: 'executor_error', fallback_tier: 2 });
  });

  test('when the fallback fails too, the minimal safe output (tier 3) answers: an empty payload, flagged', async () => {
    // The host's competitor list catches the fallback template's own words.
    const { response, trace } = await labWith({ ...VALID, text: 'You should read this today.' }, { competitorNames: ['ready for you'] });
    expect(response.decision.payload).toEqual({});
    expect(response.execution).toMatchObject({ skill_bundle_id: 'minimal_safe_output', executor_id: 'deterministic', executor_instance_id: 'none', fallback_used: true, fallback_tier: 3 });
    expect(trace.stages.fallback?.output.FallbackOutput).toMatchObject({ tier: 3, fallback_skill_id: 'quiet_template' });
    expect(trace.stages.fallback!.output.FallbackOutput.tier_2_failure).toContain('PROHIB-COMPETITOR');
  });

  test('the first available executor is used', async () => {
    const down = { ...scripted({ error: 'never called' }).executor, id: 'down', isAvailable: () => false };
    const { executor, calls } = scripted({ payload: VALID });
    const { response } = await decided(lab, LAB_REQUEST, { executors: [down, executor] });
    expect(calls).toHaveLength(1);
    expect(response.execution.executor_id).toBe('llm_stub');
  });
});

describe('stage 9: response, trace and replay', () => {
  test('the response carries the replay token and the trace id; the trace is content-addressed', async () => {
    const { response, trace } = await labWith(VALID, { decisionId: testDecisionId('d-fixed') });
    const token = JSON.parse(Buffer.from(response.audit.replay_token, 'base64url').toString('utf8')) as unknown;
    expect(token).toEqual({ decision_id: testDecisionId('d-fixed'), scenario_hash: lab.moduleHash, inputs_hash: response.state.inputs_hash, created_at: TIMESTAMP });
    expect(response.audit).toMatchObject({ decision_id: testDecisionId('d-fixed'), scenario_id: LAB, scenario_version: '1.0.0', scenario_hash: lab.moduleHash, trace_id: `trace:${testDecisionId('d-fixed')}` });
    expect(response.meta).toMatchObject({ request_id: null, timestamp: TIMESTAMP, api_version: API_VERSION });
    expect(trace.final_decision).toEqual(response);
    const { model_outcome: outcome } = trace.stages.execute_skill!.output.SkillOutput;
    expect(outcome).toMatchObject({ kind: 'reply', token_count: null });
    expect(JSON.parse(outcome?.kind === 'reply' ? outcome.text : '')).toMatchObject({ payload: VALID, metadata: { skill_id: 'note_writer', skill_version: '1.0.0' } });
  });

  test('a replay of an LLM decision never asks the model: it re-validates the recorded reply', async () => {
    const { trace } = await labWith(VALID);
    const replay = await replayCycle(lab, trace);
    expect(replay).toMatchObject({ ok: true, identical: true });
  });

  test('a replay against another module is refused', async () => {
    const { trace } = await labWith(VALID);
    const replay = await replayCycle(fitness, trace);
    expect(replay).toMatchObject({ ok: false, error: { code: 'MODULE_CHANGED' } });
  });

  test.each([['1.0.0'], ['2.0'], [2], [null], [undefined]])('a trace of another shape (trace_version %j) is refused, not misread', async (version) => {
    const { trace } = await labWith(VALID);
    const replay = await replayCycle(lab, { ...trace, trace_version: version } as unknown as typeof trace);
    expect(replay).toMatchObject({ ok: false, error: { code: 'TRACE_VERSION_UNSUPPORTED', message: expect.stringContaining(`trace version ${String(version)}`) } });
  });

  test('a tampered trace does not replay identically, and the difference is named', async () => {
    const { trace } = await labWith(VALID);
    const tampered = { ...trace, final_decision: { ...trace.final_decision!, decision: { ...trace.final_decision!.decision, selected_action: 'quiet-1' } } };
    const replay = await replayCycle(lab, tampered);
    expect(replay).toMatchObject({ ok: true, identical: false });
    if (replay.ok) expect(replay.differences.map((d) => d.path)).toContain('$.final_decision.decision.selected_action');
  });

  test('an invalid request is an error with no trace (docs/spec/selection.md §6: 400)', async () => {
    const result = await runCycle(lab, { ...LAB_REQUEST, execution_mode_override: 'fast' as never }, { decisionId: testDecisionId('x'), timestamp: TIMESTAMP });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST', problems: [{ path: 'execution_mode_override', message: 'expected deterministic_only, skill_enhanced or null, found string "fast"' }] } });
  });
});

describe('stage 2: short-term memory', () => {
  const request = { scenario: FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [HIIT, RUN], execution_mode_override: 'deterministic_only' as const };

  test('a remembered signal the request does not supply is used before its default, and the selection follows it', async () => {
    const fresh = await decided(fitness, request);
    expect(fresh.response.decision.selected_action).toBe('hiit-20');
    const remembered = await decided(fitness, request, { memory: { status: 'read', values: { consecutive_high_intensity: 2 }, outcome_ids: ['o-1'] } });
    // Two hard sessions in a row, remembered: the intensity cap now blocks the third.
    expect(remembered.response.decision.selected_action).toBe('run-40');
    expect(remembered.response.state).toMatchObject({ memory_applied: ['consecutive_high_intensity'], memory_status: 'read', defaults_applied: [] });
    expect(remembered.trace.stages.derive_state.input.memory).toEqual({ consecutive_high_intensity: 2 });
    expect(remembered.trace.stages.derive_state.memory_read).toEqual({ status: 'read', outcome_ids: ['o-1'] });
    expect(remembered.response.state.inputs_hash).not.toBe(fresh.response.state.inputs_hash);
  });

  test('the request wins over memory; a remembered value that no longer fits its signal is passed over', async () => {
    const result = await decided(fitness, { ...request, signals: { ...request.signals, consecutive_high_intensity: 0 } }, { memory: { status: 'read', values: { consecutive_high_intensity: 5, sessions_last_7d: 'many' }, outcome_ids: [] } });
    expect(result.response.decision.selected_action).toBe('hiit-20');
    expect(result.response.state.memory_applied).toEqual([]);
  });

  test('memory that cannot be read: cold-start defaults, flagged', async () => {
    const result = await decided(fitness, { ...request, signals: {}, actions: [HIIT, RUN, REST] }, { memory: { status: 'unavailable', values: {}, outcome_ids: [] } });
    // No rest day on record in a cold start: the rest-day guardrail decides.
    expect(result.response.decision.selected_action).toBe('rest');
    expect(result.response.state).toMatchObject({ memory_status: 'unavailable', defaults_applied: ['sessions_last_7d', 'rest_days_last_7d', 'consecutive_high_intensity'] });
    expect(result.response.degradations).toEqual([expect.objectContaining({ stage: 'derive_state', reason_code: 'memory_unavailable' })]);
  });
});

describe('stage 5 on its own: a skill the module does not have', () => {
  test('an action type mapped to a skill the module lacks gets null_skill: an empty payload, no execution, the skill marked not found', async () => {
    const { resolveSkill } = await import('../src/skills/resolve-skill.js');
    const resolved = resolveSkill({ selectedAction: 'a1', mappedSkill: 'ghost_skill', mode: 'skill_enhanced', conditions: [], catalog: new Map(), executors: [] });
    expect(resolved).toEqual({
      resolution: { selected_action: 'a1', mapped_skill_id: 'ghost_skill', skill_bundle_id: 'null_skill', skill_version: null, execution_mode: 'skill_enhanced', executor_id: 'null_skill', fallback_skill_id: null, resolution_reason: 'default', skill_found: false },
      skill: null,
      executor: null,
    });
  });
});

describe('stage durations', () => {
  test("every stage's artifact is timed, stages 2–4 inside the isolate by the host's clock, which module code cannot read", async () => {
    const { trace } = await decided(fitness, { scenario: FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [HIIT, RUN], execution_mode_override: 'deterministic_only' });
    const ran = Object.values(trace.stages).filter((artifact) => artifact !== null);
    expect(ran.map((artifact) => artifact.stage)).toEqual(['ingest', 'derive_state', 'evaluate_guardrails', 'score_and_rank', 'resolve_skills', 'execute_skill', 'validate_output', 'audit_and_replay']);
    for (const artifact of ran) expect(artifact.duration_ms).toBeGreaterThanOrEqual(0);
    const sum = ran.reduce((total, artifact) => total + artifact.duration_ms, 0);
    expect(trace.total_duration_ms).toBeGreaterThanOrEqual(sum - trace.stages.audit_and_replay.duration_ms);
    expect(trace.final_decision?.meta.total_duration_ms).toBeLessThanOrEqual(trace.total_duration_ms);
  });
});
