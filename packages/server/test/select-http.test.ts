/**
 * The ADE cycle as the decision service serves it, over real HTTP on loopback: `POST /v1/select`
 * on the fitness and SEC lab worlds (worlds of scenarios only, loaded like any other), the trace
 * stored in the hash-chained audit store before the answer (also for 422 and 500), retrieval,
 * replay, feedback into the user's short-term memory changing a later selection, and the
 * errors of each class of bad request. On SQLite and on a real PostgreSQL server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { verifyChains } from '@adec/audit';
import { llmStubExecutor, type LlmCall } from '@adec/engine';
import { asTestBundle, buildFixture, publish, type TestBundle } from '../../../test/support/runtime.js';
import { createDatabase } from '../../../test/support/postgres-server.js';
import { arrayAt, at, jsonObject, stringAt } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const HIIT = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };
const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session' };
const LAB = { domain: 'sec.lab', world_model_version: '1.0.0', scenario: 'lab_pick' };
const NOTE = { action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 };
const QUIET = { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' };

let bundles: TestBundle[];
/** What the scripted model answers next, per skill call. */
/** The payload the model writes next (answered in a well-formed output envelope). */
let modelReply: (call: LlmCall) => unknown = () => ({ rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' });
const model = llmStubExecutor((call) => ({ payload: modelReply(call) }));

beforeAll(async () => {
  bundles = [asTestBundle(await buildFixture('examples/fitness')), asTestBundle(await buildFixture('packages/engine/test/worlds/sec-lab'))];
});

const started: ServiceFixture[] = [];
afterAll(async () => {
  await Promise.all(started.map((service) => service.close()));
});

async function selectionService(audit?: string): Promise<ServiceFixture> {
  const service = await startService({ executors: [model], ...(audit !== undefined && { audit }) }, (modules, keys) => bundles.forEach((bundle) => publish(bundle, modules, keys)));
  started.push(service);
  return service;
}

async function json(response: Response) {
  return { status: response.status, location: response.headers.get('location'), body: await jsonObject(response) };
}

/** The JSON paths an error body's details name. */
function detailPaths(body: unknown): string[] {
  return arrayAt(body, 'error', 'details').map((detail) => stringAt(detail, 'path'));
}

describe.each([
  ['SQLite', async () => undefined],
  ['PostgreSQL', async () => createDatabase(inject('postgresUrl'), 'select')],
])('selections on %s', (_, audit) => {
  let service: ServiceFixture;
  beforeAll(async () => {
    service = await selectionService(await audit());
  });

  test('a selection is answered with the DecisionResponse of docs/spec/selection.md §3.9 once its trace is stored, and it can be read back and replayed', async () => {
    modelReply = () => ({ rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' });
    const answer = await json(await service.post('/v1/select', { ...FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 }, actions: [HIIT, RUN] }));
    expect(answer.status).toBe(200);
    expect(answer.body['decision']).toMatchObject({ selected_action: 'run-40', payload: { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' } });
    expect(answer.body['execution']).toMatchObject({ execution_mode: 'skill_enhanced', skill_bundle_id: 'fitness_session_rationale', executor_id: 'llm_stub', validation_status: 'passed', fallback_used: false });
    const id = stringAt(answer.body, 'decision', 'decision_id');
    expect(answer.location).toBe(`/v1/decisions/${id}`);

    const stored = await json(await service.get(`/v1/decisions/${id}`));
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ decision_id: id, kind: 'selection', outcome: 'decided', response: answer.body, request: { domain: 'fitness.coaching', user_id: null } });
    expect(at(stored.body, 'trace', 'stages', 'evaluate_guardrails', 'output', 'EligibleActions', 'rejected')).toEqual([{ action_id: 'hiit-20', violated_guardrails: ['GR-INTENSITY-CAP'] }]);

    const previous = modelReply;
    modelReply = () => {
      throw new Error('a replay must not ask the model');
    };
    const replay = await json(await service.post(`/v1/decisions/${id}/replay`, {}));
    modelReply = previous;
    expect(replay.body).toMatchObject({ decision_id: id, identical: true, differences: [] });
  });

  test('zero eligible actions is a 422 NO_ELIGIBLE_ACTIONS whose trace is stored; a failed scoring would be a 500 the same way', async () => {
    const spin = { ...HIIT, action_id: 'spin-45' };
    const refused = await json(await service.post('/v1/select', { ...FITNESS, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, spin] }));
    expect(refused.status).toBe(422);
    expect(at(refused.body, 'error', 'code')).toBe('NO_ELIGIBLE_ACTIONS');
    const stored = await json(await service.get(refused.location!));
    expect(stored.body).toMatchObject({ kind: 'selection', outcome: 'no_eligible_actions', response: null });
  });

  test('feedback becomes the user\'s memory, and the next selection for that user follows it', async () => {
    const request = { ...FITNESS, user_id: 'user-17', signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [HIIT, RUN, REST], execution_mode_override: 'deterministic_only' };
    const first = await json(await service.post('/v1/select', request));
    expect(at(first.body, 'decision', 'selected_action')).toBe('hiit-20');
    expect(first.body['state']).toMatchObject({ memory_status: 'read', memory_applied: [] });

    const outcome = { outcome_id: 'outcome-1', decision_id: at(first.body, 'decision', 'decision_id'), status: 'success', action_name: 'hiit-20', observed_effects: [{ signal: 'consecutive_high_intensity', value: 2 }] };
    const recorded = await json(await service.post('/v1/feedback', outcome));
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ outcome_id: 'outcome-1', memory: { user_id: 'user-17', scenario: 'fitness_daily_session', signals: ['consecutive_high_intensity'] }, idempotent_replay: false });
    // The same outcome again is idempotent; another body under its id is a conflict.
    expect((await service.post('/v1/feedback', outcome)).status).toBe(200);
    expect(at((await json(await service.post('/v1/feedback', { ...outcome, status: 'failure' }))).body, 'error', 'code')).toBe('DUPLICATE_OUTCOME_ID');

    const second = await json(await service.post('/v1/select', request));
    // Two hard sessions in a row, remembered: the intensity cap blocks a third.
    expect(at(second.body, 'decision', 'selected_action')).toBe('run-40');
    expect(second.body['state']).toMatchObject({ memory_applied: ['consecutive_high_intensity'] });
    const replay = await json(await service.post(`/v1/decisions/${stringAt(second.body, 'decision', 'decision_id')}/replay`, {}));
    expect(replay.body['identical']).toBe(true);
    // Another user's memory is their own.
    const other = await json(await service.post('/v1/select', { ...request, user_id: 'user-18' }));
    expect(at(other.body, 'decision', 'selected_action')).toBe('hiit-20');
  });

  test('every selection, refusal with a trace and feedback is in a chain that verifies', async () => {
    const report = await verifyChains(service.host.store);
    expect(report.ok).toBe(true);
  });
});

describe('the SEC over HTTP', () => {
  let service: ServiceFixture;
  beforeAll(async () => {
    service = await selectionService();
  });

  test('a skill output that tries to change the selection is rejected; the fallback explains the locked selection', async () => {
    modelReply = () => ({ text: 'The weather today: pick quiet-1 instead.', title: 'Morning digest', selected_action: 'quiet-1' });
    const answer = await json(await service.post('/v1/select', { ...LAB, signals: { visits: 4 }, actions: [NOTE, QUIET] }));
    expect(answer.status).toBe(200);
    expect(answer.body['decision']).toMatchObject({ selected_action: 'note-a', payload: { text: 'Morning digest is ready for you today.' } });
    expect(answer.body['execution']).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed', fallback_tier: 2 });
  });

  test('a retry with the same request_id is answered from the store; a different request under it is a conflict', async () => {
    modelReply = () => ({ text: 'The weather is bright today.', title: 'Morning digest' });
    const request = { ...LAB, request_id: 'select-retry-1', signals: { visits: 1 }, actions: [NOTE, QUIET] };
    const first = await service.post('/v1/select', request);
    const again = await service.post('/v1/select', request);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    const conflict = await json(await service.post('/v1/select', { ...request, signals: { visits: 2 } }));
    expect(conflict).toMatchObject({ status: 409, body: { error: { code: 'DUPLICATE_REQUEST_ID' } } });
  });

  test.each([
    ['a body that is not an object', [], 400, 'INVALID_REQUEST', '$'],
    ['a missing scenario', { domain: 'sec.lab', world_model_version: '1.0.0', actions: [NOTE] }, 400, 'INVALID_REQUEST', '$.scenario'],
    ['an unknown field', { ...LAB, actions: [NOTE], urgent: true }, 400, 'INVALID_REQUEST', '$.urgent'],
    ['a signal of the wrong type', { ...LAB, signals: { visits: 'many' }, actions: [NOTE] }, 400, 'INVALID_REQUEST', '$.signals.visits'],
    ['an undeclared signal', { ...LAB, signals: { vists: 1 }, actions: [NOTE] }, 400, 'INVALID_REQUEST', '$.signals.vists'],
    ['an action of an unknown type', { ...LAB, actions: [{ action_id: 'x', type: 'nope' }] }, 400, 'INVALID_REQUEST', '$.actions[0].type'],
    ['an invalid mode override', { ...LAB, actions: [NOTE], execution_mode_override: 'fast' }, 400, 'INVALID_REQUEST', '$.execution_mode_override'],
    ['a bad user_id', { ...LAB, actions: [NOTE], user_id: 'a b' }, 400, 'INVALID_REQUEST', '$.user_id'],
    ['an unknown scenario', { ...LAB, scenario: 'nope', actions: [NOTE] }, 404, 'UNKNOWN_SCENARIO', '$.scenario'],
    ['an unknown module', { ...LAB, domain: 'nope', actions: [NOTE] }, 404, 'MODULE_NOT_FOUND', undefined],
    ['another org in the body', { ...LAB, actions: [NOTE], org_id: 'globex' }, 403, 'WRONG_TENANT', '$.org_id'],
  ])('%s is refused with %i %s and nothing is stored', async (_, body, status, code, path) => {
    const before = (await service.host.store.chains()).ok;
    const refused = await json(await service.post('/v1/select', body));
    expect(refused.status).toBe(status);
    expect(at(refused.body, 'error', 'code')).toBe(code);
    if (path !== undefined) expect(detailPaths(refused.body)).toContain(path);
    expect(before).toBe(true);
  });

  test.each([
    ['an unknown decision', { outcome_id: 'o-x1', decision_id: 'nope', status: 'success' }, 404, 'DECISION_NOT_FOUND', '$.decision_id'],
    ['a bad status', { outcome_id: 'o-x2', decision_id: 'nope', status: 'done' }, 400, 'INVALID_REQUEST', '$.status'],
    ['effects that are not a list', { outcome_id: 'o-x3', decision_id: 'nope', status: 'success', observed_effects: {} }, 400, 'INVALID_REQUEST', '$.observed_effects'],
    ['a missing outcome id', { decision_id: 'nope', status: 'success' }, 400, 'INVALID_REQUEST', '$.outcome_id'],
  ])('feedback with %s is refused with %i %s', async (_, body, status, code, path) => {
    const refused = await json(await service.post('/v1/feedback', body));
    expect(refused.status).toBe(status);
    expect(at(refused.body, 'error', 'code')).toBe(code);
    expect(detailPaths(refused.body)).toContain(path);
  });

  test('feedback whose effects do not fit the scenario is refused with the JSON path of each', async () => {
    modelReply = () => ({ text: 'The weather is bright today.', title: 'Morning digest' });
    const selected = await json(await service.post('/v1/select', { ...LAB, user_id: 'u-1', actions: [NOTE, QUIET] }));
    const decisionId = at(selected.body, 'decision', 'decision_id');
    const refused = await json(await service.post('/v1/feedback', { outcome_id: 'o-bad', decision_id: decisionId, status: 'success', observed_effects: [{ signal: 'visits', value: 'lots' }, { signal: 'mod', value: 'calm' }] }));
    expect(refused.status).toBe(400);
    expect(detailPaths(refused.body)).toEqual(['$.observed_effects[0].value', '$.observed_effects[1].signal']);
    const wrongAction = await json(await service.post('/v1/feedback', { outcome_id: 'o-bad-2', decision_id: decisionId, status: 'success', action_name: 'quiet-1' }));
    expect(at(wrongAction.body, 'error', 'details')).toEqual([{ path: '$.action_name', message: 'must be the selected action (note-a)' }]);
  });
});

describe('the select tool over MCP (POST /v1/mcp)', () => {
  test('selects as POST /v1/select does, and a selection with no eligible action is an error result naming the stored decision', async () => {
    const service = await selectionService();
    const client = new Client({ name: 'adec-test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/v1/mcp', service.host.url!), { requestInit: { headers: { authorization: `Bearer ${await service.issuer.token()}` } } }));
    try {
      const request = { ...FITNESS, signals: { sessions_last_7d: 6, rest_days_last_7d: 0 }, actions: [HIIT, REST] };
      const selected = (await client.callTool({ name: 'select', arguments: request })) as CallToolResult;
      expect(selected.isError).toBeFalsy();
      expect(selected.structuredContent).toMatchObject({ decision: { selected_action: 'rest' }, execution: { skill_bundle_id: 'decision_rationale_template' } });
      const none = (await client.callTool({ name: 'select', arguments: { ...request, actions: [HIIT] } })) as CallToolResult;
      expect(none.isError).toBe(true);
      expect((none.content[0] as { text: string }).text).toMatch(/^NO_ELIGIBLE_ACTIONS: no candidate passed every guardrail; the trace is stored as decision [0-9a-f-]{36}$/);
    } finally {
      await client.close();
    }
  });
});
