/**
 * Conformance to the reference Skill Execution Contract (issue 30): every normative statement of
 * it, restated in our own words, with the part of the reference it comes from ("001 §3" is its
 * numbered section 3; unnumbered parts by their heading: "001 SEC document", "001 Executor",
 * "001 Appendix B"), one test each. adec's own statement is docs/spec/skill-contract.md; where
 * adec knowingly differs (its §11), the test asserts adec's documented behaviour and names the
 * difference.
 *
 * adec is reached three ways: the engine (`runCycle` on the SEC lab, the fitness world and the
 * learning coach), the CLI (`adec skill-contract`, and `adec build` refusing broken contracts)
 * and the service over loopback HTTP (`POST /v1/select`, `GET /v1/schemas/…`).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SKILL_TIME_LIMITS } from '@adec/abi';
import { CONTRACT_SCHEMAS, plainSchema, SkillContractDocument, SkillInputEnvelope, SkillOutputEnvelope, SelectionTrace, UUID_V4_PATTERN } from '@adec/contracts';
import { cloudLlmExecutor, envelopeText, llmStubExecutor, NULL_SKILL, replayCycle, type LlmCall, type LlmExecutor } from '@adec/engine';
import type { LoadedModule } from '@adec/runtime';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../support/chat-completions-server.js';
import { repoPath } from '../support/repo.js';
import { tempWorkspace } from '../../packages/cli/test/run-cli.js';
import {
  CAPPED,
  cliWorkspace,
  COACH_WORLD,
  decided,
  expectConforms,
  FALLBACK_NOTE,
  FITNESS_WORLD,
  LAB_REQUEST,
  labWith,
  loaded,
  NOTE,
  QUIET,
  REST,
  scriptedModel,
  SEC_LAB_ROUTE,
  SEC_LAB_WORLD,
  selectionService,
  VALID_NOTE,
  type CliWorkspace,
  type Decided,
  type SelectionService,
} from './conformance-support.js';

interface ContractDocument {
  sec_version: string;
  skill_id: string;
  skill_version: string;
  skill_type: string;
  description: string | null;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  invariants: { universal: string[]; skill_specific: { id: string; description: string; check: string }[] };
  prohibitions: { universal: true; skill_specific: { id: string; pattern: string; reason: string }[] };
  universal_checks: { invariants: { id: string; description: string; check: string }[]; prohibitions: { id: string; pattern: string; reason: string }[] };
  timeout: { default_ms: number; hard_limit_ms: number };
  fallback: { skill_id: string; skill_version: string } | null;
  audit: { log_input: boolean; log_output: boolean; log_output_hash: boolean; retention_days: number };
  fallback_chain: { tier: number; skill_id: string | null; skill_version: string | null; runs_when: string }[];
  templates: string[];
  audit_fields: { path: string; description: string | null }[];
  [field: string]: unknown;
}

const UNIVERSAL_INVARIANTS = ['INV-001', 'INV-002', 'INV-003', 'INV-004', 'INV-005', 'INV-006'];
const CHECKS = ['schema_valid', 'invariants_satisfied', 'authority_boundary_intact', 'prohibited_fields_absent'];
/**
 * A JSON Schema compiler for the documents' own schemas: strict, but with union types (`["string",
 * "null"]`, how a nullable value is written), and formats left to the contracts' own validator.
 */
const schemas = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: false });

let lab: LoadedModule;
let fitness: LoadedModule;
let cli: CliWorkspace;
let http: SelectionService;
/** Every skill's contract document of the three worlds, as `adec skill-contract --format json` prints them. */
let documents: Map<string, ContractDocument>;
let happy: Decided & { calls: LlmCall[] };

