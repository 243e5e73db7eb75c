/**
 * The contracts as schemas: each compiles under ajv's strict mode, states exactly its fields
 * (every object with fixed fields is closed, every field is required or said to be optional),
 * and `contractProblems` names what a value gets wrong by its JSON path.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { CONTRACT_SCHEMAS, contractProblems, ReplayToken, UUID_V4_PATTERN } from '../src/index.js';

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
    ['a field added', { ...token, extra: 1 }, '/: has a field the contract does not declare: `extra`'],
    ['a decision id that is no UUID v4', { ...token, decision_id: 'd-1' }, `/decision_id: must match pattern "${UUID_V4_PATTERN}"`],
    ['a UUID of another version', { ...token, decision_id: '3f2b8c1e-5a7d-1e90-b1c2-9d8e7f6a5b4c' }, `/decision_id: must match pattern "${UUID_V4_PATTERN}"`],
    ['a timestamp that is no date', { ...token, created_at: '2026-02-30T09:00:00Z' }, '/created_at: must match format "date-time"'],
    ['a hash of the wrong form', { ...token, inputs_hash: 'abc' }, '/inputs_hash: must match pattern'],
  ])('%s is named by its path', (_, value, problem) => {
    expect(contractProblems(ReplayToken, JSON.parse(JSON.stringify(value)) as unknown).join('\n')).toContain(problem);
  });
});
