/**
 * `POST /v1/feedback` takes an Execution Outcome Package v1 whole (docs/spec/contracts.md §3), over
 * real HTTP on loopback with a real SQLite audit store: a package with every field of the
 * reference is accepted, stored exactly as sent in the org's hash chain and answered again on a
 * retry; each field's bad forms, generated from the served schema (wrong type, too long, empty,
 * unknown nested field, missing nested field, bad enum, bad timestamp, too many items), are
 * refused 400 naming exactly that field's JSON path, and nothing of them is stored; the OpenAPI
 * document and `GET /v1/schemas/ExecutionOutcomePackage` serve the one schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyChains } from '@adec/audit';
import { ExecutionOutcomePackage, plainSchema } from '@adec/contracts';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { at, jsonObject, stringAt, type JsonObject } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session', execution_mode_override: 'deterministic_only' };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

/** The reference's fields of the Execution Outcome Package v1, written out here so the contract cannot lose one unnoticed. */
const REFERENCE_FIELDS = [
  'outcome_id', 'schema_version', 'decision_id', 'action_name', 'start_time', 'end_time', 'status', 'execution_state_transitions', 'observed_effects', 'deviations',
  'safety_validation_results', 'error_diagnostics', 'telemetry', 'artifacts', 'outcome_trace_ref', 'world_version_id_before', 'world_version_id_after',
  'next_actions_suggested', 'reengagement_advice',
];

let service: ServiceFixture;
/** A decided selection for a user, whose outcomes the tests report. */
let decision: { id: string; action: string; moduleHash: string };

beforeAll(async () => {
  const fitness = asTestBundle(await buildFixture('examples/fitness'));
  service = await startService({}, (modules, keys) => publish(fitness, modules, keys));
  const selected = await jsonObject(await service.post('/v1/select', { ...FITNESS, user_id: 'user-eop', signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] }));
  decision = { id: stringAt(selected, 'decision', 'decision_id'), action: stringAt(selected, 'decision', 'selected_action'), moduleHash: stringAt(selected, 'audit', 'scenario_hash') };
}, 60_000);
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
});

/** A package with every field of the contract, each filled in. */
function fullPackage(outcomeId: string): JsonObject {
  return {
    outcome_id: outcomeId,
    schema_version: '1.0.0',
    decision_id: decision.id,
    action_name: decision.action,
    start_time: '2026-03-01T09:00:00Z',
    end_time: '2026-03-01T10:41:30.250+01:00',
    status: 'partial',
    execution_state_transitions: [
      { time: '2026-03-01T09:00:00Z', state: 'started', note: '' },
      { time: '2026-03-01T09:35:00Z', state: 'stopped', note: 'the user stopped after 35 minutes' },
    ],
    observed_effects: [{ signal: 'sessions_last_7d', value: 1 }],
    deviations: [{ expected: { duration_minutes: 40 }, observed: { duration_minutes: 35 }, severity: 'low', remediation: 'none needed' }],
    safety_validation_results: [{ invariant_id: 'INV-001', pass_fail: 'pass', detail: 'heart rate stayed under the cap' }],
    error_diagnostics: { code: 'USER_STOPPED', message: 'the session ended early', category: 'user', logs_ref: 'https://logs.example/run/1' },
    telemetry: { latency_ms: 2100000, cost: 0.25, resource_usage: { cpu_ms: 12, 'memory.mb': 40.5 }, api_quota_used: 3 },
    artifacts: [{ artifact_id: 'a-1', kind: 'report', uri: 'https://artifacts.example/a-1', checksum: `sha256:${'0'.repeat(64)}` }],
    outcome_trace_ref: 'trace://doing-engine/run/1',
    world_version_id_before: decision.moduleHash,
    world_version_id_after: 'doing-side-world-42',
    next_actions_suggested: ['rest'],
    reengagement_advice: { trigger: 'session_cut_short', payload_ref: 'https://state.example/payload/1' },
  };
}