beforeAll(async () => {
  [lab, fitness] = await Promise.all([loaded(SEC_LAB_WORLD), loaded(FITNESS_WORLD)]);
  [cli, http] = await Promise.all([cliWorkspace([]), selectionService()]);
  documents = new Map();
  for (const world of [SEC_LAB_WORLD, FITNESS_WORLD, COACH_WORLD]) {
    const run = await cli.run('skill-contract', repoPath(world), '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    for (const document of JSON.parse(run.stdout) as ContractDocument[]) documents.set(document.skill_id, document);
  }
  const model = scriptedModel(() => VALID_NOTE);
  happy = { ...(await decided(lab, LAB_REQUEST, { executors: [model.executor] })), calls: model.calls };
}, 120_000);
afterAll(async () => {
  await http.close();
});

const documentOf = (skill: string): ContractDocument => documents.get(skill)!;
const failureIds = (run: Decided) => run.trace.stages.validate_output!.output.ValidationResult.failures.map((failure) => failure.id);

describe('001 Overview and skill identity', () => {
  test('001 Overview: an output that breaks the contract is rejected whatever the executor says or does', async () => {
    const claimsValid = await labWith(lab, { ...VALID_NOTE, score: 1 });
    const raw = await decided(lab, LAB_REQUEST, { executors: [llmStubExecutor(() => ({ text: envelopeText({ skillId: 'note_writer', skillVersion: '1.0.0' }, { ...VALID_NOTE, probability: 0.9 }) }))] });
    for (const run of [claimsValid, raw]) {
      expect(run.trace.stages.validate_output!.output.ValidationResult.valid).toBe(false);
      expect(run.response.decision.payload).toEqual(FALLBACK_NOTE);
    }
  });

  test('001 Overview: breaking the contract triggers the fallback, never a failed decision (over HTTP)', async () => {
    http.answer(() => ({ ...VALID_NOTE, set_mood: 'busy' }));
    const answer = await http.post('/v1/select', { ...SEC_LAB_ROUTE, signals: { visits: 4 }, actions: [NOTE, QUIET] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ decision: { selected_action: 'note-a', payload: FALLBACK_NOTE }, execution: { fallback_used: true, fallback_reason_code: 'validation_failed' } });
  });

  test('001 Skill identity: a skill has an id, a version, a type (llm or deterministic) and a description', () => {
    for (const document of documents.values()) {
      expect(document.skill_id).toMatch(/^\w+$/);
      expect(document.skill_version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(['llm', 'deterministic']).toContain(document.skill_type);
      expect(document.description).toEqual(expect.any(String));
    }
  });

  test('001 The SEC: every skill has a contract defining its input, output schema, invariants, prohibitions, timeout and fallback', () => {
    expect([...documents.keys()].sort()).toEqual(['decision_rationale_template', 'fitness_session_rationale', 'lesson_note', 'lesson_pitch', 'note_writer', 'quiet_template', 'review_note']);
    for (const document of documents.values()) {
      expectConforms(SkillContractDocument, document);
      expect(document).toMatchObject({ input_schema: expect.any(Object), output_schema: expect.any(Object), invariants: expect.any(Object), prohibitions: expect.any(Object), timeout: expect.any(Object), audit: expect.any(Object) });
    }
  });
});

describe('001 §1 Input envelope', () => {
  test('001 §1: the envelope is all a skill receives: an executor is given the envelope, the rendered prompt and the output schema, nothing more', () => {
    const [call] = happy.calls;
    expect(Object.keys(call!).sort()).toEqual(['input', 'outputSchema', 'prompt', 'skillId', 'skillVersion', 'timeoutMs']);
    expectConforms(SkillInputEnvelope, call!.input);
  });

  test('001 §1: the envelope requires a decision context, the user state and the skill\'s configuration', () => {
    expect(plainSchema(SkillInputEnvelope).required.sort()).toEqual(['decision_context', 'skill_config', 'user_state']);
    expect(Object.keys(happy.calls[0]!.input).sort()).toEqual(['decision_context', 'skill_config', 'user_state']);
  });

  test('001 §1: the decision context has the decision id (a UUID), the selected action, its metadata, the ranked options (id, score, rank) and the guardrails that applied', () => {
    const context = happy.calls[0]!.input.decision_context;
    expect(context.decision_id).toMatch(new RegExp(UUID_V4_PATTERN));
    expect(context).toMatchObject({ decision_id: happy.response.decision.decision_id, selected_action: 'note-a', action_metadata: { title: 'Morning digest', topic: 'weather' }, guardrails_applied: [] });
    expect(context.ranked_options).toEqual([
      { action_id: 'note-a', score: expect.any(Number), rank: 1 },
      { action_id: 'quiet-1', score: expect.any(Number), rank: 2 },
    ]);
  });

  test('001 §1: the user state is split into core dimensions and the scenario\'s own', () => {
    expect(happy.calls[0]!.input.user_state).toEqual({ core: {}, scenario_extensions: { visits: 4, engaged: true } });
  });

  test('001 §1: the skill configuration names the skill, its version, the execution mode (of two) and its timeout; no token limit or custom parameters (known difference docs/spec/skill-contract.md#11-known-differences 11.1)', () => {
    expect(happy.calls[0]!.input.skill_config).toEqual({ skill_id: 'note_writer', skill_version: '1.0.0', execution_mode: 'skill_enhanced', timeout_ms: 100 });
    const config = (plainSchema(SkillInputEnvelope) as unknown as { properties: { skill_config: { properties: { execution_mode: { enum: string[] } } } } }).properties.skill_config;
    expect(config.properties.execution_mode.enum).toEqual(['deterministic_only', 'skill_enhanced']);
  });

  test('001 §1: the selected action is read-only: an output that tries to set it changes nothing', async () => {
    const run = await labWith(lab, { ...VALID_NOTE, selected_action: 'quiet-1' });
    expect(run.response.decision.selected_action).toBe('note-a');
    expect(failureIds(run)).toContain('INV-001');
  });

  test('001 §1: no raw user data reaches a skill: only the fields it declares, what it was not given recorded', () => {
    expect(happy.calls[0]!.input.decision_context.action_metadata).not.toHaveProperty('priority');
    expect(happy.trace.redaction_info).toEqual({ withheld_action_fields: ['priority'], withheld_state: ['mood'] });
  });

  test('001 §1: a skill has no outside access: a deterministic skill renders in the sandbox and reads nothing but its envelope', async () => {
    const run = await decided(lab, { ...LAB_REQUEST, actions: [QUIET] }, { executors: [] });
    expect(run.response.execution).toMatchObject({ skill_bundle_id: 'quiet_template', executor_id: 'deterministic' });
    expect(run.response.decision.payload).toEqual({ text: 'Quiet hour is ready for you today.' });
    const input = run.trace.stages.execute_skill!.output.SkillOutput;
    expect(input.template).toBe('default');
  });

  test('001 §1: randomness would be seeded from the configuration; adec skills have none, so the same envelope gives the same output (known difference docs/spec/skill-contract.md#11-known-differences 11.1)', async () => {
    const [a, b] = await Promise.all([decided(fitness, { ...CAPPED, actions: [REST] }), decided(fitness, { ...CAPPED, actions: [REST] })]);
    expect(b.response.decision.payload).toEqual(a.response.decision.payload);
    expect(b.trace.stages.execute_skill!.output.payload_hash).toBe(a.trace.stages.execute_skill!.output.payload_hash);
  });
});

describe('001 §2 Output schema', () => {
  test('001 §2: a skill\'s output is the envelope of payload and metadata (skill id, version, generation time; token count and generation time optional), closed', () => {
    const envelope = plainSchema(SkillOutputEnvelope) as unknown as { required: string[]; additionalProperties: boolean; properties: { metadata: { required: string[]; properties: Record<string, unknown>; additionalProperties: boolean } } };
    expect(envelope.required.sort()).toEqual(['metadata', 'payload']);
    expect(envelope.additionalProperties).toBe(false);
    expect(envelope.properties.metadata.required.sort()).toEqual(['generated_at', 'skill_id', 'skill_version']);
    expect(Object.keys(envelope.properties.metadata.properties).sort()).toEqual(['generated_at', 'generation_ms', 'skill_id', 'skill_version', 'token_count']);
    const recorded = happy.trace.stages.execute_skill!.output.SkillOutput;
    expectConforms(SkillOutputEnvelope, { payload: recorded.payload, metadata: recorded.metadata });
    expect(recorded.metadata).toMatchObject({ skill_id: 'note_writer', skill_version: '1.0.0', generated_at: happy.response.meta.timestamp });
  });

  test('001 §2: a reply that is not the output envelope (the payload alone) is rejected by the schema check', async () => {
    const run = await decided(lab, LAB_REQUEST, { executors: [llmStubExecutor(() => ({ text: JSON.stringify(VALID_NOTE) }))] });
    expect(failureIds(run)).toContain('OUTPUT_ENVELOPE');
    expect(run.response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed' });
  });

  test('001 §2: an output that does not conform to its schema is rejected', async () => {
    const run = await labWith(lab, { ...VALID_NOTE, text: 7 });
    expect(run.trace.stages.validate_output!.output.ValidationResult.checks_failed).toContain('schema_valid');
  });

  test('001 §2: no field beyond the schema\'s is allowed (every object of every output schema is closed)', async () => {
    for (const document of documents.values()) {
      const closed: boolean[] = [];
      JSON.stringify(document.output_schema, (_, value: unknown) => {
        if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'object') closed.push((value as { additionalProperties?: unknown }).additionalProperties === false);
        return value;
      });
      expect(closed.length).toBeGreaterThan(0);
      expect(closed.every(Boolean), document.skill_id).toBe(true);
    }
    expect(failureIds(await labWith(lab, { ...VALID_NOTE, mood: 'sunny' }))).toContain('additionalProperties');
  });

  test('001 §2: every string field has a maximum length, and an output over it is rejected', async () => {
    for (const document of documents.values()) {
      JSON.stringify(document.output_schema, (key, value: unknown) => {
        if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'string' && !('enum' in value) && !('const' in value) && !('format' in value)) expect((value as { maxLength?: unknown }).maxLength, `${document.skill_id} ${key}`).toEqual(expect.any(Number));
        return value;
      });
    }
    expect(failureIds(await labWith(lab, { ...VALID_NOTE, title: 'x'.repeat(61) }))).toContain('maxLength');
  });

  test('001 §2: an output missing a required field is rejected', async () => {
    expect(failureIds(await labWith(lab, { title: 'Morning digest' }))).toContain('required');
  });
});

describe('001 §3 Invariants', () => {
  test.each([
    ['INV-001', 'names the action selection', { ...VALID_NOTE, action_id: 'quiet-1' }],
    ['INV-002', 'carries scoring data', { ...VALID_NOTE, ranking: [1, 2] }],
    ['INV-003', 'tries to change state', { ...VALID_NOTE, state: { mood: 'busy' } }],
    ['INV-004', 'suggests bypassing a guardrail', { ...VALID_NOTE, text: 'The weather today lets you skip the guardrails.' }],
    ['INV-005', 'points elsewhere (a URL, "see more")', { ...VALID_NOTE, text: 'The weather today: see more at https://example.com' }],
    ['INV-006', 'exceeds a length limit', { ...VALID_NOTE, text: `The weather today ${'is lovely '.repeat(12)}` }],
  ])('001 §3: %s, a payload that %s is rejected', async (id, _, payload) => {
    const run = await labWith(lab, payload);
    expect(failureIds(run)).toContain(id);
    expect(run.response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed' });
  });

  test('001 §3: the universal invariants hold for every skill: each contract lists all six', () => {
    for (const document of documents.values()) {
      expect(document.invariants.universal).toEqual(UNIVERSAL_INVARIANTS);
      expect(document.universal_checks.invariants.map((invariant) => invariant.id)).toEqual(UNIVERSAL_INVARIANTS);
    }
  });

  test('001 §3: a skill may add invariants of its own, and they are enforced', async () => {
    expect(documentOf('fitness_session_rationale').invariants.skill_specific.map((invariant) => invariant.id)).toEqual(['FIT-001', 'FIT-002', 'FIT-003']);
    const run = await decided(fitness, CAPPED, { executors: [scriptedModel(() => ({ rationale: 'This session is guaranteed to make you fitter.' })).executor] });
    expect(failureIds(run)).toEqual(expect.arrayContaining(['FIT-001', 'FIT-003']));
  });
});

describe('001 §4 Prohibited outputs', () => {
  test.each([
    ['a decision override', 'You should check the weather today.', 'PROHIB-001', []],
    ['medical or legal advice', 'The weather today will cure your cold.', 'PROHIB-002', []],
    ['a competitor reference', 'The weather today is better on Stravix.', 'PROHIB-COMPETITOR', ['Stravix']],
    ['an echo of personal data', 'The weather today, for jane@example.org.', 'PROHIB-005', []],
    ['urgency manipulation', 'Act now: the weather today is great.', 'PROHIB-003', []],
    ['negative framing', 'You failed to check the weather today.', 'PROHIB-004', []],
  ])('001 §4: %s is rejected', async (_, text, id, competitorNames) => {
    const run = await labWith(lab, { ...VALID_NOTE, text }, { competitorNames });
    expect(failureIds(run)).toContain(id);
    expect(run.response.decision.payload).toEqual(FALLBACK_NOTE);
  });

  test('001 §4: prohibitions are regular expressions with an id and a reason, universal ones for every skill and a skill\'s own (its pattern enforced)', async () => {
    for (const document of documents.values()) {
      expect(document.prohibitions.universal).toBe(true);
      expect(document.universal_checks.prohibitions.map((p) => p.id)).toEqual(['PROHIB-001', 'PROHIB-002', 'PROHIB-003', 'PROHIB-004', 'PROHIB-005']);
      for (const prohibition of [...document.universal_checks.prohibitions, ...document.prohibitions.skill_specific]) expect(() => new RegExp(prohibition.pattern.replace(/^\(\?i\)/, ''), 'i')).not.toThrow();
    }
    expect(documentOf('note_writer').prohibitions.skill_specific.at(-1)).toEqual({ id: 'LAB-PROHIB-001', pattern: '(?i)(lottery|jackpot)', reason: 'No gambling' });
    expect(failureIds(await labWith(lab, { ...VALID_NOTE, text: 'The weather today is perfect for a JACKPOT.' }))).toContain('LAB-PROHIB-001');
  });
});

describe('001 §5 Timeout behaviour', () => {
  test('001 §5: defaults and hard limits are 20/50 ms for a deterministic skill and 300/500 ms for a model (adec calls the mode skill_enhanced, known difference docs/spec/skill-contract.md#11-known-differences 11.4)', () => {
    expect(SKILL_TIME_LIMITS).toEqual({ deterministic: { defaultTimeoutMs: 20, hardLimitMs: 50 }, llm: { defaultTimeoutMs: 300, hardLimitMs: 500 } });
    expect(documentOf('fitness_session_rationale').timeout).toEqual({ default_ms: 300, hard_limit_ms: 500 });
    expect(documentOf('decision_rationale_template').timeout).toEqual({ default_ms: 20, hard_limit_ms: 50 });
  });

  test('001 §5: at its timeout the skill is stopped, the timeout recorded, the fallback run with reason timeout, and its output validated', async () => {
    let aborted = false;
    const slow = llmStubExecutor(() => ({ payload: VALID_NOTE, delayMs: 2_000 }));
    const watched: LlmExecutor = { ...slow, complete: (call, signal) => (signal.addEventListener('abort', () => (aborted = true)), slow.complete(call, signal)) };
    const { response, trace } = await decided(lab, LAB_REQUEST, { executors: [watched] });
    expect(aborted).toBe(true);
    expect(trace.stages.execute_skill!.output.SkillOutput).toMatchObject({ status: 'timeout', time_limit_ms: 100 });
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'timeout' });
    expect(trace.stages.fallback!.output.FallbackOutput.validation).toMatchObject({ valid: true });
  });

  test('001 §5: a timeout never fails the decision: a valid response is returned', async () => {
    const slow = llmStubExecutor(() => ({ payload: VALID_NOTE, delayMs: 2_000 }));
    const { response } = await decided(lab, LAB_REQUEST, { executors: [slow] });
    expect(response.decision).toMatchObject({ selected_action: 'note-a', payload: FALLBACK_NOTE });
  });
});

