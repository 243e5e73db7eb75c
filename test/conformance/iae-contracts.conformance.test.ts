/**
 * Conformance to the canonical contracts of the reference agent architecture (issue 30): every
 * normative statement of its section 3.3 that adec implements, restated in our own words with
 * the subsection it comes from ("003 §3.3.3"), one test each: the Decision Package (§3.3.3), the
 * Execution Outcome Package (§3.3.4) and the Reasoning Trace (§3.3.5). The Structured Context
 * (§3.3.1) and the Rule Engine Output (§3.3.2) have no counterpart in adec (a documented
 * difference, docs/spec/contracts.md §6.4); one test says so. adec's own statement is
 * docs/spec/contracts.md.
 *
 * adec is reached three ways: the service over loopback HTTP (`POST /v1/select`, `POST /v1/decide`,
 * `GET /v1/decisions/{id}?format=decision-package`, `POST /v1/feedback`), the engine (`runCycle`,
 * `verifyTrace`) and the CLI (`adec trace verify`).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DecisionPackage, ExecutionOutcomePackage, SelectionTrace, TraceSignature } from '@adec/contracts';
import { contentAddressOf, verifyTrace, type AddressedTrace } from '@adec/engine';
import { parseKey, type LoadedModule } from '@adec/runtime';
import { addDependent, BY_STATUS } from '../../packages/server/test/service-fixture.js';
import {
  cliWorkspace,
  decided,
  expectConforms,
  FITNESS_ROUTE,
  LAB_REQUEST,
  loaded,
  REST,
  RUN,
  RUN_RATIONALE,
  scriptedModel,
  SEC_LAB_WORLD,
  selectionService,
  VALID_NOTE,
  type CliWorkspace,
  type SelectionService,
} from './conformance-support.js';

type Json = Record<string, unknown>;

let http: SelectionService;
let cli: CliWorkspace;
let lab: LoadedModule;
/** A selection (a model consulted, one alternative) and its stored record and package. */
let selection: { response: Json; record: Json; trace: AddressedTrace; pack: Json };
/** An adjudication routed to a person (YELLOW) and its package. */
let routed: { response: Json; pack: Json };
/** A whole Execution Outcome Package as sent, and its stored record. */
let outcome: { sent: Json; status: number; receipt: Json; stored: Json };

const packageOf = async (decisionId: string) => {
  const read = await http.get(`/v1/decisions/${decisionId}?format=decision-package`);
  expect(read.status).toBe(200);
  return read.body;
};

beforeAll(async () => {
  [http, cli, lab] = await Promise.all([selectionService(), cliWorkspace([]), loaded(SEC_LAB_WORLD)]);
  http.answer(() => ({ rationale: RUN_RATIONALE }));
  const selected = await http.post('/v1/select', { ...FITNESS_ROUTE, user_id: 'user-iae', request_id: 'task-17', signals: { sessions_last_7d: 0, rest_days_last_7d: 2 }, actions: [RUN, REST] });
  expect(selected.status).toBe(200);
  const id = String((selected.body['decision'] as Json)['decision_id']);
  const record = (await http.get(`/v1/decisions/${id}`)).body;
  selection = { response: selected.body, record, trace: record['trace'] as AddressedTrace, pack: await packageOf(id) };
  const decided = await http.post('/v1/decide', addDependent(BY_STATUS.YELLOW));
  expect(decided.status).toBe(200);
  routed = { response: decided.body, pack: await packageOf(String((decided.body['decision_metadata'] as Json)['request_id'])) };

  const sent = {
    outcome_id: 'outcome-iae-1',
    schema_version: '1.0.0',
    decision_id: id,
    action_name: 'run-40',
    start_time: '2026-03-01T09:00:00Z',
    end_time: '2026-03-01T09:40:00Z',
    status: 'partial',
    execution_state_transitions: [{ time: '2026-03-01T09:00:00Z', state: 'started', note: 'warm-up' }],
    observed_effects: [{ signal: 'sessions_last_7d', value: 1 }],
    deviations: [{ expected: { duration_minutes: 40 }, observed: { duration_minutes: 35 }, severity: 'low', remediation: 'none needed' }],
    safety_validation_results: [{ invariant_id: 'INV-001', pass_fail: 'pass', detail: 'nothing crossed the boundary' }],
    error_diagnostics: { code: 'USER_STOPPED', message: 'ended five minutes early', category: 'user' },
    telemetry: { latency_ms: 2_400_000, cost: 0, resource_usage: { cpu_ms: 12 }, api_quota_used: 1 },
    artifacts: [{ artifact_id: 'a-1', kind: 'report', uri: 'https://artifacts.example/a-1', checksum: `sha256:${'0'.repeat(64)}` }],
    outcome_trace_ref: 'trace://doing/run/1',
    world_version_id_before: String((selected.body['audit'] as Json)['scenario_hash']),
    world_version_id_after: 'doing-world-2',
    next_actions_suggested: ['rest'],
    reengagement_advice: { trigger: 'session_cut_short', payload_ref: 'https://state.example/p/1' },
  };
  const posted = await http.post('/v1/feedback', sent);
  const found = await http.service.host.store.get('acme', 'outcome-iae-1');
  if (!found.ok || found.value === null) throw new Error('the outcome was not stored');
  outcome = { sent, status: posted.status, receipt: posted.body, stored: found.value.payload };
}, 120_000);
afterAll(async () => {
  await http.close();
});

