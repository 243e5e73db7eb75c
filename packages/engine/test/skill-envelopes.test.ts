/**
 * The two envelopes of a skill run (docs/spec/skill-contract.md §1–§2) on the SEC lab world: the
 * input a model is given is the contract's `{ decision_context, user_state { core,
 * scenario_extensions }, skill_config }`, and a reply counts only as the output envelope
 * `{ payload, metadata }` whose metadata names the skill and version asked for. Every malformed
 * reply, however good its payload, fails stage 7 with the envelope's path named, and the
 * deterministic fallback answers; the decision replays identically.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { contractProblems, SkillInputEnvelope } from '@adec/contracts';
import { llmStubExecutor, replayCycle, runCycle, type CycleRequest, type LlmCall } from '@adec/engine';
import { loadWorld } from './selection-fixtures.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

const TIMESTAMP = '2026-11-28T08:00:00.000Z';
const REQUEST: CycleRequest = {
  scenario: 'lab_pick',
  signals: { visits: 4 },
  actions: [
    { action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 },
    { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' },
  ],
};
const VALID = { text: 'The weather is bright today.', title: 'Morning digest' };
const FALLBACK_PAYLOAD = { text: 'Morning digest is ready for you today.' };
const METADATA = { skill_id: 'note_writer', skill_version: '1.0.0', generated_at: '2026-11-28T08:00:00.010Z' };

let lab: LoadedModule;
let sequence = 0;
beforeAll(async () => {
  lab = await loadWorld('packages/engine/test/worlds/sec-lab');
});

/** One lab decision whose model answers `text`, and its replay (which must be identical). */
async function answering(text: string) {
  const calls: LlmCall[] = [];
  const executor = llmStubExecutor((call) => {
    calls.push(call);
    return { text };
  });
  const result = await runCycle(lab, REQUEST, { decisionId: testDecisionId(`envelope-${++sequence}`), timestamp: TIMESTAMP, executors: [executor] });
  if (!result.ok || result.response === null) throw new Error(result.ok ? `no response: ${result.outcome}` : result.error.message);
  expect(await replayCycle(lab, result.trace)).toMatchObject({ ok: true, identical: true });
  return { response: result.response, trace: result.trace, calls };
}

const reply = (value: unknown) => JSON.stringify(value);
const withMetadata = (change: Record<string, unknown>) => reply({ payload: VALID, metadata: { ...METADATA, ...change } });
const withoutMetadataField = (field: string) => reply({ payload: VALID, metadata: Object.fromEntries(Object.entries(METADATA).filter(([name]) => name !== field)) });

/** Values no metadata field may take, by the fields they are wrong for. */
const BAD_METADATA_VALUES: readonly (readonly [string, unknown])[] = [
  ['skill_id', 7],
  ['skill_id', null],
  ['skill_version', 1],
  ['skill_version', ['1.0.0']],
  ['generated_at', 'yesterday'],
  ['generated_at', '2026-02-30T08:00:00Z'],
  ['generated_at', '2026-11-28 08:00:00'],
  ['generated_at', 1764316800000],
  ['token_count', -1],
  ['token_count', 1.5],
  ['token_count', '12'],
  ['generation_ms', -3],
  ['generation_ms', true],
];

