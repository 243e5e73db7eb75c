/**
 * The contracts as schemas: each compiles under ajv's strict mode, states exactly its fields
 * (every object with fixed fields is closed, every field is required or said to be optional),
 * and `contractProblems` and `contractViolations` name what a value gets wrong by its JSON path.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMAS, contractProblems, contractViolations, ExecutionOutcomePackage, ReplayToken, UUID_V4_PATTERN } from '../src/index.js';

/** Every object schema with `properties` inside `schema`, with its JSON pointer. */
function objectSchemas(schema: unknown, at = '#'): { at: string; schema: Record<string, unknown> }[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const here = node['type'] === 'object' && node['properties'] !== undefined ? [{ at, schema: node }] : [];
  return [...here, ...Object.entries(node).flatMap(([key, child]) => objectSchemas(child, `${at}/${key}`))];
}

describe.each(Object.entries(CONTRACT_SCHEMAS))('%s', (name, schema) => {
  test('compiles in strict mode', () => {
    expect(() => new Ajv2020({ strict: true, validateFormats: false }).compile(JSON.parse(JSON.stringify(schema)) as object)).not.toThrow();
  });

  test('every object with fixed fields is closed, and says which of them may be absent', () => {
    const objects = objectSchemas(JSON.parse(JSON.stringify(schema)));
    expect(objects.length).toBeGreaterThan(0);
    for (const { at, schema: object } of objects) {
      const open = object['additionalProperties'] !== false;
      // Only the candidate action is open: its fields are the action type's, which the contract cannot list.
      if (open) expect(`${name} ${at}`).toMatch(/available_actions\/items$/);
      const fields = Object.keys(object['properties'] as object);
      const required = (object['required'] as string[] | undefined) ?? [];
      for (const field of required) expect(fields, `${name} ${at}`).toContain(field);
    }
  });
});

describe('contractProblems', () => {
  const token = { decision_id: '3f2b8c1e-5a7d-4e90-b1c2-9d8e7f6a5b4c', scenario_hash: 'sha256:x', inputs_hash: `sha256:${'a'.repeat(64)}`, created_at: '2026-03-01T09:00:00.000Z' };

  test('a conforming value has none', () => {
    expect(contractProblems(ReplayToken, token)).toEqual([]);
  });

  test.each([
    ['a field missing', { ...token, created_at: undefined }, "/: must have required property 'created_at'"],
    ['a field added', { ...token, extra: 1 }, '/: must NOT have additional properties (extra)'],
    ['a decision id that is no UUID v4', { ...token, decision_id: 'd-1' }, `/decision_id: must match pattern "${UUID_V4_PATTERN}"`],
    ['a UUID of another version', { ...token, decision_id: '3f2b8c1e-5a7d-1e90-b1c2-9d8e7f6a5b4c' }, `/decision_id: must match pattern "${UUID_V4_PATTERN}"`],
    ['a timestamp that is no date', { ...token, created_at: '2026-02-30T09:00:00Z' }, '/created_at: must match format "date-time"'],
    ['a hash of the wrong form', { ...token, inputs_hash: 'abc' }, '/inputs_hash: must match pattern'],
  ])('%s is named by its path', (_, value, problem) => {
    expect(contractProblems(ReplayToken, JSON.parse(JSON.stringify(value)) as unknown).join('\n')).toContain(problem);
  });
});

describe('contractViolations', () => {
  const outcome = { outcome_id: 'o-1', decision_id: 'd-1', status: 'success' };

  test('a conforming value has none', () => {
    expect(contractViolations(ExecutionOutcomePackage, outcome)).toEqual([]);
  });

  test.each([
    ['a missing field, at the field', { status: 'success', decision_id: 'd-1' }, [{ path: '$.outcome_id', message: 'is required' }]],
    ['an unknown nested field, listing the fields', { ...outcome, reengagement_advice: { trigger: 't', payload_ref: 'p', when: 1 } }, [{ path: '$.reengagement_advice.when', message: 'is not a field of this object (trigger, payload_ref)' }]],
    ['a name a map does not take, quoted', { ...outcome, telemetry: { latency_ms: 1, cost: 0, api_quota_used: 0, resource_usage: { 'cpu ms': 1 } } }, [{ path: '$.telemetry.resource_usage["cpu ms"]', message: 'is not a name this map takes (^[A-Za-z0-9_.:-]{1,64}$)' }]],
    ['a number for a status: its type only, not its values too', { ...outcome, status: 3 }, [{ path: '$.status', message: 'expected a string, found a number' }]],
    ['a value outside the enum', { ...outcome, schema_version: '2.0.0' }, [{ path: '$.schema_version', message: 'expected one of 1.0.0, found "2.0.0"' }]],
    ['an id with a space, in words', { ...outcome, outcome_id: 'o 1' }, [{ path: '$.outcome_id', message: 'must be 1–128 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit' }]],
    ['a day that does not exist', { ...outcome, start_time: '2026-02-30T09:00:00Z' }, [{ path: '$.start_time', message: 'expected an RFC 3339 date-time (2026-03-01T09:00:00Z), found "2026-02-30T09:00:00Z"' }]],
    ['an item of a list, by its index', { ...outcome, observed_effects: [{ signal: 's', value: 1 }, { signal: '', value: 1 }] }, [{ path: '$.observed_effects[1].signal', message: 'must not be empty' }]],
    ['too long a text', { ...outcome, action_name: 'a'.repeat(201) }, [{ path: '$.action_name', message: 'is 201 characters long; at most 200' }]],
    ['too many items', { ...outcome, next_actions_suggested: Array.from({ length: 51 }, () => 'rest') }, [{ path: '$.next_actions_suggested', message: 'holds 51 items; at most 50' }]],
  ])('%s', (_, value, violations) => {
    expect(contractViolations(ExecutionOutcomePackage, value)).toEqual(violations);
  });

  test('paths start at the root given, and a body with thousands of faults gets its first 100', () => {
    expect(contractViolations(ExecutionOutcomePackage.properties.status, 'done', '$.status')).toEqual([{ path: '$.status', message: 'expected one of success, failure, partial, aborted, found "done"' }]);
    const effects = Array.from({ length: 1000 }, () => ({ signal: '', value: 1 }));
    expect(contractViolations(ExecutionOutcomePackage, { ...outcome, observed_effects: effects })).toHaveLength(100);
  });
});
