/**
 * The reasoning trace of docs/spec/contracts.md §4 on real decisions of the fitness world: its
 * `structure` is an acyclic graph of what the decision evaluated, read from its own stages, and
 * its `signatures` make it verifiable with the service's public key alone. A trace with any one
 * field changed, added or removed, anywhere, does not verify (generated over every field of
 * real traces).
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { keyId } from '@adec/runtime';
import type { LoadedModule } from '@adec/runtime';
import { llmStubExecutor, replayCycle, runCycle, signTrace, verifyTrace, type AddressedTrace, type CandidateAction, type CycleRequest } from '@adec/engine';
import { loadWorld } from './selection-fixtures.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

const TIMESTAMP = '2026-11-28T09:00:00.000Z';
const SIGNED_AT = new Date('2026-11-28T09:00:01.000Z');
const SCENARIO = 'fitness_daily_session';
const HIIT: CandidateAction = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const RUN: CandidateAction = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
const REST: CandidateAction = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };

/** Decisions that take different paths: a guardrail firing, a model consulted, a fallback, none eligible. */
const CASES: readonly (readonly [string, CycleRequest, unknown])[] = [
  ['the rest-day guardrail forces rest', { scenario: SCENARIO, signals: { sessions_last_7d: 6, rest_days_last_7d: 0 }, actions: [HIIT, RUN, REST] }, { rationale: 'unused' }],
  ['the model explains the run', { scenario: SCENARIO, signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 }, actions: [HIIT, RUN] }, { rationale: 'Tempo Run keeps your legs moving at an easy, steady pace.' }],
  ['the model re-ranks and the fallback answers', { scenario: SCENARIO, signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [HIIT, RUN] }, { rationale: 'I recommend a different session: HIIT Blast ranks higher.' }],
  ['nothing is eligible', { scenario: SCENARIO, signals: { consecutive_high_intensity: 3, rest_days_last_7d: 1 }, actions: [HIIT, { ...HIIT, action_id: 'spin-45' }] }, { rationale: 'unused' }],
];

let fitness: LoadedModule;
const traces = new Map<string, AddressedTrace>();
beforeAll(async () => {
  fitness = await loadWorld('examples/fitness');
  let n = 0;
  for (const [name, request, payload] of CASES) {
    const result = await runCycle(fitness, request, { decisionId: testDecisionId(`reasoning-${++n}`), timestamp: TIMESTAMP, executors: [llmStubExecutor(() => ({ payload }))] });
    if (!result.ok) throw new Error(result.error.message);
    traces.set(name, result.trace);
  }
});

function traceOf(name: string): AddressedTrace {
  const trace = traces.get(name);
  if (trace === undefined) throw new Error(`no trace ${name}`);
  return trace;
}

const names = CASES.map(([name]) => name);

describe('the structure', () => {
  test.each(names)('%s: an acyclic graph whose edges join nodes it has', (name) => {
    const { structure } = traceOf(name);
    const ids = [...structure.context_nodes, ...structure.rule_nodes, ...structure.consultation_nodes, ...structure.synthesis_nodes, ...structure.confidence_nodes].map((node) => node.node_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const edge of structure.edges) expect([ids.includes(edge.from), ids.includes(edge.to)], `${edge.from} → ${edge.to}`).toEqual([true, true]);
    // Kahn: every node can be placed after all that feed it.
    const incoming = new Map(ids.map((id) => [id, structure.edges.filter((edge) => edge.to === id).length]));
    const ready = ids.filter((id) => incoming.get(id) === 0);
    let placed = 0;
    while (ready.length > 0) {
      const id = ready.pop()!;
      placed++;
      for (const edge of structure.edges.filter((e) => e.from === id)) {
        const left = incoming.get(edge.to)! - 1;
        incoming.set(edge.to, left);
        if (left === 0) ready.push(edge.to);
      }
    }
    expect(placed, 'a cycle in the graph').toBe(ids.length);
  });

  test.each(names)('%s: says what the stages recorded, nothing else', (name) => {
    const trace = traceOf(name);
    const { structure, stages } = trace;
    expect(structure.context_nodes.map((node) => [node.source, node.context_id])).toEqual([
      ['request', stages.ingest.input_hash],
      ['user_state', stages.derive_state.output.UserState.inputs_hash],
    ]);
    const guardrails = structure.rule_nodes.filter((node) => node.kind === 'guardrail');
    expect(guardrails.map((node) => [node.rule_id, node.fired])).toEqual(stages.evaluate_guardrails.guardrails.map((g) => [g.id, g.fired]));
    const ranking = structure.synthesis_nodes.find((node) => node.kind === 'ranking');
    expect(ranking?.result ?? null).toBe(stages.score_and_rank?.output.selected_action ?? null);
    const payload = structure.synthesis_nodes.find((node) => node.kind === 'payload');
    expect(payload?.result ?? null).toBe(trace.final_decision === null ? null : `tier_${trace.final_decision.execution.fallback_tier}`);
    const asked = stages.execute_skill?.output.SkillOutput.model_outcome ?? null;
    expect(structure.consultation_nodes.map((node) => [node.provider, node.outcome])).toEqual(asked === null ? [] : [['llm_stub', asked.kind]]);
    const failedChecks = structure.rule_nodes.filter((node) => node.kind === 'validation_check' && node.fired && node.node_id.startsWith('rule:validation:') && !node.node_id.startsWith('rule:validation:fallback:'));
    expect(failedChecks.map((node) => node.rule_id).sort()).toEqual([...(stages.validate_output?.output.checks_failed ?? [])].sort());
  });

  test('the fallback path names the check that sent it there, and the model consulted', () => {
    const { structure } = traceOf('the model re-ranks and the fallback answers');
    expect(structure.synthesis_nodes.find((node) => node.kind === 'payload')).toMatchObject({ result: 'tier_2', constraints: expect.arrayContaining(['validation:authority_boundary_intact']) });
    expect(structure.consultation_nodes[0]).toMatchObject({ skill_id: 'fitness_session_rationale', outcome: 'reply', consensus: null, prompt: expect.stringContaining('HIIT Blast') });
  });

  test.each(names)('%s: is rebuilt identically by a replay', async (name) => {
    const replay = await replayCycle(fitness, traceOf(name));
    expect(replay).toMatchObject({ ok: true, identical: true });
    if (replay.ok) expect(replay.replayed.structure).toEqual(traceOf(name).structure);
  });
});