describe('001 §6 Fallback', () => {
  test('001 §6: every skill has a fallback, and it is deterministic: a model skill without a deterministic one does not build (adec build)', async () => {
    for (const document of documents.values()) {
      const tiers = document.fallback_chain.map((link) => link.tier);
      expect(tiers).toEqual(document.skill_type === 'llm' ? [1, 2, 3] : [1, 3]);
      for (const link of document.fallback_chain.filter((l) => l.tier === 2)) expect(documentOf(link.skill_id!).skill_type).toBe('deterministic');
    }
    const world = readFileSync(repoPath(`${SEC_LAB_WORLD}/world.adec`), 'utf8');
    const run = await buildBroken(world.replace('  fallback    quiet_template\n', ''));
    expect(run.code).toBe(1);
    expect(run.stderr + run.stdout).toMatch(/ADEC4023: llm skill `note_writer` needs a deterministic `fallback`/);
  });

  test('001 §6: the tiers are the primary skill, its deterministic fallback, and a hard-coded minimal safe output', async () => {
    const tier3 = await labWith(lab, { ...VALID_NOTE, text: 'You should read this today.' }, { competitorNames: ['ready for you'] });
    const tier2 = await labWith(lab, { ...VALID_NOTE, mood: 'sunny' });
    expect([happy, tier2, tier3].map((run) => run.response.execution.fallback_tier)).toEqual([1, 2, 3]);
    expect(tier3.response.decision.payload).toEqual({});
  });

  test('001 §6: a fallback skill is deterministic: no model, no call out', async () => {
    const model = scriptedModel(() => ({ ...VALID_NOTE, mood: 'sunny' }));
    const run = await decided(lab, LAB_REQUEST, { executors: [model.executor] });
    expect(model.calls).toHaveLength(1);
    expect(run.trace.stages.fallback!.output.FallbackOutput.execution).toMatchObject({ executor_id: 'deterministic' });
  });

  test('001 §6: a fallback is fast: its timeout may be no more than 20 ms (a slower one does not build)', async () => {
    for (const document of documents.values()) for (const link of document.fallback_chain.filter((l) => l.tier === 2)) expect(documentOf(link.skill_id!).timeout.default_ms).toBeLessThanOrEqual(20);
    const world = readFileSync(repoPath(`${SEC_LAB_WORLD}/world.adec`), 'utf8');
    const run = await buildBroken(world.replace('  timeout     20ms', '  timeout     40ms'));
    expect(run.stderr + run.stdout).toMatch(/ADEC4016: .*a fallback must answer within 20ms/);
  });

  test('001 §6: a fallback\'s output passes validation', async () => {
    const run = await labWith(lab, { ...VALID_NOTE, mood: 'sunny' });
    expect(run.trace.stages.fallback!.output.FallbackOutput.validation).toMatchObject({ valid: true, checks_passed: CHECKS });
  });

  test('001 §6: a fallback is meaningful, not empty: it explains the selected action', async () => {
    const run = await labWith(lab, { ...VALID_NOTE, mood: 'sunny' });
    expect(String((run.response.decision.payload as { text?: unknown }).text)).toContain('Morning digest');
  });

  test.each([
    ['timeout', () => ({ executors: [llmStubExecutor(() => ({ payload: VALID_NOTE, delayMs: 2_000 }))] }), {}],
    ['validation_failed', () => ({ executors: [scriptedModel(() => ({ ...VALID_NOTE, mood: 'sunny' })).executor] }), {}],
    ['executor_error', () => ({ executors: [llmStubExecutor(() => ({ error: 'overloaded' }))] }), {}],
    ['prohibited_content', () => ({ executors: [scriptedModel(() => ({ ...VALID_NOTE, text: 'Act now: the weather today is great.' })).executor] }), {}],
    ['mode_override', () => ({ executors: [scriptedModel(() => VALID_NOTE).executor] }), { execution_mode_override: 'deterministic_only' as const }],
  ])('001 §6: the fallback reason code %s is given when its cause occurs', async (code, options, extra) => {
    const run = await decided(lab, { ...LAB_REQUEST, ...extra }, options());
    expect(run.response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: code });
  });
});