describe('003 §3.3: the canonical contracts', () => {
  test('003 §3.3: field names are normative and the contracts may be extended: every contract field is present under its own name, and adec\'s additions sit beside it under names of their own', () => {
    expectConforms(DecisionPackage, selection.pack);
    expectConforms(DecisionPackage, routed.pack);
    expect(Object.keys(selection.pack).sort()).toEqual(Object.keys(DecisionPackage.properties).sort());
    expect(selection.pack['adec']).toMatchObject({ kind: 'selection', payload: { rationale: RUN_RATIONALE } });
    expectConforms(SelectionTrace, selection.trace);
    expect(selection.trace).toMatchObject({ module: expect.any(Object), outcome: 'decided' });
  });

  test.each(['StructuredContext', 'RuleEngineOutput'])('003 §3.3.1–3.3.2: %s has no counterpart in adec and is served by no schema (documented, docs/spec/contracts.md §6.4)', async (name) => {
    const served = await http.get(`/v1/schemas/${name}`);
    expect(served.status).toBe(404);
  });
});

describe('003 §3.3.3 Decision Package', () => {
  const both = () => [selection.pack, routed.pack];

  test.each<[string, () => void]>([
    ['decision_id names the decision it packages', () => {
      expect(selection.pack['decision_id']).toBe((selection.response['decision'] as Json)['decision_id']);
      expect(routed.pack['decision_id']).toBe((routed.response['decision_metadata'] as Json)['request_id']);
    }],
    ['schema_version says which version of the contract it is', () => both().forEach((pack) => expect(pack['schema_version']).toBe('1.0.0'))],
    ['task_id names the task the decision serves (the caller\'s request id)', () => expect(selection.pack['task_id']).toBe('task-17')],
    ['timestamp is when the decision was made', () => expect(selection.pack['timestamp']).toBe((selection.response['meta'] as Json)['timestamp'])],
    ['decision_type is one of choose, plan, route, approve, deny', () => {
      expect(selection.pack['decision_type']).toBe('choose');
      expect(routed.pack['decision_type']).toBe('route');
    }],
    ['selected_action has a name, parameters, preconditions and expected effects', () => {
      expect(selection.pack['selected_action']).toEqual({ name: 'run-40', parameters: { type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 }, preconditions: expect.any(Array), expected_effects: [] });
      expect(routed.pack['selected_action']).toMatchObject({ name: 'add_dependent', parameters: BY_STATUS.YELLOW });
    }],
    ['safety_assertions list the invariants the decision was checked against, with their parameters', () => {
      const ids = (selection.pack['safety_assertions'] as { invariant_id: string }[]).map((assertion) => assertion.invariant_id);
      expect(ids).toEqual(expect.arrayContaining(['GR-REST-MIN', 'GR-INTENSITY-CAP']));
      expect((routed.pack['safety_assertions'] as unknown[]).length).toBeGreaterThan(0);
    }],
    ['confidence_score is between 0 and 1, or null where adec states no probability (docs/spec/contracts.md §2.3)', () => both().forEach((pack) => expect(pack['confidence_score']).toBeNull())],
    ['confidence_interpretation gives the calibration method, a band and notes', () => both().forEach((pack) => expect(pack['confidence_interpretation']).toEqual({ calibration_method: expect.any(String), band: expect.any(String), notes: expect.any(String) }))],
    ['risk_tier is one of the tiers', () => {
      expect(selection.pack['risk_tier']).toBe('T0');
      expect(['T0', 'T1', 'T2', 'T3']).toContain(routed.pack['risk_tier']);
    }],
    ['abstain_threshold is between 0 and 1, or null: adec never abstains (docs/spec/contracts.md §2.4)', () => both().forEach((pack) => expect(pack['abstain_threshold']).toBeNull())],
    ['human_review_required says whether a person must review', () => {
      expect(selection.pack['human_review_required']).toBe(false);
      expect(routed.pack['human_review_required']).toBe(true);
    }],
    ['escalation_route names a contact and a deadline (null: adec states none, docs/spec/contracts.md §2.4)', () => {
      expect(selection.pack['escalation_route']).toBeNull();
      expect(routed.pack['escalation_route']).toEqual({ contact: expect.any(String), SLA: null });
    }],
    ['alternatives list the other options with their expected utility, confidence and trade-offs', () => {
      expect(selection.pack['alternatives']).toEqual([{ action: 'rest', expected_utility: expect.any(Number), confidence: null, trade_offs: expect.any(Array) }]);
    }],
    ['reasoning_trace_ref points at the reasoning trace', () => expect(selection.pack['reasoning_trace_ref']).toBe(selection.trace.trace_id)],
    ['references name the context, rule output, world version and the versions of each engine', () => {
      expect(selection.pack['references']).toEqual({ context_id: expect.any(String), rule_output_id: null, world_version_id: selection.trace.scenario_hash, CET_version: null, Ruleset_version: '1.0.0', DER_version: expect.any(String) });
    }],
    ['consultations list the model providers consulted, with an id and consensus metrics', () => {
      expect(selection.pack['consultations']).toEqual([{ provider: 'llm_stub', consultation_id: expect.any(String), consensus_metrics: null }]);
      expect(routed.pack['consultations']).toEqual([]);
    }],
    ['budgets give time and cost', () => expect(selection.pack['budgets']).toEqual({ time: 600, cost: null })],
    ['policy_requirements list the approvals or checks the executor must enforce', () => both().forEach((pack) => expect((pack['policy_requirements'] as unknown[]).length).toBeGreaterThan(0))],
  ])('003 §3.3.3: %s', (_, check) => {
    check();
  });
});