/** Every way of changing one field of `value`: each leaf altered, each object given a field more or one less. */
function oneFieldChanges(value: unknown, path: string[] = []): { readonly path: string; readonly change: (root: unknown) => unknown }[] {
  const at = path.join('.') || '(root)';
  const changed = (replacement: unknown) => ({ path: at, change: (root: unknown) => setAt(root, path, replacement) });
  if (value === null) return [changed(0)];
  if (typeof value === 'string') return [changed(`${value}x`)];
  if (typeof value === 'number') return [changed(value + 1)];
  if (typeof value === 'boolean') return [changed(!value)];
  if (Array.isArray(value)) return [changed([...value, null]), ...value.flatMap((item, index) => oneFieldChanges(item, [...path, String(index)]))];
  const entries = Object.entries(value as Record<string, unknown>);
  const [firstKey] = entries.map(([key]) => key);
  return [
    changed({ ...(value as object), added_field: true }),
    ...(firstKey === undefined ? [] : [changed(Object.fromEntries(entries.slice(1)))]),
    ...entries.flatMap(([key, item]) => oneFieldChanges(item, [...path, key])),
  ];
}

function setAt(root: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(root)) return (root as unknown[]).map((item, index) => (String(index) === head ? setAt(item, rest, replacement) : item));
  return { ...(root as object), [head]: setAt((root as Record<string, unknown>)[head], rest, replacement) };
}

describe('the signatures', () => {
  const service = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const serviceKey = { key: service.privateKey, keyId: keyId(service.publicKey) };

  test.each(names)('%s: a signed trace verifies with the public key, also after a round trip through JSON', (name) => {
    const signed = signTrace(traceOf(name), serviceKey, SIGNED_AT);
    expect(signed.signatures).toEqual([{ signer: serviceKey.keyId, algorithm: 'Ed25519', signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/), timestamp: SIGNED_AT.toISOString() }]);
    expect(verifyTrace(JSON.parse(JSON.stringify(signed)) as AddressedTrace, service.publicKey, serviceKey.keyId)).toEqual({ ok: true, signer: serviceKey.keyId, signedAt: SIGNED_AT.toISOString() });
  });

  test('an unsigned trace, or one signed by another key, does not verify', () => {
    const trace = traceOf('the model explains the run');
    expect(verifyTrace(trace, service.publicKey, serviceKey.keyId)).toEqual({ ok: false, problem: `it has no signature by key ${serviceKey.keyId}` });
    const forged = signTrace(trace, { key: other.privateKey, keyId: serviceKey.keyId }, SIGNED_AT);
    expect(verifyTrace(forged, service.publicKey, serviceKey.keyId)).toMatchObject({ ok: false, problem: expect.stringContaining('does not verify') });
  });

  test.each(names)('%s: any one field changed, added or removed makes it fail', (name) => {
    const signed = signTrace(traceOf(name), serviceKey, SIGNED_AT);
    const changes = oneFieldChanges(signed);
    expect(changes.length).toBeGreaterThan(100);
    const passed = changes.filter(({ change }) => verifyTrace(change(signed) as AddressedTrace, service.publicKey, serviceKey.keyId).ok).map(({ path }) => path);
    expect(passed).toEqual([]);
  });

  test('the signature text altered in its spare bits does not pass for the same signature', () => {
    const signed = signTrace(traceOf('the model explains the run'), serviceKey, SIGNED_AT);
    const [signature] = signed.signatures;
    const text = signature!.signature;
    // The last character before `==` carries 2 bits of the signature and 4 spare bits.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = alphabet.indexOf(text[85]!);
    const twins = alphabet.split('').filter((_, index) => index !== last && index >> 4 === last >> 4).map((char) => `${text.slice(0, 85)}${char}==`);
    expect(twins.length).toBe(15);
    for (const twin of twins) {
      expect(Buffer.from(twin, 'base64').equals(Buffer.from(text, 'base64'))).toBe(true);
      expect(verifyTrace({ ...signed, signatures: [{ ...signature!, signature: twin }] }, service.publicKey, serviceKey.keyId).ok).toBe(false);
    }
  });
});