describe('001 SEC document structure', () => {
  test('001 SEC document: it has a contract version, the skill\'s id and version, and its input and output schemas (valid JSON Schemas; the output one requires payload and metadata)', () => {
    for (const document of documents.values()) {
      expect(document.sec_version).toBe('1.0.0');
      expect(() => schemas.compile(document.input_schema)).not.toThrow();
      expect(() => schemas.compile(document.output_schema)).not.toThrow();
      expect(document.output_schema).toMatchObject({ type: 'object', required: ['payload', 'metadata'], additionalProperties: false });
    }
  });

  test('001 SEC document: the input schema accepts the envelope the skill was really given, and the output schema the output it really produced', () => {
    const document = documentOf('note_writer');
    expect(schemas.validate(document.input_schema, happy.calls[0]!.input), JSON.stringify(schemas.errors)).toBe(true);
    const { payload, metadata } = happy.trace.stages.execute_skill!.output.SkillOutput;
    expect(schemas.validate(document.output_schema, { payload, metadata }), JSON.stringify(schemas.errors)).toBe(true);
  });

  test('001 SEC document: the skill\'s type is given as skill_type', () => {
    expect(documentOf('note_writer').skill_type).toBe('llm');
  });

  test('001 SEC document: the timeout is given as { default_ms, hard_limit_ms }', () => {
    expect(documentOf('note_writer')['timeout']).toEqual({ default_ms: 100, hard_limit_ms: 500 });
  });

  test('001 SEC document: the fallback is given as { skill_id, skill_version }', () => {
    expect(documentOf('note_writer')['fallback']).toEqual({ skill_id: 'quiet_template', skill_version: '1.0.0' });
  });

  test('001 SEC document: invariants are given as { universal: [ids], skill_specific: [...] }', () => {
    expect(documentOf('note_writer').invariants).toMatchObject({ universal: UNIVERSAL_INVARIANTS, skill_specific: expect.any(Array) });
  });

  test('001 SEC document: prohibitions are given as { universal: true, skill_specific: [...] }', () => {
    expect(documentOf('note_writer').prohibitions).toMatchObject({ universal: true, skill_specific: expect.any(Array) });
  });

  test('001 SEC document: the audit policy is given as { log_input, log_output, log_output_hash, retention_days }', () => {
    expect(documentOf('note_writer')['audit']).toEqual({ log_input: true, log_output: true, log_output_hash: true, retention_days: 90 });
  });

  test('001 SEC document: what the trace records of a run (input, output and its hash) is stated, and every path named is in the trace', () => {
    const paths = documentOf('note_writer').audit_fields.map((field) => field.path);
    expect(paths).toEqual(expect.arrayContaining(['stages.execute_skill.output.SkillOutput.payload', 'stages.execute_skill.output.payload_hash']));
    expectConforms(SelectionTrace, happy.trace);
  });

  test('001 SEC document: the documents\' schema, and the envelopes\', are served by the service as the contracts define them (GET /v1/schemas/…)', async () => {
    for (const name of ['SkillContractDocument', 'SkillInputEnvelope', 'SkillOutputEnvelope']) {
      const served = await http.get(`/v1/schemas/${name}`);
      expect(served.status).toBe(200);
      const { $schema: dialect, title: _, ...schema } = served.body;
      expect(dialect).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema).toEqual(plainSchema(CONTRACT_SCHEMAS[name]!));
    }
  });
});

