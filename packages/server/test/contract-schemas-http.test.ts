/**
 * The contracts' JSON Schemas as the service serves them (`GET /v1/schemas/{name}`, no token:
 * nothing in them is the caller's), over real HTTP on loopback: each is a schema ajv compiles in
 * strict mode, the same as its OpenAPI component, and real answers of `POST /v1/select` — decided,
 * degraded, retried — validate against the schema fetched from the service. A name that is no
 * contract, including the names every object inherits, is a 404 that lists the contracts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMAS, plainSchema } from '@adec/contracts';
import { llmStubExecutor } from '@adec/engine';
import { OPENAPI_DOCUMENT } from '../src/openapi.js';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { jsonObject } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session' };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

let service: ServiceFixture;
/** The model's next reply: a payload (a valid rationale, or one that breaks the skill's contract), or raw text. */
let reply: unknown = { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' };

beforeAll(async () => {
  const bundle = asTestBundle(await buildFixture('examples/fitness'));
  service = await startService({ executors: [llmStubExecutor(() => (typeof reply === 'string' ? { text: reply } : { payload: reply }))] }, (modules, keys) => publish(bundle, modules, keys));
});
afterAll(async () => {
  await service.close();
});

async function served(name: string): Promise<Record<string, unknown>> {
  const response = await service.get(`/v1/schemas/${encodeURIComponent(name)}`, null);
  expect(response.status, name).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
  return jsonObject(response);
}

describe('GET /v1/schemas/{name}', () => {
  test.each(Object.keys(CONTRACT_SCHEMAS))('%s is served without a token, compiles in strict mode, and is its OpenAPI component', async (name) => {
    const schema = await served(name);
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    new Ajv2020({ strict: true, validateFormats: false }).compile(schema);
    const { $schema: _, title: __, ...rest } = schema;
    expect(rest).toEqual(plainSchema(CONTRACT_SCHEMAS[name]!));
    expect((OPENAPI_DOCUMENT.components.schemas as Record<string, unknown>)[name]).toEqual(rest);
  });

  test.each(['', 'nope', 'decisionresponse', 'DecisionResponse ', '__proto__', 'constructor', 'hasOwnProperty', 'toString', '../openapi.json', 'x'.repeat(100)])(
    '%j names no contract: 404 SCHEMA_NOT_FOUND, listing the contracts',
    async (name) => {
      const response = await service.get(`/v1/schemas/${encodeURIComponent(name)}`, null);
      expect(response.status).toBe(404);
      const body = await jsonObject(response);
      expect(body['error']).toMatchObject({ code: 'SCHEMA_NOT_FOUND', message: expect.stringContaining(`the contracts are ${Object.keys(CONTRACT_SCHEMAS).join(', ')}`) });
    },
  );
});

describe('real answers validate against the schema the service serves', () => {
  test('decided, fallen back, and retried selections are DecisionResponses; their stored traces are SelectionTraces', async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
    const response = ajv.compile(await served('DecisionResponse'));
    const trace = ajv.compile(await served('SelectionTrace'));
    const bodies: unknown[] = [];
    for (const [n, rationale] of [
      [1, { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' }],
      [2, { rationale: 'I recommend a different session instead.' }],
      [3, 'not json'],
    ] as const) {
      reply = rationale;
      const body = { ...FITNESS, request_id: `schema-${n}`, user_id: 'u-1', execution_mode_override: 'skill_enhanced', signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] };
      for (const attempt of [1, 2]) {
        const answered = await service.post('/v1/select', body);
        expect(answered.status, `${n}/${attempt}`).toBe(200);
        bodies.push(await jsonObject(answered));
      }
    }
    for (const body of bodies) expect(response(body), JSON.stringify(response.errors)).toBe(true);
    const flags = bodies.map((body) => (body as { execution: { fallback_used: boolean } }).execution.fallback_used);
    expect(flags).toEqual([false, false, true, true, true, true]);
    for (const body of bodies) {
      const id = (body as { decision: { decision_id: string } }).decision.decision_id;
      const stored = await jsonObject(await service.get(`/v1/decisions/${id}`));
      expect(trace(stored['trace']), JSON.stringify(trace.errors)).toBe(true);
    }
  });
});
