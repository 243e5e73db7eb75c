/**
 * Conformance to the reference ADE cycle definition (issue 30): every normative statement of it,
 * restated in our own words, with the part of the reference it comes from, one test each. The
 * reference numbers no sections, so a statement is named by its heading: "000 Stage 3" is the
 * third stage's specification, "000 Errors" the error table, "000 Latency" the latency table.
 * adec's own statement of each is docs/spec/selection.md; where adec knowingly differs, the test
 * asserts adec's documented behaviour and names the known difference.
 *
 * adec is reached three ways: the engine (`runCycle` on the fitness world, the SEC lab, the
 * learning coach and the selection lab), the CLI (`adec select`) and the service over loopback
 * HTTP (`POST /v1/select`, `GET /v1/decisions/{id}`, replay).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_RETENTION_DAYS, openAuditStore } from '@adec/audit';
import {
  API_VERSION as CONTRACT_API_VERSION,
  DecisionRequest,
  DecisionResponse as DecisionResponseSchema,
  EligibleActions,
  FallbackOutput,
  FALLBACK_REASONS,
  RankedActions,
  ReplayToken,
  RESOLUTION_REASONS,
  SelectionTrace,
  SkillOutput,
  SkillResolution,
  UserState,
  ValidationResult,
  UUID_V4_PATTERN,
} from '@adec/contracts';
import { decodeReplayToken, DEFAULT_SELECTION_TIME_LIMIT_MS, DETERMINISTIC_HARD_LIMIT_MS, LLM_HARD_LIMIT_MS, llmStubExecutor, replayCycle, type AddressedTrace } from '@adec/engine';
import type { LoadedModule } from '@adec/runtime';
import { startService } from '../../packages/server/test/service-fixture.js';
import { publish } from '../support/runtime.js';
import {
  built,
  CAPPED,
  cliWorkspace,
  COACH_WORLD,
  cycle,
  decided,
  expectConforms,
  faultyLab,
  FALLBACK_NOTE,
  FITNESS,
  FITNESS_ROUTE,
  FITNESS_WORLD,
  HIIT,
  LAB_REQUEST,
  LAB_ROUTE,
  labWith,
  loaded,
  NOTE,
  QUIET,
  ranStages,
  REST,
  RUN,
  RUN_RATIONALE,
  scriptedModel,
  SEC_LAB_ROUTE,
  SEC_LAB_WORLD,
  selectionService,
  testDecisionId,
  TIMESTAMP,
  VALID_NOTE,
  YOGA,
  type CliWorkspace,
  type Decided,
  type SelectionService,
} from './conformance-support.js';

const STAGES = ['ingest', 'derive_state', 'evaluate_guardrails', 'score_and_rank', 'resolve_skills', 'execute_skill', 'validate_output', 'fallback', 'audit_and_replay'];
const CHECKS = ['schema_valid', 'invariants_satisfied', 'authority_boundary_intact', 'prohibited_fields_absent'];

let fitness: LoadedModule;
let lab: LoadedModule;
let coach: LoadedModule;
let faulty: LoadedModule;
let http: SelectionService;
let cli: CliWorkspace;
/** Decisions several statements are checked on. */
let llmRun: Decided;
let restDay: Decided;
let fellBack: Decided;

beforeAll(async () => {
  [fitness, lab, coach, faulty] = await Promise.all([loaded(FITNESS_WORLD), loaded(SEC_LAB_WORLD), loaded(COACH_WORLD), faultyLab().then(loaded)]);
  [http, cli] = await Promise.all([selectionService(), cliWorkspace([FITNESS_WORLD])]);
  llmRun = await decided(fitness, CAPPED, { executors: [scriptedModel(() => ({ rationale: RUN_RATIONALE })).executor] });
  restDay = await decided(fitness, { scenario: FITNESS, signals: { sessions_last_7d: 6, rest_days_last_7d: 0 }, actions: [HIIT, YOGA, REST] });
  fellBack = await labWith(lab, { ...VALID_NOTE, mood: 'sunny' });
}, 120_000);
afterAll(async () => {
  await http.close();
});

/** A trace's JSON with every duration and the lock time set aside: what a replay must reproduce. */
function timeless(trace: AddressedTrace): unknown {
  return JSON.parse(JSON.stringify(trace), (key, value: unknown) => (/duration_ms$|^selection_locked_at$|^content_address$|^signatures$/.test(key) ? undefined : value));
}

describe('000 Overview: principles of the cycle', () => {
  test('000 Overview: every stage is deterministic, so the same inputs give the same decision and trace (adec select twice, same id and time)', async () => {
    const request = { scenario: FITNESS, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, actions: [HIIT, RUN, YOGA] };
    const flags = ['--decision-id', testDecisionId('same'), '--timestamp', TIMESTAMP, '--trace'];
    const [first, second] = [await cli.select(FITNESS_WORLD, request, ...flags), await cli.select(FITNESS_WORLD, request, ...flags)];
    expect([first.code, second.code]).toEqual([0, 0]);
    const traces = [first, second].map((run) => JSON.parse(run.stdout) as AddressedTrace);
    traces.forEach((trace) => expectConforms(SelectionTrace, trace));
    expect(timeless(traces[1]!)).toEqual(timeless(traces[0]!));
  });

  test('000 Overview: every stage leaves a structured artifact that is recorded and can be replayed to the same result', async () => {
    expect(ranStages(llmRun.trace)).toEqual(STAGES.filter((stage) => stage !== 'fallback'));
    for (const name of ranStages(llmRun.trace)) expect((llmRun.trace.stages as Record<string, { stage: string } | null>)[name]?.stage).toBe(name);
    expect(await replayCycle(fitness, llmRun.trace)).toMatchObject({ ok: true, identical: true });
  });

  test('000 Overview: the cycle is the same for every scenario: two unrelated worlds go through the same stages into the same contracts', async () => {
    const lesson = await decided(coach, { scenario: 'next_activity', signals: { cards_due: 12, lessons_this_week: 0 }, actions: [{ action_id: 'review-daily', type: 'review', title: 'Daily review', cards: 12, minutes: 10 }] });
    for (const { trace, response } of [lesson, restDay]) {
      expectConforms(SelectionTrace, trace);
      expectConforms(DecisionResponseSchema, response);
      expect(Object.keys(trace.stages)).toEqual(STAGES);
    }
  });

  test('000 Overview: one envelope carries the decision through the stages: every artifact names the same decision id as the response', () => {
    const { trace, response } = llmRun;
    for (const artifact of Object.values(trace.stages)) if (artifact !== null) expect(artifact.decision_id).toBe(response.decision.decision_id);
    expect(trace.decision_id).toBe(response.decision.decision_id);
  });

  test('000 Cycle: the stages run in order, and the fallback only when validation failed', () => {
    expect(Object.keys(fellBack.trace.stages)).toEqual(STAGES);
    expect(ranStages(fellBack.trace)).toEqual(STAGES);
    expect(fellBack.trace.stages.validate_output?.output.ValidationResult.valid).toBe(false);
    expect(llmRun.trace.stages.fallback).toBeNull();
  });
});