describe('001 Executor interface', () => {
  let chat: ChatCompletionsServer;
  beforeAll(async () => {
    chat = await startChatCompletionsServer();
  });
  afterAll(async () => {
    await chat.close();
  });

  test('001 Executor: an executor has an id and a type, executes an envelope under a contract and a timeout, and says whether it is available; no latency estimate (known difference docs/spec/skill-contract.md#11-known-differences 11.5)', () => {
    const stub = llmStubExecutor(() => ({ payload: VALID_NOTE }));
    const cloud = cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'lab-model', apiKey: 'k' });
    for (const executor of [stub, cloud]) {
      expect(executor).toMatchObject({ id: expect.any(String), type: expect.stringMatching(/^(llm_stub|cloud_llm)$/), isAvailable: expect.any(Function), complete: expect.any(Function) });
      expect(executor).not.toHaveProperty('getLatencyEstimate');
    }
    expect(happy.calls[0]).toMatchObject({ input: expect.any(Object), outputSchema: expect.any(Object), timeoutMs: 100 });
  });

  test('001 Executor: deterministic and llm_stub executors are implemented, and a cloud LLM over the chat-completions protocol', async () => {
    chat.answer(() => ({ content: envelopeText({ skillId: 'note_writer', skillVersion: '1.0.0' }, VALID_NOTE) }));
    const cloud = await decided(lab, LAB_REQUEST, { executors: [cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'lab-model', apiKey: 'k' })] });
    expect(cloud.response.decision.payload).toEqual(VALID_NOTE);
    expect(cloud.response.execution.executor_id).toBe('cloud_llm');
    expect(happy.response.execution.executor_id).toBe('llm_stub');
    const quiet = await decided(lab, { ...LAB_REQUEST, actions: [QUIET] });
    expect(quiet.response.execution.executor_id).toBe('deterministic');
  });

  test('001 Executor: an unavailable executor is passed over for the next available one', async () => {
    const down: LlmExecutor = { ...llmStubExecutor(() => ({ error: 'never asked' })), id: 'down', isAvailable: () => false };
    const up = scriptedModel(() => VALID_NOTE);
    const run = await decided(lab, LAB_REQUEST, { executors: [down, up.executor] });
    expect(up.calls).toHaveLength(1);
    expect(run.response.execution.executor_id).toBe('llm_stub');
  });

  test('001 Executor: with no executor available the deterministic fallback runs', async () => {
    const run = await decided(lab, LAB_REQUEST, { executors: [] });
    expect(run.response.execution).toMatchObject({ skill_bundle_id: 'quiet_template', executor_id: 'deterministic', fallback_used: true });
  });

  test('001 Model-agnostic: swapping the model changes nothing else: the same skill, contract and checks, and the same audit trail', async () => {
    chat.answer(() => ({ content: envelopeText({ skillId: 'note_writer', skillVersion: '1.0.0' }, { ...VALID_NOTE, score: 1 }) }));
    const viaCloud = await decided(lab, LAB_REQUEST, { executors: [cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'lab-model', apiKey: 'k' })] });
    const viaStub = await labWith(lab, { ...VALID_NOTE, score: 1 });
    expect(failureIds(viaCloud)).toEqual(failureIds(viaStub));
    expect(Object.keys(viaCloud.trace.stages)).toEqual(Object.keys(viaStub.trace.stages));
    expectConforms(SelectionTrace, viaCloud.trace);
  });
});

