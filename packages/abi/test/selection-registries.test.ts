/**
 * The scenarios and skills a module describes to the selection engine are module output:
 * checked against their shapes, every problem named by its JSON path, never a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkScenarioDescriptions, checkSkillDescriptions, validate } from '@adec/abi';

const skill = () => ({
  version: '1.0.0',
  type: 'llm',
  description: null,
  has_prompt: true,
  timeout_ms: 100,
  hard_limit_ms: 500,
  fallback: 'template_note',
  action_metadata_fields: ['action_type'],
  user_state_fields: [],
  output_schema: { type: 'object', properties: { text: { type: 'string', maxLength: 280 } }, required: ['text'], additionalProperties: false },
  prohibitions: [{ id: 'no_diagnosis', pattern: '(?i)diagnos', source: 'diagnos', flags: 'iu', reason: 'no medical advice' }],
  invariants: [{ id: 'short', description: 'stays short', source: 'len(payload.text) < 280' }],
  templates: ['calm'],
});

describe('skill descriptions', () => {
  it('are read as the skill contracts they describe', () => {
    expect(validate(checkSkillDescriptions, { note_writer: skill() })).toEqual({ ok: true, value: { note_writer: skill() } });
  });

  it('are refused with the path of each problem', () => {
    const broken = { note_writer: { ...skill(), type: 'oracle', output_schema: { type: 'object', patternProperties: {} } } };
    const result = validate(checkSkillDescriptions, broken);
    expect(result.ok ? [] : result.problems.map((p) => [p.code, p.path])).toEqual([
      ['VALUE_NOT_ALLOWED', 'note_writer.type'],
      ['VALUE_NOT_ALLOWED', 'note_writer.output_schema.patternProperties'],
    ]);
  });
});

describe('scenario descriptions', () => {
  it('name the path of a signal schema of the wrong kind and of an unknown execution mode', () => {
    const broken = { daily: { version: '1.0.0', default_mode: 'autopilot', signals: [{ name: 'mood', schema: 'string' }], action_types: [] } };
    const result = validate(checkScenarioDescriptions, broken);
    expect(result.ok ? [] : result.problems.map((p) => [p.code, p.path])).toEqual([
      ['VALUE_NOT_ALLOWED', 'daily.default_mode'],
      ['WRONG_TYPE', 'daily.signals[0].schema'],
    ]);
  });

  it('of any shape are answered with a value, never a throw', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const results = [validate(checkScenarioDescriptions, value), validate(checkSkillDescriptions, value)];
        for (const result of results) if (!result.ok) expect(result.problems.every((p) => p.message.includes('`') || p.path === '')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