describe('000 Stage 1: ingest', () => {
  test('000 Stage 1: the normalized request has the DecisionRequest fields (user, platform, override, context of actions, signals and platform constraints)', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, user_id: 'user-1', platform_id: 'web', signals: CAPPED.signals, actions: [HIIT, RUN], execution_mode_override: 'deterministic_only' });
    expect(answer.status).toBe(200);
    const stored = await http.get(answer.location!);
    const request = (stored.body['trace'] as AddressedTrace).stages.ingest.output.DecisionRequest;
    expectConforms(DecisionRequest, request);
    expect(request).toMatchObject({ user_id: 'user-1', platform_id: 'web', scenario_id: FITNESS, scenario_version: '1.0.0', execution_mode_override: 'deterministic_only' });
    expect(request.context.available_actions.map((action) => action.action_id)).toEqual(['hiit-20', 'run-40']);
    expect(request.context.signals).toMatchObject({ consecutive_high_intensity: 2 });
    expect(request.context.platform_constraints).toBeTypeOf('object');
  });

  test('000 Stage 1: the decision id is generated by adec as a UUID v4, never the client\'s request id, which stays a field of its own', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, request_id: 'client-req-1', signals: CAPPED.signals, actions: [HIIT, RUN] });
    const response = answer.body as unknown as Decided['response'];
    expect(response.decision.decision_id).toMatch(new RegExp(UUID_V4_PATTERN));
    expect(response.decision.decision_id).not.toBe('client-req-1');
    expect(response.meta.request_id).toBe('client-req-1');
    // Without a request id the field is null, and the decision id is still generated.
    expect(llmRun.response.meta.request_id).toBeNull();
    expect(llmRun.response.decision.decision_id).toMatch(new RegExp(UUID_V4_PATTERN));
  });

  test('000 Stage 1: the scenario must be one the loaded module has: another is refused, not decided (404 UNKNOWN_SCENARIO)', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, scenario: 'fitness_nightly_session', actions: [REST] });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'UNKNOWN_SCENARIO' } });
    expect(answer.location).toBeNull();
  });

  test('000 Stage 1: the timestamp is the service\'s own clock when the request arrived, not anything the client sends', async () => {
    const before = Date.now();
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: CAPPED.signals, actions: [REST] });
    const after = Date.now();
    const stamped = Date.parse((answer.body['meta'] as { timestamp: string }).timestamp);
    expect(stamped).toBeGreaterThanOrEqual(before - 1);
    expect(stamped).toBeLessThanOrEqual(after + 1);
    const forged = await http.post('/v1/select', { ...FITNESS_ROUTE, timestamp: '2001-01-01T00:00:00Z', actions: [REST] });
    expect(forged.status).toBe(400);
  });

  test('000 Stage 1: an invalid request is refused before any stage runs: no decision, no trace', async () => {
    const engine = await cycle(fitness, { scenario: FITNESS, signals: { sesions_last_7d: 1 }, actions: [REST] });
    expect(engine).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect('trace' in engine).toBe(false);
  });

  test('000 Stage 1: its artifact records the stage, decision id, a sha256 of the raw request, the output, its duration and its errors', () => {
    const artifact = llmRun.trace.stages.ingest;
    expect(artifact).toMatchObject({ stage: 'ingest', decision_id: llmRun.response.decision.decision_id, errors: [] });
    expect(artifact.input_hash).toBe(`sha256:${createHash('sha256').update(JSON.stringify(artifact.raw_request)).digest('hex')}`);
    expect(artifact.raw_request).toMatchObject({ scenario: FITNESS, actions: CAPPED.actions });
    expect(artifact.duration_ms).toBeGreaterThanOrEqual(0);
    expectConforms(DecisionRequest, artifact.output.DecisionRequest);
  });
});