describe('003 §3.3.4 Execution Outcome Package', () => {
  test('003 §3.3.4: a whole package, every field the contract names filled in, is accepted and stored exactly as sent', () => {
    expect(outcome.status).toBe(201);
    expectConforms(ExecutionOutcomePackage, outcome.sent);
    expect(outcome.stored['outcome']).toEqual(outcome.sent);
    expect(Object.keys(ExecutionOutcomePackage.properties).sort()).toEqual(Object.keys(outcome.sent).sort());
  });

  test.each<[string, () => Promise<void> | void]>([
    ['outcome_id identifies the outcome (the record\'s id)', () => expect(outcome.receipt['outcome_id']).toBe('outcome-iae-1')],
    ['schema_version names the contract\'s version; another is refused', async () => {
      const refused = await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-v2', schema_version: '2.0.0' });
      expect(refused.status).toBe(400);
    }],
    ['decision_id names the decision carried out; an unknown one is refused', async () => {
      expect(outcome.receipt['decision_id']).toBe(outcome.sent['decision_id']);
      const unknown = await http.post('/v1/feedback', { outcome_id: 'outcome-nowhere', decision_id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b', status: 'success' });
      expect(unknown.status).toBe(404);
    }],
    ['action_name names the action carried out; another than the one selected is refused', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-other-action', action_name: 'rest' })).status).toBe(400);
    }],
    ['start_time and end_time are timestamps, the end not before the start', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-backwards', end_time: '2026-03-01T08:00:00Z' })).status).toBe(400);
    }],
    ['status is one of success, failure, partial, aborted', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-status', status: 'done' })).status).toBe(400);
    }],
    ['execution_state_transitions list { time, state, note }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-transition', execution_state_transitions: [{ time: '2026-03-01T09:00:00Z', state: 'started' }] })).status).toBe(400);
    }],
    ['observed_effects are kept and fed to the user\'s state (adec: { signal, value }, docs/spec/contracts.md §3.1.2)', () => {
      expect(outcome.receipt['memory']).toEqual({ user_id: 'user-iae', scenario: 'fitness_daily_session', signals: ['sessions_last_7d'] });
    }],
    ['deviations list { expected, observed, severity, remediation }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-deviation', deviations: [{ expected: 1, observed: 2, severity: 'dire', remediation: '' }] })).status).toBe(400);
    }],
    ['safety_validation_results list { invariant_id, pass_fail, detail }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-safety', safety_validation_results: [{ invariant_id: 'INV-001', pass_fail: 'maybe', detail: '' }] })).status).toBe(400);
    }],
    ['error_diagnostics are { code, message, category, logs_ref? }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-diagnostics', error_diagnostics: { code: 'X', message: 'y' } })).status).toBe(400);
    }],
    ['telemetry is { latency_ms, cost, resource_usage, api_quota_used }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-telemetry', telemetry: { latency_ms: 1 } })).status).toBe(400);
    }],
    ['artifacts list { artifact_id, kind, uri, checksum }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-artifacts', artifacts: [{ artifact_id: 'a', kind: 'report', uri: 'https://x.example/a' }] })).status).toBe(400);
    }],
    ['outcome_trace_ref points at the doing side\'s trace', () => expect((outcome.stored['outcome'] as Json)['outcome_trace_ref']).toBe('trace://doing/run/1')],
    ['world_version_id_before names the world the decision was made in; another is refused', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-world', world_version_id_before: `sha256:${'1'.repeat(64)}` })).status).toBe(400);
    }],
    ['world_version_id_after names the world after the execution, kept as sent', () => expect((outcome.stored['outcome'] as Json)['world_version_id_after']).toBe('doing-world-2')],
    ['next_actions_suggested is optional: a package without it is accepted', async () => {
      const { next_actions_suggested: _, reengagement_advice: __, ...without } = outcome.sent;
      expect((await http.post('/v1/feedback', { ...without, outcome_id: 'outcome-no-next' })).status).toBe(201);
    }],
    ['reengagement_advice is optional, and when given is { trigger, payload_ref }', async () => {
      expect((await http.post('/v1/feedback', { ...outcome.sent, outcome_id: 'outcome-advice', reengagement_advice: { trigger: 'x' } })).status).toBe(400);
    }],
  ])('003 §3.3.4: %s', async (_, check) => {
    await check();
  });
});