test('001 Model-agnostic: adec works offline: with the model away (offline_mode), the deterministic fallback answers', async () => {
  const model = scriptedModel(() => VALID_NOTE);
  const run = await decided(lab, { ...LAB_REQUEST, conditions: ['offline_mode'] }, { executors: [model.executor] });
  expect(model.calls).toHaveLength(0);
  expect(run.response).toMatchObject({ decision: { selected_action: 'note-a', payload: FALLBACK_NOTE }, execution: { executor_id: 'deterministic', fallback_used: true } });
  expect(run.trace.stages.resolve_skills!.output.SkillResolution.resolution_reason).toBe('llm_unavailable');
});

describe('001 V1 skill inventory', () => {
  test('001 Inventory: null_skill is built in: a deterministic pass-through with no enrichment', () => {
    expect(NULL_SKILL).toBe('null_skill');
  });

  test('001 Inventory: a template skill generates the rationale from parameterized templates chosen by the user\'s state', () => {
    expect(documentOf('decision_rationale_template')).toMatchObject({ skill_type: 'deterministic', templates: ['new_user', 'recovery_needed', 'high_engagement', 'default'] });
  });

  test('001 Inventory: an LLM rationale skill falls back to the template skill', () => {
    expect(documentOf('fitness_session_rationale').fallback_chain[1]).toMatchObject({ tier: 2, skill_id: 'decision_rationale_template', skill_version: '1.0.0' });
  });
});

