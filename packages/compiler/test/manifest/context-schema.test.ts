import { describe, expect, it } from 'vitest';
import { contextSchema, typeSchema } from '../../src/manifest/index.js';
import { DURATION, TIMESTAMP } from '../../src/model/index.js';
import { ADD_DEPENDENT, optional } from '../generate/fixtures.js';

describe('contextSchema', () => {
  it('describes the supplied attributes of add_dependent', () => {
    expect(contextSchema(ADD_DEPENDENT)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'add_dependent context',
      type: 'object',
      properties: {
        relationship: { type: 'string', enum: ['child', 'spouse', 'domestic_partner'] },
        dependent_age: { type: 'integer', minimum: 0, maximum: 130 },
        full_time_student: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
        documents: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['relationship', 'dependent_age'],
      additionalProperties: false,
    });
  });

  it('maps every wire type', () => {
    expect(typeSchema(TIMESTAMP)).toEqual({ type: 'string', format: 'date-time' });
    expect(typeSchema(DURATION)).toEqual({ type: ['string', 'integer'], pattern: '^[0-9]+(ms|s|m|h|d)$', minimum: 0 });
    expect(typeSchema({ kind: 'float', range: { min: 0, max: 1 } })).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(typeSchema({ kind: 'string', length: { min: 20, max: 200 } })).toEqual({ type: 'string', minLength: 20, maxLength: 200 });
    expect(
      typeSchema({
        kind: 'record',
        fields: [
          { name: 'a', type: { kind: 'int' } },
          { name: 'b', type: optional({ kind: 'bool' }) },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('leaves system and computed attributes out (the request may not set them)', () => {
    const schema = contextSchema(ADD_DEPENDENT);
    expect(Object.keys(schema.properties ?? {})).not.toContain('request_time');
    expect(Object.keys(schema.properties ?? {})).not.toContain('over_age');
  });
});
