/**
 * The compiler writes the schemas the runtime reads: the schema of any world type, and any
 * action's context schema made of such types, passes @adec/abi's validator (which refuses a
 * keyword the runtime would not enforce).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { checkValueSchema, validate } from '@adec/abi';
import { objectSchema, typeSchema } from '../../compiler/src/manifest/json-schema.js';
import type { Type } from '../../compiler/src/model/index.js';

const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const bound = fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined });
const range = fc.record({ min: bound, max: bound }, { requiredKeys: [] });

const { type: worldType } = fc.letrec<{ type: Type }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Type>({ kind: 'bool' }, { kind: 'timestamp' }, { kind: 'duration' }, { kind: 'null' }),
    range.map((r): Type => ({ kind: 'int', range: r })),
    range.map((r): Type => ({ kind: 'float', range: r })),
    range.map((r): Type => ({ kind: 'string', length: r })),
    fc.uniqueArray(name, { minLength: 1, maxLength: 4 }).map((members): Type => ({ kind: 'enum', members })),
    tie('type').map((element): Type => ({ kind: 'list', element })),
    tie('type').map((inner): Type => ({ kind: 'optional', inner })),
    fc.uniqueArray(fc.record({ name, type: tie('type') }), { selector: (f) => f.name, maxLength: 4 }).map((fields): Type => ({ kind: 'record', fields })),
  ),
}));

it('the schema of any world type is a value schema the runtime reads', () => {
  fc.assert(
    fc.property(worldType, (type) => {
      expect(validate(checkValueSchema, JSON.parse(JSON.stringify(typeSchema(type))))).toMatchObject({ ok: true });
    }),
    { numRuns: 300 },
  );
});

it('a record of them is too, with its required fields', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.record({ name, type: worldType }), { selector: (f) => f.name, maxLength: 6 }), (fields) => {
      expect(validate(checkValueSchema, objectSchema(fields))).toMatchObject({ ok: true });
    }),
    { numRuns: 200 },
  );
});