/** Every class of malformed reply: [what, the reply's text, the path the failure names]. */
const MALFORMED: readonly (readonly [string, string, string])[] = [
  ['the payload alone, without the envelope', reply(VALID), 'reply'],
  ['not JSON', 'The weather is bright today.', 'reply'],
  ['JSON null', 'null', 'reply'],
  ['a list', reply([{ payload: VALID, metadata: METADATA }]), 'reply'],
  ['a string', reply('{"payload":{}}'), 'reply'],
  ['a number', '42', 'reply'],
  ['`Payload` for `payload`', reply({ Payload: VALID, metadata: METADATA }), 'reply'],
  ['no metadata', reply({ payload: VALID }), 'reply.metadata'],
  ['a field beside payload and metadata', reply({ payload: VALID, metadata: METADATA, confidence: 0.9 }), 'reply.confidence'],
  ['a `__proto__` field beside them', `{"payload":${reply(VALID)},"metadata":${reply(METADATA)},"__proto__":{"x":1}}`, 'reply.__proto__'],
  ['metadata null', reply({ payload: VALID, metadata: null }), 'reply.metadata'],
  ['metadata a list', reply({ payload: VALID, metadata: [METADATA] }), 'reply.metadata'],
  ['metadata a string', reply({ payload: VALID, metadata: 'note_writer@1.0.0' }), 'reply.metadata'],
  ...Object.keys(METADATA).map((field) => [`metadata without \`${field}\``, withoutMetadataField(field), `reply.metadata.${field}`] as const),
  ['a field metadata does not declare', withMetadata({ model: 'gpt' }), 'reply.metadata.model'],
  ...BAD_METADATA_VALUES.map(([field, value]) => [`metadata.${field} = ${JSON.stringify(value)}`, withMetadata({ [field]: value }), `reply.metadata.${field}`] as const),
  ['another skill named', withMetadata({ skill_id: 'quiet_template' }), 'reply.metadata.skill_id'],
  ['the skill named in another case', withMetadata({ skill_id: 'Note_Writer' }), 'reply.metadata.skill_id'],
  ['another version named', withMetadata({ skill_version: '1.0.1' }), 'reply.metadata.skill_version'],
  ['the version with a prefix', withMetadata({ skill_version: 'v1.0.0' }), 'reply.metadata.skill_version'],
];

describe('the input envelope a skill is given', () => {
  test('is the contract’s: the declared action fields in the decision context, the declared state under scenario_extensions, core empty', async () => {
    const { calls } = await answering(reply({ payload: VALID, metadata: METADATA }));
    const [call] = calls;
    expect(contractProblems(SkillInputEnvelope, call!.input)).toEqual([]);
    expect(call!.input).toMatchObject({
      decision_context: { selected_action: 'note-a', action_metadata: { title: 'Morning digest', topic: 'weather' } },
      user_state: { core: {}, scenario_extensions: { visits: 4, engaged: true } },
      skill_config: { skill_id: 'note_writer', skill_version: '1.0.0', execution_mode: 'skill_enhanced' },
    });
    // What the skill does not declare is not there, at any level.
    expect(Object.keys(call!.input)).toEqual(['decision_context', 'user_state', 'skill_config']);
    expect(JSON.stringify(call!.input)).not.toContain('priority');
  });
});

describe('the output envelope a reply must be', () => {
  test.each([
    ['the envelope with the required metadata', reply({ payload: VALID, metadata: METADATA })],
    ['with token_count and generation_ms', withMetadata({ token_count: 12, generation_ms: 140 })],
    ['with metadata first and a zone offset', reply({ metadata: { ...METADATA, generated_at: '2026-11-28T09:00:00+01:00' }, payload: VALID })],
  ])('%s is used as it is (tier 1)', async (_, text) => {
    const { response, trace } = await answering(text);
    expect(trace.stages.validate_output?.output.ValidationResult.failures).toEqual([]);
    expect(response.decision.payload).toEqual(VALID);
    expect(response.execution).toMatchObject({ fallback_used: false, fallback_tier: 1, validation_status: 'passed' });
    // The recorded metadata is the engine's: the decision's time, the same in a replay.
    expect(trace.stages.execute_skill?.output.SkillOutput.metadata).toEqual({ skill_id: 'note_writer', skill_version: '1.0.0', generated_at: TIMESTAMP });
  });

  test.each(MALFORMED)('%s fails schema_valid at its path, and the fallback answers', async (_, text, path) => {
    const { response, trace } = await answering(text);
    const failures = trace.stages.validate_output!.output.ValidationResult.failures;
    expect(failures.filter((failure) => failure.id === 'OUTPUT_ENVELOPE')).toContainEqual(expect.objectContaining({ check: 'schema_valid', path }));
    expect(response.decision).toMatchObject({ selected_action: 'note-a', payload: FALLBACK_PAYLOAD });
    expect(response.execution).toMatchObject({ fallback_used: true, fallback_reason_code: 'validation_failed', fallback_tier: 2 });
  });

  test('a failure names what is wrong: the skill asked for against the one named', async () => {
    const { trace } = await answering(withMetadata({ skill_id: 'quiet_template' }));
    expect(trace.stages.validate_output!.output.ValidationResult.failures).toContainEqual({
      check: 'schema_valid',
      id: 'OUTPUT_ENVELOPE',
      path: 'reply.metadata.skill_id',
      message: 'is "quiet_template", but "note_writer" was asked for',
    });
  });
});