describe('000 Stage 2: derive state', () => {
  test('000 Stage 2: the user state has a version, core and scenario dimensions, execution capabilities, its computation time and an inputs hash', () => {
    const state = llmRun.trace.stages.derive_state.output.UserState;
    expectConforms(UserState, state);
    expectConforms(UserState, llmRun.response.state);
    expect(state).toMatchObject({ state_version: expect.any(String), core: {}, computed_at: TIMESTAMP, execution_capabilities: { llm_available: true, offline_mode: false } });
    expect(state.scenario_extensions).toMatchObject({ consecutive_high_intensity: 2 });
  });

  test('000 Stage 2: derivation is deterministic: the same signals give the same state', async () => {
    const again = await decided(fitness, CAPPED, { executors: [scriptedModel(() => ({ rationale: RUN_RATIONALE })).executor] });
    expect(again.response.state).toEqual(llmRun.response.state);
  });

  test('000 Stage 2: no model takes part in deriving the state: it is the same with and without a model, and in deterministic mode', async () => {
    const withoutModel = await decided(fitness, CAPPED, { executors: [] });
    const deterministic = await decided(fitness, { ...CAPPED, execution_mode_override: 'deterministic_only' });
    const withoutCapabilities = (state: Decided['response']['state']) => ({ ...state, execution_capabilities: null, inputs_hash: null });
    expect(withoutCapabilities(withoutModel.response.state)).toEqual(withoutCapabilities(llmRun.response.state));
    expect(deterministic.response.state.scenario_extensions).toEqual(llmRun.response.state.scenario_extensions);
  });

  test('000 Stage 2: a signal the request leaves out takes its documented default, and the defaults used are listed', async () => {
    const { response, trace } = await decided(fitness, { scenario: FITNESS, signals: {}, actions: [REST] });
    expect(response.state.defaults_applied).toEqual(['sessions_last_7d', 'rest_days_last_7d', 'consecutive_high_intensity']);
    expect(trace.stages.derive_state.defaults_applied).toEqual(response.state.defaults_applied);
    expect(response.state.scenario_extensions).toMatchObject({ sessions_last_7d: 0 });
  });

  test('000 Stage 2: an inputs hash is computed for replay, and it changes when the inputs change', () => {
    expect(llmRun.response.state.inputs_hash).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
    expect(restDay.response.state.inputs_hash).not.toBe(llmRun.response.state.inputs_hash);
  });

  test('000 Stage 2: its artifact records the signals and memory read, the state, its duration and the defaults applied', () => {
    const artifact = llmRun.trace.stages.derive_state;
    expect(artifact).toMatchObject({ stage: 'derive_state', input: { signals: CAPPED.signals, memory: {} }, defaults_applied: expect.any(Array) });
    expect(artifact.duration_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('000 Stage 3: evaluate guardrails', () => {
  test('000 Stage 3: the eligible set lists each kept action with the guardrails it passed, each rejected one with those it violated', () => {
    const eligible = restDay.trace.stages.evaluate_guardrails.output.EligibleActions;
    expectConforms(EligibleActions, eligible);
    expect(eligible.eligible).toEqual([{ action_id: 'rest', passed_guardrails: expect.arrayContaining(['GR-REST-MIN']) }]);
    expect(eligible.rejected).toEqual([
      { action_id: 'hiit-20', violated_guardrails: ['GR-REST-MIN'] },
      { action_id: 'yoga-30', violated_guardrails: ['GR-REST-MIN'] },
    ]);
  });

  test('000 Stage 3: guardrails are deterministic: the same candidates in any order are kept and rejected alike', async () => {
    const shuffled = await decided(fitness, { scenario: FITNESS, signals: { sessions_last_7d: 6, rest_days_last_7d: 0 }, actions: [REST, YOGA, HIIT] });
    const sorted = (list: readonly { action_id: string }[]) => [...list].sort((a, b) => a.action_id.localeCompare(b.action_id));
    const [a, b] = [restDay, shuffled].map((run) => run.trace.stages.evaluate_guardrails.output.EligibleActions);
    expect(sorted(b!.eligible)).toEqual(sorted(a!.eligible));
    expect(sorted(b!.rejected)).toEqual(sorted(a!.rejected));
  });

  test('000 Stage 3: an action is eligible if and only if it passes every guardrail', () => {
    for (const run of [llmRun, restDay]) {
      const artifact = run.trace.stages.evaluate_guardrails;
      const { eligible, rejected } = artifact.output.EligibleActions;
      for (const kept of eligible) expect([...kept.passed_guardrails].sort()).toEqual([...artifact.guardrails_evaluated].sort());
      for (const refused of rejected) expect(refused.violated_guardrails.length).toBeGreaterThan(0);
      expect(eligible.length + rejected.length).toBe(artifact.input.actions_count);
    }
  });

  test('000 Stage 3: every violation is recorded with a reason code (the guardrail\'s id)', () => {
    const { guardrails } = llmRun.trace.stages.evaluate_guardrails;
    const fired = guardrails.filter((guardrail) => guardrail.fired);
    expect(fired.map((guardrail) => [guardrail.reason_code, guardrail.affected_actions])).toEqual([['GR-INTENSITY-CAP', ['hiit-20']]]);
  });

  test('000 Stage 3: with no eligible action the cycle stops with an error and goes no further (422 NO_ELIGIBLE_ACTIONS)', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, { ...HIIT, action_id: 'spin-45' }] });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { code: 'NO_ELIGIBLE_ACTIONS' } });
    const trace = (await http.get(answer.location!)).body['trace'] as AddressedTrace;
    expect(ranStages(trace)).toEqual(['ingest', 'derive_state', 'evaluate_guardrails', 'audit_and_replay']);
  });

  test('000 Stage 3: its artifact records how many actions came in and were kept and rejected, a state summary and the guardrails evaluated', () => {
    const artifact = restDay.trace.stages.evaluate_guardrails;
    expect(artifact).toMatchObject({ stage: 'evaluate_guardrails', input: { actions_count: 3, state_summary: expect.any(Object) }, output: { eligible_count: 1, rejected_count: 2 } });
    expect(artifact.guardrails_evaluated).toContain('GR-REST-MIN');
  });
});

