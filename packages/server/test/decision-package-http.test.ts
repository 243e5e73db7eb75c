/**
 * The Decision Package v1 of both kinds of decision (docs/spec/contracts.md §2), over real HTTP
 * on loopback with a real SQLite audit store: every decision stores its package in its record,
 * and `GET /v1/decisions/{id}?format=decision-package` returns it, valid against the schema the
 * service serves. An adjudication approves, routes or denies by its status; a selection chooses,
 * with its alternatives and the model it consulted; a selection that chose nothing has none.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { llmStubExecutor } from '@adec/engine';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { jsonObject } from './json-body.js';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from './service-fixture.js';

const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session' };
const HIIT = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

let service: ServiceFixture;
let conforms: ValidateFunction;
beforeAll(async () => {
  const fitness = asTestBundle(await buildFixture('examples/fitness'));
  service = await startService({ executors: [llmStubExecutor(() => ({ payload: { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' } }))] }, (modules, keys) => publish(fitness, modules, keys));
  const schema = await jsonObject(await service.get('/v1/schemas/DecisionPackage', null));
  conforms = new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(schema);
}, 60_000);
afterAll(async () => {
  await service.close();
});

async function packageOf(location: string): Promise<Record<string, unknown>> {
  const read = await service.get(`${location}?format=decision-package`);
  expect(read.status, location).toBe(200);
  const body = await jsonObject(read);
  expect(conforms(body), JSON.stringify(conforms.errors)).toBe(true);
  return body;
}

describe('an adjudication’s package', () => {
  test.each([
    ['GREEN', 'approve'],
    ['GREEN-SKIP', 'approve'],
    ['YELLOW', 'route'],
    ['RED', 'deny'],
  ] as const)('%s is stored and returned as `%s` of the action asked about', async (status, type) => {
    const decided = await service.post('/v1/decide', addDependent(BY_STATUS[status]));
    expect(decided.status).toBe(200);
    const answer = await jsonObject(decided);
    const metadata = answer['decision_metadata'] as { request_id: string; request_time: string; module: { module_hash: string; version: string } };
    const frame = answer['work_frame'] as { next_human_owner: string | null; missing_evidence: string[]; required_output: string[] };
    const pack = await packageOf(`/v1/decisions/${metadata.request_id}`);
    expect(pack).toMatchObject({
      decision_id: metadata.request_id,
      schema_version: '1.0.0',
      timestamp: metadata.request_time,
      decision_type: type,
      selected_action: { name: 'add_dependent', parameters: BY_STATUS[status], preconditions: frame.missing_evidence, expected_effects: frame.required_output },
      confidence_score: null,
      human_review_required: status === 'YELLOW' || frame.next_human_owner !== null,
      escalation_route: frame.next_human_owner === null ? null : { contact: frame.next_human_owner, SLA: null },
      reasoning_trace_ref: `/v1/decisions/${metadata.request_id}`,
      references: { world_version_id: metadata.module.module_hash, Ruleset_version: metadata.module.version },
      adec: { kind: 'adjudication', status, payload: null },
    });
  });
});

describe('a selection’s package', () => {
  test('chooses the locked candidate, with the others as alternatives and the model consulted', async () => {
    const answered = await service.post('/v1/select', { ...FITNESS, request_id: 'package-1', signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] });
    expect(answered.status).toBe(200);
    const response = await jsonObject(answered);
    const decision = response['decision'] as { decision_id: string; selected_action: string; payload: unknown; ranked_options: { action_id: string; final_score: number }[] };
    const pack = await packageOf(answered.headers.get('location')!);
    expect(pack).toMatchObject({
      decision_id: decision.decision_id,
      task_id: 'package-1',
      decision_type: 'choose',
      selected_action: { name: decision.selected_action, parameters: { type: 'workout_session', session_name: 'Tempo Run' } },
      alternatives: decision.ranked_options.slice(1).map((option) => ({ action: option.action_id, expected_utility: option.final_score, confidence: null, trade_offs: [] })),
      reasoning_trace_ref: `trace:${decision.decision_id}`,
      consultations: [{ provider: 'llm_stub', consultation_id: 'consultation:fitness_session_rationale', consensus_metrics: null }],
      adec: { kind: 'selection', status: null, payload: decision.payload },
    });
    // The same package is in the record the chain holds.
    const stored = await jsonObject(await service.get(answered.headers.get('location')!));
    expect(stored).not.toHaveProperty('decision_package');
  });

  test('a selection that chose nothing has none: 409 NO_DECISION_PACKAGE', async () => {
    const refused = await service.post('/v1/select', { ...FITNESS, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, { ...HIIT, action_id: 'spin-45' }] });
    expect(refused.status).toBe(422);
    const read = await service.get(`${refused.headers.get('location')!}?format=decision-package`);
    expect(read.status).toBe(409);
    expect((await jsonObject(read))['error']).toMatchObject({ code: 'NO_DECISION_PACKAGE', message: expect.stringContaining('no_eligible_actions') });
  });
});

describe('answered at once', () => {
  test('POST /v1/decide?format=decision-package answers with the package it stores, the same on a retry', async () => {
    const body = addDependent(BY_STATUS.YELLOW, { request_id: 'package-decide-1' });
    const first = await service.post('/v1/decide?format=decision-package', body);
    expect(first.status).toBe(200);
    const answered = await jsonObject(first);
    expect(conforms(answered), JSON.stringify(conforms.errors)).toBe(true);
    expect(answered).toMatchObject({ decision_id: 'package-decide-1', task_id: 'package-decide-1', decision_type: 'route', adec: { status: 'YELLOW' } });
    expect(await packageOf(first.headers.get('location')!)).toEqual(answered);
    const retried = await service.post('/v1/decide?format=decision-package', body);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await jsonObject(retried)).toEqual(answered);
  });

  test('POST /v1/select?format=decision-package answers a decided selection with its package; a 422 stays a 422', async () => {
    const first = await service.post('/v1/select?format=decision-package', { ...FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] });
    expect(first.status).toBe(200);
    const answered = await jsonObject(first);
    expect(answered).toMatchObject({ decision_type: 'choose', selected_action: { name: 'run-40' } });
    expect(await packageOf(first.headers.get('location')!)).toEqual(answered);
    const none = await service.post('/v1/select?format=decision-package', { ...FITNESS, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, { ...HIIT, action_id: 'spin-45' }] });
    expect(none.status).toBe(422);
  });

  test.each([
    ['/v1/decide', 'format=xml', '?format'],
    ['/v1/decide', 'traces=maybe', '?traces'],
    ['/v1/select', 'traces=false', '?traces'],
    ['/v1/select', 'format=decision_package', '?format'],
  ])('POST %s?%s is refused with 400 INVALID_QUERY naming %s, before anything is decided', async (path, query, parameter) => {
    const body = path === '/v1/decide' ? addDependent(BY_STATUS.GREEN) : { ...FITNESS, signals: {}, actions: [RUN, REST] };
    const refused = await service.post(`${path}?${query}`, body);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect((await jsonObject(refused))['error']).toMatchObject({ code: 'INVALID_QUERY', details: [expect.objectContaining({ path: parameter })] });
  });
});

describe('the format parameter', () => {
  test.each([
    ['format=json', '?format'],
    ['format=Decision-Package', '?format'],
    ['format=', '?format'],
    ['format=decision-package&format=decision-package', '?format'],
    ['fromat=decision-package', '?fromat'],
    ['traces=false', '?traces'],
  ])('?%s is refused with 400 INVALID_QUERY naming %s', async (query, path) => {
    const decided = await jsonObject(await service.post('/v1/decide', addDependent(BY_STATUS.GREEN)));
    const id = (decided['decision_metadata'] as { request_id: string }).request_id;
    const read = await service.get(`/v1/decisions/${id}?${query}`);
    expect(read.status).toBe(400);
    expect((await jsonObject(read))['error']).toMatchObject({ code: 'INVALID_QUERY', details: [expect.objectContaining({ path })] });
  });
});