async function post(body: unknown) {
  const response = await service.post('/v1/feedback', body);
  return { status: response.status, body: await jsonObject(response) };
}

async function storedRecord(outcomeId: string) {
  const found = await service.host.store.get('acme', outcomeId);
  if (!found.ok) throw new Error(found.message);
  return found.value;
}

describe('a whole package', () => {
  test('has every field of the reference, and the contract has no other', () => {
    expect(Object.keys(fullPackage('o')).sort()).toEqual([...REFERENCE_FIELDS].sort());
    expect(Object.keys(ExecutionOutcomePackage.properties).sort()).toEqual([...REFERENCE_FIELDS].sort());
  });

  test('is accepted, stored exactly as sent in the chain, its effects remembered; the same package again is the same receipt, another one under its id a 409', async () => {
    const sent = fullPackage('outcome-full-1');
    const recorded = await post(sent);
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ outcome_id: 'outcome-full-1', decision_id: decision.id, memory: { user_id: 'user-eop', scenario: 'fitness_daily_session', signals: ['sessions_last_7d'] }, idempotent_replay: false });

    const record = await storedRecord('outcome-full-1');
    expect(record).toMatchObject({ kind: 'feedback', seq: at(recorded.body, 'chain', 'seq'), hash: at(recorded.body, 'chain', 'hash') });
    expect(record!.payload['outcome']).toEqual(sent);
    expect(record!.payload['decision_id']).toBe(decision.id);
    // The stored package is one the served schema accepts.
    const validate = new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(await jsonObject(await service.get('/v1/schemas/ExecutionOutcomePackage', null)));
    expect(validate(record!.payload['outcome']), JSON.stringify(validate.errors)).toBe(true);
    expect((await verifyChains(service.host.store)).ok).toBe(true);

    const again = await post(sent);
    expect(again).toMatchObject({ status: 200, body: { outcome_id: 'outcome-full-1', chain: recorded.body['chain'], recorded_at: recorded.body['recorded_at'], idempotent_replay: true } });
    const changed = await post({ ...sent, telemetry: { ...(sent['telemetry'] as object), cost: 0.5 } });
    expect(changed).toMatchObject({ status: 409, body: { error: { code: 'DUPLICATE_OUTCOME_ID' } } });
  });

  test('without schema_version is read as 1.0.0; only the outcome id, decision id and status are required', async () => {
    const minimal = { outcome_id: 'outcome-min-1', decision_id: decision.id, status: 'success' };
    expect((await post(minimal)).status).toBe(201);
    expect((await storedRecord('outcome-min-1'))!.payload['outcome']).toEqual(minimal);
    for (const field of ['outcome_id', 'decision_id', 'status']) {
      const refused = await post(Object.fromEntries(Object.entries({ ...minimal, outcome_id: 'outcome-min-2' }).filter(([name]) => name !== field)));
      expect(refused.body['error'], field).toEqual({ code: 'INVALID_REQUEST', message: expect.any(String), details: [{ path: `$.${field}`, message: 'is required' }] });
    }
  });
});

describe('what the service checks beyond the schema', () => {
  test.each(['2.0.0', '1.1.0', '1', '1.0', '', 1])('schema_version %j is refused, naming the version the service reads', async (version) => {
    const refused = await post({ ...fullPackage('outcome-version'), schema_version: version });
    expect(refused.status).toBe(400);
    expect(at(refused.body, 'error', 'details')).toEqual([{ path: '$.schema_version', message: expect.stringContaining(typeof version === 'string' ? 'expected one of 1.0.0' : 'expected a string') }]);
  });

  test('a world_version_id_before that is not the module hash of the selection is refused; world_version_id_after is the doing side’s to name', async () => {
    const refused = await post({ ...fullPackage('outcome-world'), world_version_id_before: `sha256:${'1'.repeat(64)}` });
    expect(refused.status).toBe(400);
    expect(at(refused.body, 'error', 'details')).toEqual([{ path: '$.world_version_id_before', message: `must be the module hash of the selection (${decision.moduleHash})` }]);
    expect(await storedRecord('outcome-world')).toBeNull();
  });

  test('an end before the start is refused at end_time', async () => {
    const refused = await post({ ...fullPackage('outcome-times'), start_time: '2026-03-01T09:00:00Z', end_time: '2026-03-01T09:30:00+01:00' });
    expect(refused.status).toBe(400);
    expect(at(refused.body, 'error', 'details')).toEqual([{ path: '$.end_time', message: 'is before start_time (2026-03-01T09:00:00Z)' }]);
  });
});