describe('000 Stage 4: score and rank', () => {
  test('000 Stage 4: the ranking gives each action its final score, its breakdown (objective scores, execution risk penalty) and rank, the selected action and when the selection locked', () => {
    const ranked = llmRun.trace.stages.score_and_rank!.output.RankedActions;
    expectConforms(RankedActions, ranked);
    expect(ranked.ranked[0]).toMatchObject({ action_id: 'run-40', rank: 1, score_breakdown: { objective_scores: expect.any(Object), execution_risk_penalty: expect.any(Number) } });
    expect(Date.parse(String(ranked.selection_locked_at))).not.toBeNaN();
  });

  test('000 Stage 4: scoring is deterministic: the order of the candidates never changes scores or ranking', async () => {
    const request = { scenario: FITNESS, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, execution_mode_override: 'deterministic_only' as const };
    const forward = await decided(fitness, { ...request, actions: [HIIT, RUN, YOGA] });
    const backward = await decided(fitness, { ...request, actions: [YOGA, RUN, HIIT] });
    expect(backward.response.decision.ranked_options).toEqual(forward.response.decision.ranked_options);
  });

  test('000 Stage 4: execution risk is part of the final score: a reported condition lowers the score of an exposed action', async () => {
    const request = { scenario: FITNESS, signals: { sessions_last_7d: 5, rest_days_last_7d: 2 }, actions: [YOGA, REST] };
    const online = await decided(fitness, request, { executors: [scriptedModel(() => ({ rationale: 'Morning Yoga is calm.' })).executor] });
    const offline = await decided(fitness, { ...request, conditions: ['offline_mode'] }, { executors: [scriptedModel(() => ({ rationale: 'unused' })).executor] });
    const yoga = (run: Decided) => run.trace.stages.score_and_rank!.output.RankedActions.ranked.find((entry) => entry.action_id === 'yoga-30')!;
    expect(yoga(offline).score_breakdown.execution_risk_penalty).toBeGreaterThan(0);
    expect(yoga(offline).final_score).toBeLessThan(yoga(online).final_score);
    expect([online.response.decision.selected_action, offline.response.decision.selected_action]).toEqual(['yoga-30', 'rest']);
  });

  test('000 Stage 4: the selected action is the one ranked first', () => {
    const { ranked, selected_action } = llmRun.trace.stages.score_and_rank!.output.RankedActions;
    expect(selected_action).toBe(ranked[0]!.action_id);
    const scores = ranked.map((entry) => entry.final_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test('000 Stage 4: once ranked, the selected action never changes: every later artifact and the response carry the same one', () => {
    const { trace, response } = fellBack;
    const locked = trace.stages.score_and_rank!.output.RankedActions.selected_action;
    expect([trace.stages.resolve_skills?.output.SkillResolution.selected_action, response.decision.selected_action, trace.final_decision?.decision.selected_action]).toEqual([locked, locked, locked]);
  });

  test('000 Stage 4: its artifact records the count scored, the selected action, the top three scores, whether execution risk applied, and that the selection locked', () => {
    const artifact = llmRun.trace.stages.score_and_rank!;
    expect(artifact).toMatchObject({ stage: 'score_and_rank', input: { eligible_count: 1 }, output: { selected_action: 'run-40', execution_risk_applied: expect.any(Boolean) }, selection_locked: true });
    expect(artifact.output.top_3_scores.length).toBeLessThanOrEqual(3);
  });
});

describe('000 Stage 5: resolve skills', () => {
  test('000 Stage 5: the resolution names the selected action, the skill and its version, the execution mode, the deterministic fallback and one of the three reasons', () => {
    for (const run of [llmRun, restDay, fellBack]) {
      const resolution = run.trace.stages.resolve_skills!.output.SkillResolution;
      expectConforms(SkillResolution, resolution);
      expect(RESOLUTION_REASONS).toContain(resolution.resolution_reason);
    }
    expect(llmRun.trace.stages.resolve_skills!.output.SkillResolution).toMatchObject({ selected_action: 'run-40', skill_bundle_id: 'fitness_session_rationale', skill_version: '1.0.0', execution_mode: 'skill_enhanced', fallback_skill_id: 'decision_rationale_template', resolution_reason: 'default' });
  });

  test('000 Stage 5 and Deterministic mode: the request\'s override comes first, then the scenario\'s default, then the engine\'s default', async () => {
    const overridden = await decided(fitness, { ...CAPPED, execution_mode_override: 'deterministic_only' });
    expect(overridden.response.execution.execution_mode).toBe('deterministic_only');
    expect(overridden.trace.stages.resolve_skills!.output.SkillResolution.resolution_reason).toBe('mode_override');
    // The fitness scenario declares skill_enhanced; the selection lab declares nothing.
    expect(llmRun.response.execution.execution_mode).toBe('skill_enhanced');
    const engineDefault = await decided(faulty, { scenario: 'lab', actions: [{ action_id: 'c1', type: 'call', minutes: 5, label: 'c1' }] });
    expect(engineDefault.response.execution.execution_mode).toBe('deterministic_only');
  });

  test('000 Stage 5: resolving a skill never changes the selected action', () => {
    for (const run of [llmRun, restDay, fellBack]) expect(run.trace.stages.resolve_skills!.output.SkillResolution.selected_action).toBe(run.trace.stages.score_and_rank!.output.RankedActions.selected_action);
  });

  test('000 Stage 5: an action with no skill mapped gets null_skill, which passes through with an empty payload', async () => {
    const { response, trace } = await decided(faulty, { scenario: 'lab', actions: [{ action_id: 'c1', type: 'call', minutes: 5, label: 'c1' }] });
    expect(trace.stages.resolve_skills!.output.SkillResolution.skill_bundle_id).toBe('null_skill');
    expect(response.decision.payload).toEqual({});
    expect(trace.stages.execute_skill).toBeNull();
  });

  test('000 Stage 5: the fallback skill is always deterministic', () => {
    const resolution = llmRun.trace.stages.resolve_skills!.output.SkillResolution;
    expect(resolution.fallback_skill_id).toBe('decision_rationale_template');
    // Stage 8 runs it on the deterministic executor (fellBack: the SEC lab's fallback).
    expect(fellBack.response.execution).toMatchObject({ skill_bundle_id: 'quiet_template', executor_id: 'deterministic' });
  });

  test('000 Stage 5: its artifact records the selected action and the capabilities it resolved with, and the skill and mode it chose', () => {
    const artifact = llmRun.trace.stages.resolve_skills!;
    expect(artifact).toMatchObject({ stage: 'resolve_skills', input: { selected_action: 'run-40', capabilities: expect.any(Object) }, output: { skill_bundle_id: 'fitness_session_rationale', execution_mode: 'skill_enhanced' } });
  });
});

describe('000 Stage 6: execute skill', () => {
  test('000 Stage 6: the skill output names the skill, version, mode, payload, duration and executor', () => {
    const output = llmRun.trace.stages.execute_skill!.output.SkillOutput;
    expectConforms(SkillOutput, output);
    expect(output).toMatchObject({ skill_bundle_id: 'fitness_session_rationale', skill_version: '1.0.0', execution_mode: 'skill_enhanced', payload: { rationale: RUN_RATIONALE }, executor_id: 'llm_stub' });
    expect(restDay.trace.stages.execute_skill!.output.SkillOutput.executor_id).toBe('deterministic');
  });

  test('000 Stage 6: the executor that produced the payload is one of llm_stub, deterministic or cloud_llm', async () => {
    const nullSkill = await decided(faulty, { scenario: 'lab', actions: [{ action_id: 'c1', type: 'call', minutes: 5, label: 'c1' }] });
    for (const run of [llmRun, restDay, nullSkill]) expect(['llm_stub', 'deterministic', 'cloud_llm']).toContain(run.response.execution.executor_id);
  });

  test('000 Stage 6: a skill runs within its contract\'s time limit', () => {
    expect(llmRun.trace.stages.execute_skill!.output.SkillOutput.time_limit_ms).toBeLessThanOrEqual(LLM_HARD_LIMIT_MS);
    expect(restDay.trace.stages.execute_skill!.output.SkillOutput.time_limit_ms).toBeLessThanOrEqual(DETERMINISTIC_HARD_LIMIT_MS);
  });

  test('000 Stage 6: an output that does not fit the skill\'s output schema is not used', () => {
    expect(fellBack.trace.stages.validate_output!.output.ValidationResult.checks_failed).toContain('schema_valid');
    expect(fellBack.response.decision.payload).toEqual(FALLBACK_NOTE);
  });

  test('000 Stage 6: a skill can neither name nor change the selected action', async () => {
    const { response, trace } = await labWith(lab, { ...VALID_NOTE, selected_action: 'quiet-1' });
    expect(response.decision.selected_action).toBe('note-a');
    expect(trace.stages.validate_output!.output.ValidationResult.checks_failed).toContain('invariants_satisfied');
  });

  test('000 Stage 6: a skill that runs out of time leads to the fallback, not to a failed decision', async () => {
    const slow = llmStubExecutor(() => ({ payload: VALID_NOTE, delayMs: 2_000 }));
    const { response, trace } = await decided(lab, LAB_REQUEST, { executors: [slow] });
    expect(trace.stages.execute_skill).toMatchObject({ timeout_occurred: true });
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'timeout' });
  });

  test('000 Stage 6: its artifact records the skill and mode it ran, the payload\'s hash, the executor and whether it timed out', () => {
    const artifact = llmRun.trace.stages.execute_skill!;
    expect(artifact).toMatchObject({ stage: 'execute_skill', input: { skill_bundle_id: 'fitness_session_rationale', execution_mode: 'skill_enhanced' }, output: { executor_id: 'llm_stub' }, timeout_occurred: false });
    expect(artifact.output.payload_hash).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
  });
});

describe('000 Stage 7: validate output', () => {
  test('000 Stage 7: the validation result says whether the output is valid, which checks passed and failed, and how long it took', () => {
    const result = llmRun.trace.stages.validate_output!.output.ValidationResult;
    expectConforms(ValidationResult, result);
    expect(result).toMatchObject({ valid: true, checks_passed: CHECKS, checks_failed: [] });
    expect(result.validation_duration_ms).toBeGreaterThanOrEqual(0);
  });

  test.each([
    ['schema validation', { ...VALID_NOTE, mood: 'sunny' }, 'schema_valid'],
    ['invariant enforcement', { ...VALID_NOTE, text: 'The weather today: 90% sun.' }, 'invariants_satisfied'],
    ['the authority boundary', { ...VALID_NOTE, text: 'The weather today beats quiet-1.' }, 'authority_boundary_intact'],
    ['prohibited content', { ...VALID_NOTE, text: 'The weather today is perfect for a lottery ticket.' }, 'prohibited_fields_absent'],
  ])('000 Stage 7: %s is one of the four required checks, and an output failing it is rejected', async (_, payload, check) => {
    const { trace, response } = await labWith(lab, payload);
    const result = trace.stages.validate_output!.output.ValidationResult;
    expect(result.valid).toBe(false);
    expect(result.checks_failed).toContain(check);
    expect(response.decision.payload).toEqual(FALLBACK_NOTE);
  });

  test('000 Stage 7: validation is deterministic: a replay validates the recorded output to the same result', async () => {
    const replay = await replayCycle(lab, fellBack.trace);
    expect(replay).toMatchObject({ ok: true, identical: true });
  });

  test('000 Stage 7: an output that fails validation goes to the fallback, never to an error', () => {
    expect(fellBack.response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed', validation_status: 'passed' });
  });

  test('000 Stage 7: the result of every check is recorded, passed or failed', () => {
    for (const run of [llmRun, fellBack]) {
      const { checks_passed, checks_failed } = run.trace.stages.validate_output!.output.ValidationResult;
      expect([...checks_passed, ...checks_failed].sort()).toEqual([...CHECKS].sort());
    }
    expect(fellBack.trace.stages.validate_output!.output.ValidationResult.failures.length).toBeGreaterThan(0);
  });

  test('000 Stage 7: its artifact records the payload\'s hash and the outcome of the checks', () => {
    const artifact = fellBack.trace.stages.validate_output!;
    expect(artifact).toMatchObject({ stage: 'validate_output', output: { valid: false, checks_failed: ['schema_valid'] } });
    expect(artifact.input.payload_hash).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
  });
});

describe('000 Stage 8: fallback', () => {
  test('000 Stage 8: the fallback runs exactly when validation found the output invalid', () => {
    expect(fellBack.trace.stages.fallback).not.toBeNull();
    expect(llmRun.trace.stages.fallback).toBeNull();
  });

  test('000 Stage 8: the fallback output flags its use and gives the reason, the fallback skill and the payload', () => {
    const output = fellBack.trace.stages.fallback!.output.FallbackOutput;
    expectConforms(FallbackOutput, output);
    expect(output).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed', fallback_skill_id: 'quiet_template', payload: FALLBACK_NOTE });
  });

  test('000 Stage 8: the reason codes include validation_failed, timeout and skill_error (adec adds the skill contract\'s codes, docs/spec/selection.md §3.8)', () => {
    expect(FALLBACK_REASONS).toEqual(expect.arrayContaining(['validation_failed', 'timeout', 'skill_error']));
    expect(FALLBACK_REASONS.filter((code) => !['validation_failed', 'timeout', 'skill_error'].includes(code)).sort()).toEqual(['executor_error', 'mode_override', 'prohibited_content']);
  });

  test('000 Stage 8: the fallback is deterministic: no model is asked for it', async () => {
    const model = scriptedModel(() => ({ ...VALID_NOTE, mood: 'sunny' }));
    const { response } = await decided(lab, LAB_REQUEST, { executors: [model.executor] });
    expect(model.calls).toHaveLength(1);
    expect(response.execution).toMatchObject({ fallback_used: true, executor_id: 'deterministic' });
  });

  test('000 Stage 8: the fallback\'s output is valid: it passes the same checks', () => {
    expect(fellBack.trace.stages.fallback!.output.FallbackOutput.validation).toMatchObject({ valid: true, checks_failed: [] });
  });

  test('000 Stage 8: the fallback never changes the selected action', () => {
    expect(fellBack.response.decision.selected_action).toBe(fellBack.trace.stages.score_and_rank!.output.RankedActions.selected_action);
  });

  test('000 Stage 8: using the fallback is flagged in the response', async () => {
    http.answer(() => ({ ...VALID_NOTE, mood: 'sunny' }));
    const answer = await http.post('/v1/select', { ...SEC_LAB_ROUTE, signals: { visits: 4 }, actions: [NOTE, QUIET] });
    http.answer(() => ({ rationale: RUN_RATIONALE }));
    expect(answer.status).toBe(200);
    expect(answer.body['execution']).toMatchObject({ fallback_used: true, fallback_reason_code: expect.any(String), fallback_tier: 2 });
  });

  test('000 Stage 8: its artifact records the trigger, the original validation errors, the fallback skill and the payload\'s hash', () => {
    const artifact = fellBack.trace.stages.fallback!;
    expect(artifact).toMatchObject({ stage: 'fallback', trigger_reason: 'validation_failed', fallback_skill_id: 'quiet_template' });
    expect(artifact.original_validation_errors.length).toBeGreaterThan(0);
    expect(artifact.output.payload_hash).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
  });
});

describe('000 Stage 9: audit and replay', () => {
  test('000 Stage 9: the response has the decision, the state, the execution, the audit and the meta parts', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: CAPPED.signals, actions: [HIIT, RUN] });
    expectConforms(DecisionResponseSchema, answer.body);
    expect(answer.body).toMatchObject({
      decision: { selected_action: 'run-40', ranked_options: [{ action_id: 'run-40', rank: 1 }] },
      execution: { execution_mode: 'skill_enhanced', skill_bundle_id: 'fitness_session_rationale', skill_version: '1.0.0', validation_status: 'passed', fallback_used: false, fallback_reason_code: null },
      audit: { scenario_id: FITNESS, scenario_version: '1.0.0', scenario_hash: fitness.moduleHash },
      meta: { request_id: null, api_version: CONTRACT_API_VERSION },
    });
  });

  test('000 Stage 9: the validation status is passed or failed, nothing else', async () => {
    const tier3 = await labWith(lab, { ...VALID_NOTE, text: 'You should read this today.' }, { competitorNames: ['ready for you'] });
    const nullSkill = await decided(faulty, { scenario: 'lab', actions: [{ action_id: 'c1', type: 'call', minutes: 5, label: 'c1' }] });
    expect([llmRun, fellBack, nullSkill, tier3].map((run) => run.response.execution.validation_status)).toEqual(['passed', 'passed', 'passed', 'failed']);
  });

  test('000 Stage 9: the replay token holds the decision id, the scenario hash, the inputs hash and its creation time', () => {
    const value = decodeReplayToken(llmRun.response.audit.replay_token);
    expectConforms(ReplayToken, value);
    expect(value).toEqual({ decision_id: llmRun.response.decision.decision_id, scenario_hash: fitness.moduleHash, inputs_hash: llmRun.response.state.inputs_hash, created_at: TIMESTAMP });
  });

  test('000 Stage 9: the replay token finds the stored trace (retrieval) and re-executes it to the same output (replay)', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: CAPPED.signals, actions: [HIIT, RUN] });
    const token = decodeReplayToken((answer.body['audit'] as { replay_token: string }).replay_token);
    if (token === undefined) throw new Error('the replay token does not decode');
    const stored = await http.get(`/v1/decisions/${token.decision_id}`);
    expect(stored.body).toMatchObject({ kind: 'selection', response: answer.body });
    const replay = await http.post(`/v1/decisions/${token.decision_id}/replay`, {});
    expect(replay.body).toMatchObject({ identical: true, differences: [] });
  });

  test('000 Stage 9: the whole trace is stored before the response is sent: it can be read the moment the answer arrives', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: CAPPED.signals, actions: [REST] });
    const stored = await http.get(answer.location!);
    expect(stored.status).toBe(200);
    expectConforms(SelectionTrace, stored.body['trace']);
  });

  test('000 Stage 9: every response carries a replay token', async () => {
    const answers = await Promise.all([
      cli.select(FITNESS_WORLD, CAPPED).then((run) => JSON.parse(run.stdout) as Record<string, unknown>),
      http.post('/v1/select', { ...SEC_LAB_ROUTE, signals: { visits: 0 }, actions: [QUIET] }).then((answer) => answer.body),
    ]);
    for (const body of [...answers, llmRun.response, restDay.response]) expect((body as { audit: { replay_token: string } }).audit.replay_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test('000 Stage 9: how long traces are kept is configurable and 90 days by default', async () => {
    expect(DEFAULT_RETENTION_DAYS).toBe(90);
    const run = await cli.run('serve', '--help');
    expect(run.stdout).toMatch(/--retention-days/);
  });

  test('000 Stage 9: the full trace has its version, the decision and scenario with hash, the time, all nine stages (null when not run), the final decision, the replay token and the total duration', () => {
    const { trace, response } = llmRun;
    expectConforms(SelectionTrace, trace);
    expect(trace).toMatchObject({ decision_id: response.decision.decision_id, scenario_id: FITNESS, scenario_version: '1.0.0', scenario_hash: fitness.moduleHash, timestamp: TIMESTAMP, final_decision: response, replay_token: response.audit.replay_token });
    expect(Object.keys(trace.stages)).toEqual(STAGES);
    expect(trace.stages.fallback).toBeNull();
    expect(trace.total_duration_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('000 Authority boundary', () => {
  test('000 Authority: after stage 4 nothing may change which action is taken; a skill may only change how it is put', async () => {
    const tries = await Promise.all([{ ...VALID_NOTE, recommended_action: 'quiet-1' }, { ...VALID_NOTE, text: 'The weather today beats quiet-1.' }, VALID_NOTE].map((payload) => labWith(lab, payload)));
    expect(tries.map((run) => run.response.decision.selected_action)).toEqual(['note-a', 'note-a', 'note-a']);
    expect(tries[2]!.response.decision.payload).toEqual(VALID_NOTE);
  });

  test.each([
    ['an action reference', { ...VALID_NOTE, recommended_action: 'quiet-1' }, 'INV-001'],
    ['scoring data', { ...VALID_NOTE, score: 0.9 }, 'INV-002'],
    ['a state mutation', { ...VALID_NOTE, update_state: 'busy' }, 'INV-003'],
    ['a guardrail override', { ...VALID_NOTE, text: 'The weather today lets you ignore the usual limits.' }, 'INV-004'],
  ])('000 Authority: an output carrying %s is always rejected by stage 7', async (_, payload, id) => {
    const violations: string[] = [];
    const { response, trace } = await labWith(lab, payload, { onAuthorityViolation: (failures) => violations.push(...failures.map((failure) => failure.id)) });
    expect(trace.stages.validate_output!.output.ValidationResult.failures.map((failure) => failure.id)).toContain(id);
    expect(response.decision.payload).toEqual(FALLBACK_NOTE);
  });
});

describe('000 Deterministic mode', () => {
  test('000 Deterministic mode: no model is asked; the deterministic skill runs instead', async () => {
    const model = scriptedModel(() => VALID_NOTE);
    const { response } = await decided(lab, { ...LAB_REQUEST, execution_mode_override: 'deterministic_only' }, { executors: [model.executor] });
    expect(model.calls).toHaveLength(0);
    expect(response.execution).toMatchObject({ execution_mode: 'deterministic_only', executor_id: 'deterministic' });
  });

  test('000 Deterministic mode: nothing random remains: identical inputs give identical output', async () => {
    const request = { ...CAPPED, execution_mode_override: 'deterministic_only' as const };
    const [a, b] = await Promise.all([decided(fitness, request, { decisionId: testDecisionId('twin') }), decided(fitness, request, { decisionId: testDecisionId('twin') })]);
    expect(timeless(b.trace)).toEqual(timeless(a.trace));
  });

  test('000 Deterministic mode: a replay is guaranteed to match (adec select --trace, replayed)', async () => {
    const run = await cli.select(FITNESS_WORLD, { ...CAPPED, execution_mode_override: 'deterministic_only' }, '--trace');
    expect(run.code).toBe(0);
    expect(await replayCycle(fitness, JSON.parse(run.stdout) as AddressedTrace)).toMatchObject({ ok: true, identical: true });
  });
});

describe('000 Errors: what each stage does when it cannot do its work', () => {
  test('000 Errors, stage 1: an invalid request is answered 400, and no trace is stored', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: { sesions_last_7d: 1 }, actions: [REST] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect(answer.location).toBeNull();
  });

  test('000 Errors, stage 2: an unreadable memory means cold-start defaults, and the decision goes on (flagged)', async () => {
    const { response } = await decided(fitness, { scenario: FITNESS, signals: {}, actions: [HIIT, RUN, REST] }, { memory: { status: 'unavailable', values: {}, outcome_ids: [] } });
    expect(response.state).toMatchObject({ memory_status: 'unavailable', defaults_applied: ['sessions_last_7d', 'rest_days_last_7d', 'consecutive_high_intensity'] });
    expect(response.decision.selected_action).toBe('rest');
  });

  test('000 Errors, stage 3: no eligible action is answered 422 NO_ELIGIBLE_ACTIONS, and the trace is stored', async () => {
    const answer = await http.post('/v1/select', { ...FITNESS_ROUTE, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT] });
    expect([answer.status, (answer.body['error'] as { code: string }).code]).toEqual([422, 'NO_ELIGIBLE_ACTIONS']);
    expect((await http.get(answer.location!)).body).toMatchObject({ outcome: 'no_eligible_actions' });
  });

  test('000 Errors, stage 4: a scoring failure is answered 500, and the trace is stored', async () => {
    const answer = await http.post('/v1/select', { ...LAB_ROUTE, actions: [{ action_id: 'boom', type: 'call', minutes: 5, label: 'boom' }] });
    expect([answer.status, (answer.body['error'] as { code: string }).code]).toEqual([500, 'SCORING_FAILED']);
    expect((await http.get(answer.location!)).body).toMatchObject({ outcome: 'scoring_failed' });
  });

  test('000 Errors, stage 5: a skill that cannot be found is replaced by null_skill and the decision goes on (flagged skill_error, docs/spec/selection.md §6.3)', async () => {
    const answer = await http.post('/v1/select', { ...LAB_ROUTE, actions: [{ action_id: 'p1', type: 'pause' }] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ decision: { selected_action: 'p1', payload: {} }, execution: { skill_bundle_id: 'null_skill', fallback_reason_code: 'skill_error' }, degradations: [{ stage: 'resolve_skills', reason_code: 'skill_error' }] });
  });

  test('000 Errors, stage 6: a skill that errs leads to the fallback', async () => {
    const { response } = await decided(lab, LAB_REQUEST, { executors: [llmStubExecutor(() => ({ error: 'the model is overloaded' }))] });
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'executor_error', fallback_tier: 2 });
  });

  test('000 Errors, stage 7: a failed validation leads to the fallback', () => {
    expect(fellBack.response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed' });
  });

  test('000 Errors, stage 8: a fallback that fails too is answered with the minimal safe output (known difference docs/spec/selection.md#8-known-differences 8.5, not 500)', async () => {
    const { response } = await labWith(lab, { ...VALID_NOTE, text: 'You should read this today.' }, { competitorNames: ['ready for you'] });
    expect(response.decision).toMatchObject({ selected_action: 'note-a', payload: {} });
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_tier: 3, validation_status: 'failed' });
  });

  test('000 Errors, stage 9: a storage failure is answered 503 AUDIT_UNAVAILABLE, never an unrecorded decision (known difference docs/spec/selection.md#8-known-differences 8.6)', async () => {
    const fitnessBundle = await built(FITNESS_WORLD);
    const opened = await openAuditStore(join(http.service.dir, 'failing-audit.db'));
    if (!opened.ok) throw new Error(opened.message);
    const failing = new Proxy(opened.store, {
      get(store, property, receiver) {
        const value = Reflect.get(store, property, receiver) as unknown;
        if (typeof value !== 'function' || property === 'close' || property === 'stats' || property === 'memory') return typeof value === 'function' ? (value as () => unknown).bind(store) : value;
        return () => Promise.resolve({ ok: false, code: 'STORE_UNAVAILABLE', message: 'the disk is full' });
      },
    });
    const service = await startService({ audit: failing }, (modules, keys) => publish(fitnessBundle, modules, keys));
    try {
      const answer = await service.post('/v1/select', { ...FITNESS_ROUTE, signals: CAPPED.signals, actions: [REST] });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: { code: 'AUDIT_UNAVAILABLE' } });
    } finally {
      await service.close();
    }
  });

  test('000 Errors: a lawful decision is always returned when at least one action is eligible, and every degradation is flagged, never silent', async () => {
    const degraded = [
      await decided(fitness, { scenario: FITNESS, actions: [REST] }, { memory: { status: 'unavailable', values: {}, outcome_ids: [] } }),
      await decided(lab, LAB_REQUEST, { executors: [] }),
      await labWith(lab, { ...VALID_NOTE, text: 'You should read this today.' }, { competitorNames: ['ready for you'] }),
    ];
    expect(degraded.map((run) => [...new Set(run.response.degradations.map((degradation) => degradation.reason_code))])).toEqual([['memory_unavailable'], ['executor_error'], ['validation_failed']]);
    expect(degraded.map((run) => run.response.decision.selected_action)).toEqual(['rest', 'note-a', 'note-a']);
    expect(llmRun.response.degradations).toEqual([]);
  });
});

