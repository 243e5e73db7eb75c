/**
 * Every id the API accepts can be read back: a `request_id` of /v1/decide and /v1/select and an
 * `outcome_id` of /v1/feedback may be 1–128 characters (request-fields.ts REQUEST_ID), and a
 * decision stored under any of them is read by `GET /v1/decisions/{id}` and replayed by
 * `POST /v1/decisions/{id}/replay` (the router's path-parameter limit is the id limit,
 * create-app.ts). At 129 characters a body field is refused 400 naming its JSON path, and a path
 * segment 414 `URI_TOO_LONG`, each in the service's error envelope.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UUID_V4_PATTERN } from '@adec/contracts';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { at, jsonObject } from './json-body.js';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from './service-fixture.js';

const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session', execution_mode_override: 'deterministic_only' };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };
const ACCEPTED = [1, 127, 128];

/** An id of exactly `length` characters, starting with `first` (each route its own letter, so ids never collide). */
function idOf(first: string, length: number): string {
  return first + '0123456789abcdef'.repeat(9).slice(0, length - 1);
}

let service: ServiceFixture;
beforeAll(async () => {
  const fitness = asTestBundle(await buildFixture('examples/fitness'));
  service = await startService({}, (modules, keys) => publish(fitness, modules, keys));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
});

async function json(response: Response) {
  return { status: response.status, location: response.headers.get('location'), body: await jsonObject(response) };
}

/** The stored decision is read back and replayed under its id. */
async function expectReadBack(id: string) {
  const stored = await json(await service.get(`/v1/decisions/${id}`));
  expect(stored.status).toBe(200);
  expect(stored.body['decision_id']).toBe(id);
  const replay = await json(await service.post(`/v1/decisions/${id}/replay`, {}));
  expect(replay.status).toBe(200);
  expect(replay.body).toMatchObject({ decision_id: id, identical: true });
}

describe.each(ACCEPTED)('an id of %i characters', (length) => {
  test('a /v1/decide request_id is stored, read back and replayed', async () => {
    const id = idOf('d', length);
    const decided = await json(await service.post('/v1/decide', addDependent(BY_STATUS.GREEN, { request_id: id })));
    expect(decided.status).toBe(200);
    expect(decided.location).toBe(`/v1/decisions/${id}`);
    expect(at(decided.body, 'decision_metadata', 'request_id')).toBe(id);
    await expectReadBack(id);
  });

  test('a /v1/select request_id is stored, read back and replayed, and /v1/feedback\'s outcome_id on it is recorded and answered again', async () => {
    const id = idOf('s', length);
    const body = { ...FITNESS, request_id: id, user_id: idOf('u', length), signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] };
    const selected = await json(await service.post('/v1/select', body));
    expect(selected.status).toBe(200);
    // The decision id is the service's UUID; the request id is kept beside it, and names the same decision on a retry.
    const decisionId = at(selected.body, 'decision', 'decision_id') as string;
    expect(decisionId).toMatch(new RegExp(UUID_V4_PATTERN));
    expect(at(selected.body, 'meta', 'request_id')).toBe(id);
    expect(selected.location).toBe(`/v1/decisions/${decisionId}`);
    const retried = await json(await service.post('/v1/select', body));
    expect(retried.body).toEqual(selected.body);
    await expectReadBack(decisionId);

    const outcomeId = idOf('o', length);
    const outcome = { outcome_id: outcomeId, decision_id: decisionId, status: 'success', action_name: at(selected.body, 'decision', 'selected_action') };
    const recorded = await json(await service.post('/v1/feedback', outcome));
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ outcome_id: outcomeId, decision_id: decisionId, idempotent_replay: false });
    // Read back from the store: the same outcome again is answered from its record.
    const again = await json(await service.post('/v1/feedback', outcome));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome_id: outcomeId, decision_id: decisionId, idempotent_replay: true, chain: recorded.body['chain'] });
  });
});

describe('an id of 129 characters', () => {
  const id = (first: string) => idOf(first, 129);

  test.each([
    ['/v1/decide request_id', '/v1/decide', () => addDependent(BY_STATUS.GREEN, { request_id: id('d') }), '$.request_id'],
    ['/v1/select request_id', '/v1/select', () => ({ ...FITNESS, request_id: id('s'), actions: [RUN, REST] }), '$.request_id'],
    ['/v1/feedback outcome_id', '/v1/feedback', () => ({ outcome_id: id('o'), decision_id: idOf('s', 1), status: 'success' }), '$.outcome_id'],
  ])('a %s is refused 400 naming its path', async (_, path, body, field) => {
    const refused = await json(await service.post(path, body()));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.any(String), details: [{ path: field, message: expect.stringContaining('1–128') }] } });
  });

  test.each([
    ['GET /v1/decisions/{id}', (path: string) => service.get(path), ''],
    ['POST /v1/decisions/{id}/replay', (path: string) => service.post(path, {}), '/replay'],
  ])('%s answers 414 URI_TOO_LONG in the error envelope', async (_, send, suffix) => {
    const refused = await json(await send(`/v1/decisions/${id('d')}${suffix}`));
    expect(refused.status).toBe(414);
    expect(refused.body).toEqual({ error: { code: 'URI_TOO_LONG', message: expect.stringContaining('128 characters'), details: [] } });
  });
});
