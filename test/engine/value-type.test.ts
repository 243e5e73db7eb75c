/** Reading a signal's type back from the text `_SCENARIOS` carries (value-type.ts). */
import { describe, expect, test } from 'vitest';
import { parseValueType } from '../../packages/engine/src/value-type.js';

describe('parseValueType', () => {
  test.each([
    ['bool', { kind: 'bool' }],
    ['int', { kind: 'int' }],
    ['int(-10..10)', { kind: 'int', range: { min: -10, max: 10 } }],
    ['float(0..1)', { kind: 'float', range: { min: 0, max: 1 } }],
    ['float(0.5..)', { kind: 'float', range: { min: 0.5 } }],
    ['string(..100)', { kind: 'string', length: { max: 100 } }],
    ['timestamp', { kind: 'timestamp' }],
    ['duration?', { kind: 'optional', inner: { kind: 'duration' } }],
    ['"low" | "a \\"quoted\\" | b"', { kind: 'enum', members: ['low', 'a "quoted" | b'] }],
    ['"a" | "b"?', { kind: 'optional', inner: { kind: 'enum', members: ['a', 'b'] } }],
    ['list<int?>', { kind: 'list', element: { kind: 'optional', inner: { kind: 'int' } } }],
    [
      '{ level: int(0..5), tags: list<string>, inner: { x: bool }? }',
      {
        kind: 'record',
        fields: [
          { name: 'level', type: { kind: 'int', range: { min: 0, max: 5 } } },
          { name: 'tags', type: { kind: 'list', element: { kind: 'string' } } },
          { name: 'inner', type: { kind: 'optional', inner: { kind: 'record', fields: [{ name: 'x', type: { kind: 'bool' } }] } } },
        ],
      },
    ],
    ['{  }', { kind: 'record', fields: [] }],
  ])('%s', (text, type) => {
    expect(parseValueType(text)).toEqual(type);
  });

  test.each(['integer', 'list<int', 'int(a..b)', 'bool(0..1)', '"a" | b', '{ a int }', 'int int', '<error>'])('`%s` is not read', (text) => {
    expect(parseValueType(text)).toBeUndefined();
  });
});
