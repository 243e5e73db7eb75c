/**
 * Signed reasoning traces over real HTTP (docs/spec/contracts.md §4): a service given a trace
 * key signs every selection's trace before it stores it; the stored decision, fetched from
 * `GET /v1/decisions/{id}`, verifies with the public key alone, by `verifyTrace` and by
 * `adec trace verify`; with one field changed, or checked against another key, it does not.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { llmStubExecutor, verifyTrace, type AddressedTrace } from '@adec/engine';
import { generateKey, parseKey } from '@adec/runtime';
import { runCli, tempWorkspace } from '../../cli/test/run-cli.js';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { jsonObject } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const FITNESS = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: 'fitness_daily_session' };
const RUN = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

const traceKey = generateKey('jwk');
const otherKey = generateKey('jwk');
const signing = parseKey(traceKey.privateText, 'trace.key.jwk');
const workspace = tempWorkspace({ 'trace.pub.jwk': traceKey.publicText, 'other.pub.jwk': otherKey.publicText });

let service: ServiceFixture;
let stored: Record<string, unknown>;
beforeAll(async () => {
  if (!signing.ok) throw new Error(signing.message);
  const bundle = asTestBundle(await buildFixture('examples/fitness'));
  service = await startService(
    { executors: [llmStubExecutor(() => ({ payload: { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' } }))], traceSigner: { key: signing.key, keyId: signing.keyId } },
    (modules, keys) => publish(bundle, modules, keys),
  );
  const answered = await service.post('/v1/select', { ...FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] });
  expect(answered.status).toBe(200);
  const location = answered.headers.get('location')!;
  const read = await service.get(location);
  expect(read.status).toBe(200);
  stored = await jsonObject(read);
}, 60_000);
afterAll(async () => {
  await service.close();
});

const traceOf = (decision: Record<string, unknown>) => decision['trace'] as AddressedTrace;

describe('a service with a trace key', () => {
  test('signs the trace it stores, with its key id and the time', () => {
    expect(traceOf(stored).signatures).toEqual([{ signer: traceKey.keyId, algorithm: 'Ed25519', signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    const publicKey = parseKey(traceKey.publicText, 'trace.pub.jwk');
    if (!publicKey.ok) throw new Error(publicKey.message);
    expect(verifyTrace(traceOf(stored), publicKey.key, publicKey.keyId)).toMatchObject({ ok: true, signer: traceKey.keyId });
  });

  test('adec trace verify accepts the stored decision with the public key', async () => {
    writeFileSync(join(workspace, 'decision.json'), JSON.stringify(stored));
    const run = await runCli(['trace', 'verify', 'decision.json', '--key', 'trace.pub.jwk'], workspace);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`^ok +trace:${traceOf(stored).decision_id}: signed by ${traceKey.keyId} at `));
  });

  test.each([
    ['the selected action', (trace: AddressedTrace) => ({ ...trace, final_decision: { ...trace.final_decision!, decision: { ...trace.final_decision!.decision, selected_action: 'rest' } } })],
    ['a guardrail verdict', (trace: AddressedTrace) => ({ ...trace, stages: { ...trace.stages, evaluate_guardrails: { ...trace.stages.evaluate_guardrails, guardrails_evaluated: [] } } })],
    ['the structure', (trace: AddressedTrace) => ({ ...trace, structure: { ...trace.structure, edges: trace.structure.edges.slice(1) } })],
    ['the signature time', (trace: AddressedTrace) => ({ ...trace, signatures: trace.signatures.map((signature) => ({ ...signature, timestamp: '2030-01-01T00:00:00.000Z' })) })],
  ])('adec trace verify refuses it with %s changed', async (what, change) => {
    writeFileSync(join(workspace, 'changed.json'), JSON.stringify({ ...stored, trace: change(traceOf(stored)) }));
    const run = await runCli(['trace', 'verify', 'changed.json', '--key', 'trace.pub.jwk', '--format', 'json'], workspace);
    expect(run.code, what).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: false, problem: expect.stringMatching(/content address|does not verify/) });
  });

  test('adec trace verify refuses it against another key, and names what it could not read', async () => {
    writeFileSync(join(workspace, 'decision.json'), JSON.stringify(stored));
    const other = await runCli(['trace', 'verify', 'decision.json', '--key', 'other.pub.jwk'], workspace);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(`has no signature by key ${otherKey.keyId} (signed by "${traceKey.keyId}")`);
    writeFileSync(join(workspace, 'broken.json'), '{"trace": ');
    expect(await runCli(['trace', 'verify', 'broken.json', '--key', 'trace.pub.jwk'], workspace)).toMatchObject({ code: 1, stderr: expect.stringContaining('broken.json is not JSON') });
    writeFileSync(join(workspace, 'other.json'), '{"decision": 1}');
    expect(await runCli(['trace', 'verify', 'other.json', '--key', 'trace.pub.jwk'], workspace)).toMatchObject({ code: 1, stderr: expect.stringContaining('holds no reasoning trace') });
    expect(await runCli(['trace', 'verify', 'decision.json'], workspace)).toMatchObject({ code: 2 });
  });
});
