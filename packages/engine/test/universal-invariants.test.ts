/**
 * INV-006 at run time agrees with the compiler: every output string has a maximum length, from
 * `maxLength` or, for an enum, its longest member (the compiler accepts an enum output field
 * without `maxLength`, so the validator must too).
 */
import { describe, expect, it } from 'vitest';
import { objectSchema } from '../../compiler/src/manifest/json-schema.js';
import { universalInvariantFailures } from '../src/skills/universal-invariants.js';

const SCHEMA = objectSchema([
  { name: 'text', type: { kind: 'string', length: { max: 20 } } },
  { name: 'tone', type: { kind: 'optional', inner: { kind: 'enum', members: ['calm', 'supportive'] } } },
  { name: 'display', type: { kind: 'record', fields: [{ name: 'mood', type: { kind: 'enum', members: ['up', 'down'] } }] } },
  { name: 'loose', type: { kind: 'optional', inner: { kind: 'string' } } },
]);

const inv006 = (payload: unknown) => universalInvariantFailures(payload, SCHEMA).filter((f) => f.id === 'INV-006').map((f) => [f.path, f.message]);

describe('INV-006 on enum fields', () => {
  it('accepts enum members, at the top and nested, optional or not', () => {
    expect(inv006({ text: 'Fine', tone: 'supportive', display: { mood: 'down' } })).toEqual([]);
  });

  it('still refuses strings without a bound and strings over it', () => {
    expect(inv006({ text: 'x'.repeat(21), loose: 'anything', display: { mood: 'up' } })).toEqual([
      ['payload.text', 'the text is 21 characters, over its limit of 20'],
      ['payload.loose', 'the contract declares no maximum length for this string'],
    ]);
  });
});