describe('000 Latency: each limit is configured in adec; bench/select/ measures the times (tests assert no time)', () => {
  test('000 Latency: derive state, guardrails and score/rank (20, 15 and 30 ms hard limits) run under one sandbox limit of their sum, 65 ms', () => {
    expect(DEFAULT_SELECTION_TIME_LIMIT_MS).toBe(20 + 15 + 30);
  });

  test('000 Latency: a deterministic skill\'s hard limit is 20 ms in the reference; adec\'s skill contract allows up to 50 ms, and a fallback 20 ms (docs/spec/skill-contract.md §5, §6.2.3)', () => {
    expect(DETERMINISTIC_HARD_LIMIT_MS).toBe(50);
    expect(fellBack.trace.stages.fallback!.output.FallbackOutput.execution?.time_limit_ms).toBeLessThanOrEqual(20);
  });

  test('000 Latency: a skill_enhanced skill\'s hard limit is 500 ms', () => {
    expect(LLM_HARD_LIMIT_MS).toBe(500);
    expect(llmRun.trace.stages.execute_skill!.output.SkillOutput.time_limit_ms).toBeLessThanOrEqual(500);
  });

  test('000 Latency: the whole cycle\'s hard limit is 150 ms deterministic and 600 ms skill_enhanced, the latency the state says the caller can expect', async () => {
    const deterministic = await decided(fitness, { ...CAPPED, execution_mode_override: 'deterministic_only' });
    expect(deterministic.response.state.execution_capabilities.max_latency_ms).toBe(150);
    expect(llmRun.response.state.execution_capabilities.max_latency_ms).toBe(600);
  });

  test('000 Latency: ingest, resolve skills, validate and audit have no limit of their own in adec: each stage\'s time is recorded for bench/select/ to measure', () => {
    for (const name of ['ingest', 'resolve_skills', 'validate_output', 'audit_and_replay'] as const) expect(llmRun.trace.stages[name]!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(llmRun.response.meta.total_duration_ms).toBeGreaterThanOrEqual(0);
  });
});