describe('001 Testing requirements', () => {
  test.each([
    ['the output schema is bounded', (world: string) => world.replace('    tone:  string(..20)?', '    tone:  string?'), /ADEC4023: .*no maximum length/],
    ['an invariant parses', (world: string) => world.replace('payload.text NOT CONTAINS "forbidden"', 'payload.text NOT CONTAINS'), /error ADEC\d+/],
    ['a prohibition pattern is a valid regular expression', (world: string) => world.replace('(?i)(lottery|jackpot)', '(?i)(lottery|jackpot'), /ADEC3008: invalid regular expression/],
    ['the fallback exists', (world: string) => world.replace('fallback    quiet_template', 'fallback    ghost_template'), /error ADEC\d+: .*ghost_template/],
    ['the fallback is deterministic', (world: string) => world.replace('fallback    quiet_template', 'fallback    note_writer'), /ADEC4016/],
    ['the timeouts are within range', (world: string) => world.replace('timeout     100ms hard_limit 500ms', 'timeout     100ms hard_limit 900ms'), /ADEC4017: .*exceeds the 500ms hard limit/],
  ])('001 Testing: every contract is checked before it can be deployed: %s (adec build refuses it)', async (_, edit, message) => {
    const world = readFileSync(repoPath(`${SEC_LAB_WORLD}/world.adec`), 'utf8');
    const run = await buildBroken(edit(world));
    expect(run.code).toBe(1);
    expect(run.stderr + run.stdout).toMatch(message);
  });

  test('001 Testing: the execution cases hold: happy path, timeout, invalid output, prohibited content and a broken invariant each end as the contract says', async () => {
    const slow = await decided(lab, LAB_REQUEST, { executors: [llmStubExecutor(() => ({ payload: VALID_NOTE, delayMs: 2_000 }))] });
    const invalid = await labWith(lab, { ...VALID_NOTE, mood: 'sunny' });
    const prohibited = await labWith(lab, { ...VALID_NOTE, text: 'Act now: the weather today is great.' });
    const broken = await labWith(lab, { ...VALID_NOTE, text: 'The weather today: 90% sun.' });
    expect([happy, slow, invalid, prohibited, broken].map((run) => run.response.execution.fallback_reason_code)).toEqual([null, 'timeout', 'validation_failed', 'prohibited_content', 'validation_failed']);
  });
});