/** A change of a value: the bad form of a field, or the package with the field's value changed. */
type Change = (value: unknown) => unknown;

/** One bad form of one field: the package changed at `path`, and the path the refusal must name. */
interface BadForm {
  readonly what: string;
  readonly path: string;
  readonly change: Change;
}

type Schema = Readonly<Record<string, unknown>>;

/**
 * The bad forms of the value at `path`, by what its schema says, and of each value inside it;
 * `within` turns a change of that value into a change of the whole package.
 */
function badForms(schema: Schema, value: unknown, path: string, within: (change: Change) => Change): { what: string; path: string; package: Change }[] {
  const forms: BadForm[] = [];
  const type = schema['type'];
  if (type === 'string') forms.push({ what: 'a number', path, change: () => 12345 });
  if (type === 'number') forms.push({ what: 'a string', path, change: () => '12' });
  if (type === 'array') forms.push({ what: 'an object', path, change: () => ({}) });
  if (type === 'object') forms.push({ what: 'a list', path, change: () => [] }, { what: 'null', path, change: () => null });
  if (typeof schema['maxLength'] === 'number') forms.push({ what: 'too long', path, change: () => 'x'.repeat(schema['maxLength'] as number + 1) });
  if (schema['minLength'] === 1) forms.push({ what: 'empty', path, change: () => '' });
  if (typeof schema['pattern'] === 'string') forms.push({ what: 'a space in it', path, change: () => 'has space' });
  if (Array.isArray(schema['enum'])) forms.push({ what: 'not in the enum', path, change: () => 'not-a-value' });
  if (schema['format'] === 'date-time') forms.push({ what: 'no such day', path, change: () => '2026-02-30T09:00:00Z' }, { what: 'not RFC 3339', path, change: () => '1 March 2026' });
  if (schema['minimum'] === 0) forms.push({ what: 'negative', path, change: () => -1 });
  if (typeof schema['maxItems'] === 'number') forms.push({ what: 'too many items', path, change: (list) => Array.from({ length: (schema['maxItems'] as number) + 1 }, () => (list as unknown[])[0]) });
  if (typeof schema['maxProperties'] === 'number') forms.push({ what: 'too many members', path, change: (map) => ({ ...(map as object), ...Object.fromEntries(Array.from({ length: schema['maxProperties'] as number }, (_, i) => [`m${i}`, 1])) }) });
  const properties = schema['properties'] as Readonly<Record<string, Schema>> | undefined;
  if (properties !== undefined) {
    forms.push({ what: 'an unknown field', path: `${path}.unexpected_field`, change: (object) => ({ ...(object as object), unexpected_field: 1 }) });
    for (const field of (schema['required'] as string[] | undefined) ?? []) {
      forms.push({ what: `no ${field}`, path: `${path}.${field}`, change: (object) => Object.fromEntries(Object.entries(object as object).filter(([name]) => name !== field)) });
    }
  }
  if (schema['patternProperties'] !== undefined) forms.push({ what: 'a name it does not take', path: `${path}["bad name"]`, change: (map) => ({ ...(map as object), 'bad name': 1 }) });
  const own = forms.map((form) => ({ what: form.what, path: form.path, package: within(form.change) }));
  const inner = innerValues(schema, value).flatMap(([key, child, childSchema]) =>
    badForms(childSchema, child, typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`, (change) => within((parent) => changedAt(parent, key, change))),
  );
  return [...own, ...inner];
}

/** `parent` (an object or a list) with its member `key` changed. */
function changedAt(parent: unknown, key: string | number, change: Change): unknown {
  if (Array.isArray(parent)) return parent.map((item: unknown, i) => (i === key ? change(item) : item));
  return { ...(parent as object), [key]: change((parent as Record<string, unknown>)[key]) };
}

/** The values inside `value` that have a schema of their own: each field of an object, each item of a list. */
function innerValues(schema: Schema, value: unknown): [string | number, unknown, Schema][] {
  const properties = schema['properties'] as Readonly<Record<string, Schema>> | undefined;
  if (properties !== undefined) return Object.entries(value as object).map(([key, child]) => [key, child, properties[key]!]);
  if (schema['type'] === 'array') return (value as unknown[]).map((item, i) => [i, item, schema['items'] as Schema]);
  return [];
}

describe('each field’s bad forms', () => {
  test('are refused 400 INVALID_REQUEST naming exactly that field’s path, and none is stored', async () => {
    const schema = await jsonObject(await service.get('/v1/schemas/ExecutionOutcomePackage', null));
    const cases = badForms(schema, fullPackage('o'), '$', (change) => change);
    const before = await service.host.store.chains();
    const wrong: unknown[] = [];
    for (const [n, bad] of cases.entries()) {
      const refused = await post(bad.package(fullPackage(`outcome-bad-${n}`)));
      if (!refusedAt(refused, bad.path)) wrong.push({ case: `${bad.path} ${bad.what}`, status: refused.status, body: refused.body });
    }
    expect(wrong).toEqual([]);
    expect(await service.host.store.chains()).toEqual(before);
    // Every field of the package, at the top and inside, has bad forms among the cases.
    const paths = new Set(cases.map((bad) => bad.path.replace(/^\$\./, '').split(/[.[]/)[0]));
    for (const field of REFERENCE_FIELDS) expect(paths, field).toContain(field);
    expect(cases.length).toBeGreaterThan(100);
    expect(cases.map((bad) => bad.path)).toEqual(expect.arrayContaining(['$.deviations[0].severity', '$.telemetry.resource_usage["bad name"]', '$.execution_state_transitions[1].time', '$.error_diagnostics.unexpected_field', '$.artifacts[0].checksum', '$.reengagement_advice.payload_ref']));
  });
});

describe('the schema the service states', () => {
  test('GET /v1/schemas/ExecutionOutcomePackage serves the contract, and the OpenAPI document’s body of /v1/feedback is it', async () => {
    const served = await jsonObject(await service.get('/v1/schemas/ExecutionOutcomePackage', null));
    const { $schema: _, title: __, ...schema } = served;
    expect(schema).toEqual(plainSchema(ExecutionOutcomePackage));
    const document = await jsonObject(await service.get('/openapi.json', null));
    expect(at(document, 'paths', '/v1/feedback', 'post', 'requestBody', 'content', 'application/json', 'schema')).toEqual({ $ref: '#/components/schemas/ExecutionOutcomePackage' });
    expect(at(document, 'components', 'schemas', 'ExecutionOutcomePackage')).toEqual(schema);
  });
});

/** Whether `answer` is a 400 INVALID_REQUEST with one problem, at `path`, said in words. */
function refusedAt(answer: { status: number; body: JsonObject }, path: string): boolean {
  const error = answer.body['error'] as { code?: unknown; details?: { path?: unknown; message?: unknown }[] } | undefined;
  const details = error?.details ?? [];
  return answer.status === 400 && error?.code === 'INVALID_REQUEST' && details.length === 1 && details[0]!.path === path && typeof details[0]!.message === 'string' && details[0]!.message !== '';
}