describe('003 §3.3.5 Reasoning Trace', () => {
  const structure = () => selection.trace.structure;

  test('003 §3.3.5: the trace has a trace id, the decision id and a schema version', () => {
    expect(selection.trace).toMatchObject({ trace_id: `trace:${String((selection.response['decision'] as Json)['decision_id'])}`, decision_id: (selection.response['decision'] as Json)['decision_id'], schema_version: '1.0.0' });
  });

  test('003 §3.3.5: context nodes name what the decision read, with its id and version', () => {
    expect(structure().context_nodes.map((node) => node.source)).toEqual(expect.arrayContaining(['request', 'user_state']));
    for (const node of structure().context_nodes) expect(node).toMatchObject({ context_id: expect.stringMatching(/[0-9a-f]{64}/), version: expect.any(String) });
  });

  test('003 §3.3.5: rule nodes name each rule with its version, and why it fired or was skipped', () => {
    const guardrails = structure().rule_nodes.filter((node) => node.kind === 'guardrail');
    expect(guardrails.map((node) => node.rule_id)).toEqual(selection.trace.stages.evaluate_guardrails.guardrails_evaluated);
    for (const node of structure().rule_nodes) expect(node).toMatchObject({ rule_version: expect.any(String), fired: expect.any(Boolean), reason: expect.stringMatching(/\S/) });
  });

  test('003 §3.3.5: consultation nodes name the provider asked, the prompt, the redactions and the consensus', () => {
    expect(structure().consultation_nodes).toEqual([expect.objectContaining({ provider: 'llm_stub', skill_id: 'fitness_session_rationale', prompt: expect.stringContaining('Tempo Run'), redactions: selection.trace.redaction_info, outcome: 'reply', consensus: null })]);
  });

  test('003 §3.3.5: synthesis nodes give the weights, constraints and utilities the result was weighed from', () => {
    const ranking = structure().synthesis_nodes.find((node) => node.kind === 'ranking')!;
    expect(ranking).toMatchObject({ weights: expect.any(Object), constraints: expect.any(Array), result: 'run-40' });
    expect(ranking.utilities.map((utility) => utility.option).sort()).toEqual(['rest', 'run-40']);
  });

  test('003 §3.3.5: confidence nodes give the calibration details', () => {
    expect(structure().confidence_nodes).toEqual([expect.objectContaining({ calibration_method: expect.any(String), notes: expect.any(String) })]);
  });

  test('003 §3.3.5: the structure is a directed acyclic graph of those nodes', () => {
    const { edges, ...kinds } = structure();
    const ids = new Set(Object.values(kinds).flat().map((node) => node.node_id));
    for (const edge of edges) expect([ids.has(edge.from), ids.has(edge.to)]).toEqual([true, true]);
    // Kahn's algorithm: every node can be removed once nothing feeds it, or there is a cycle.
    const incoming = new Map([...ids].map((id) => [id, edges.filter((edge) => edge.to === id).length]));
    const ready = [...ids].filter((id) => incoming.get(id) === 0);
    let removed = 0;
    while (ready.length > 0) {
      const id = ready.pop()!;
      removed += 1;
      for (const edge of edges.filter((e) => e.from === id)) {
        incoming.set(edge.to, incoming.get(edge.to)! - 1);
        if (incoming.get(edge.to) === 0) ready.push(edge.to);
      }
    }
    expect(removed).toBe(ids.size);
    expect(edges.length).toBeGreaterThan(0);
  });

  test('003 §3.3.5: signatures list who signed, the signature and when; one by the service\'s key verifies (verifyTrace, adec trace verify)', async () => {
    expect(selection.trace.signatures).toHaveLength(1);
    expectConforms(TraceSignature, selection.trace.signatures[0]);
    expect(selection.trace.signatures[0]).toMatchObject({ signer: http.traceKeyId, timestamp: expect.any(String) });
    const publicKey = parseKey(http.tracePublicKey, 'trace.pub.jwk');
    if (!publicKey.ok) throw new Error(publicKey.message);
    expect(verifyTrace(selection.trace, publicKey.key, publicKey.keyId)).toMatchObject({ ok: true });
    writeFileSync(join(cli.dir, 'trace.pub.jwk'), http.tracePublicKey);
    writeFileSync(join(cli.dir, 'decision.json'), JSON.stringify(selection.record));
    expect(await cli.run('trace', 'verify', 'decision.json', '--key', 'trace.pub.jwk')).toMatchObject({ code: 0 });
  });

  test.each<[string, (trace: AddressedTrace) => AddressedTrace]>([
    ['the selected action', (trace) => ({ ...trace, final_decision: { ...trace.final_decision!, decision: { ...trace.final_decision!.decision, selected_action: 'rest' } } })],
    ['a rule node\'s verdict', (trace) => ({ ...trace, structure: { ...trace.structure, rule_nodes: trace.structure.rule_nodes.map((node, n) => (n === 0 ? { ...node, fired: !node.fired } : node)) } })],
    ['the signer', (trace) => ({ ...trace, signatures: trace.signatures.map((signature) => ({ ...signature, signer: 'someone-else' })) })],
    ['the redaction info', (trace) => ({ ...trace, redaction_info: { withheld_action_fields: [], withheld_state: [] } })],
  ])('003 §3.3.5: a trace with %s changed no longer verifies (adec trace verify)', async (_, change) => {
    writeFileSync(join(cli.dir, 'changed.json'), JSON.stringify({ ...selection.record, trace: change(selection.trace) }));
    expect((await cli.run('trace', 'verify', 'changed.json', '--key', 'trace.pub.jwk')).code).toBe(1);
  });

  test('003 §3.3.5: redaction info says what was withheld from whom', async () => {
    const model = scriptedModel(() => VALID_NOTE);
    const { trace } = await decided(lab, LAB_REQUEST, { executors: [model.executor] });
    expect(trace.redaction_info).toEqual({ withheld_action_fields: ['priority'], withheld_state: ['mood'] });
    expect(model.calls[0]!.input.decision_context.action_metadata).not.toHaveProperty('priority');
  });

  test('003 §3.3.5: the content address is a checksum of the trace, so any change is detectable', () => {
    const { content_address: address, signatures: _, ...content } = selection.trace;
    expect(address).toBe(contentAddressOf(selection.trace));
    expect(address).toBe(`sha256:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`);
    expect(contentAddressOf({ ...selection.trace, total_duration_ms: content.total_duration_ms + 1 })).not.toBe(address);
  });
});