describe('001 Appendix A and B', () => {
  test('001 Appendix A: the fitness rationale contract (the example): its invariants, prohibitions, timeouts and fallback', () => {
    const document = documentOf('fitness_session_rationale');
    expect(document).toMatchObject({ skill_type: 'llm', timeout: { default_ms: 300, hard_limit_ms: 500 }, fallback: { skill_id: 'decision_rationale_template', skill_version: '1.0.0' } });
    expect(document.prohibitions.skill_specific.map((p) => [p.id, p.pattern])).toEqual([
      ['FIT-PROHIB-001', '(?i)(injury|pain|hurt|damage)'],
      ['FIT-PROHIB-002', '(?i)(weight loss|lose weight|burn fat)'],
    ]);
    expect(document.input_schema).toMatchObject({ properties: { decision_context: { properties: { action_metadata: { properties: { intensity: { enum: ['low', 'moderate', 'high'] } } } } } } });
  });

  test.each([
    ['CONTAINS', 'LAB-CONTAINS', { ...VALID_NOTE, text: 'Sunny skies today.' }],
    ['CONTAINS_ANY', 'LAB-CONTAINS-ANY', { ...VALID_NOTE, text: 'The weather is bright.' }],
    ['NOT CONTAINS', 'LAB-NOT-CONTAINS', { ...VALID_NOTE, text: 'The weather today is not forbidden.' }],
    ['MATCHES', 'LAB-MATCHES', { ...VALID_NOTE, text: 'the weather is bright today.' }],
    ['NOT MATCHES', 'LAB-NOT-MATCHES', { ...VALID_NOTE, text: 'The weather today: 90% sun.' }],
    ['IS NULL', 'LAB-IS-NULL-EQUALS', { ...VALID_NOTE, tone: 'cold' }],
    ['IS NOT NULL', 'LAB-IS-NOT-NULL', { text: VALID_NOTE.text }],
    ['EQUALS', 'LAB-IS-NULL-EQUALS', { ...VALID_NOTE, tone: 'chilly' }],
    ['LENGTH <', 'LAB-LENGTH', { ...VALID_NOTE, text: `The weather today ${'x'.repeat(90)}.` }],
  ])('001 Appendix B: the operator %s is evaluated, and an output breaking it is rejected', async (_, id, payload) => {
    expect(failureIds(await labWith(lab, payload))).toEqual([id]);
  });

  test('001 Appendix B: invariant checks have no side effects: checking an output changes neither it nor the next check of it', async () => {
    const run = await labWith(lab, VALID_NOTE);
    expect(run.response.decision.payload).toEqual(VALID_NOTE);
    expect(await replayCycle(lab, run.trace)).toMatchObject({ ok: true, identical: true });
  });
});

/** `adec build` of a copy of the SEC lab with `world` as its source. */
function buildBroken(world: string) {
  const dir = tempWorkspace({ 'world/world.adec': world });
  return cli.run('build', `${dir}/world`, '--out', `${dir}/out`);
}

