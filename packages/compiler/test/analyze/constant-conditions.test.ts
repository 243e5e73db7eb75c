import { describe, expect, it } from 'vitest';
import { constantSubConditions, constantValue } from '../../src/analyze/constant-conditions.js';
import { buildModel, definitionKey } from '../../src/analyze/finite-model.js';
import { BOOL, DURATION, FLOAT, INT, STRING, TIMESTAMP, type CheckedExpr } from '../../src/model/index.js';
import {
  and,
  arith,
  call,
  cmp,
  coalesce,
  contains,
  enumType,
  field,
  floatRange,
  ifThen,
  inList,
  intRange,
  isNull,
  length,
  list,
  listOf,
  lit,
  matches,
  not,
  optional,
  or,
  ref,
} from './builders.js';

const RELATIONSHIP = enumType('child', 'spouse', 'domestic_partner');

describe('always true / always false', () => {
  it.each<[string, () => CheckedExpr, boolean]>([
    ['contradictory int range', () => and(cmp('>', ref('x', INT), lit(5)), cmp('<', ref('x', INT), lit(3))), false],
    ['empty int range between neighbours', () => and(cmp('>', ref('x', INT), lit(5)), cmp('<', ref('x', INT), lit(6))), false],
    ['covering int ranges', () => or(cmp('>=', ref('x', INT), lit(26)), cmp('<', ref('x', INT), lit(26))), true],
    ['equality and inequality', () => and(cmp('==', ref('x', INT), lit(4)), cmp('!=', ref('x', INT), lit(4))), false],
    ['tautology x or not x', () => or(ref('b', BOOL), not(ref('b', BOOL))), true],
    ['contradiction b and not b', () => and(ref('b', BOOL), not(ref('b', BOOL))), false],
    ['enum exclusivity', () => and(cmp('==', ref('r', RELATIONSHIP), lit('child')), cmp('==', ref('r', RELATIONSHIP), lit('spouse'))), false],
    [
      'enum exhaustiveness',
      () => or(inList(ref('r', RELATIONSHIP), list(lit('child'), lit('spouse'))), cmp('==', ref('r', RELATIONSHIP), lit('domestic_partner'))),
      true,
    ],
    ['`relationship == "child" or true`', () => or(cmp('==', ref('r', RELATIONSHIP), lit('child')), lit(true)), true],
    ['declared range makes a bound unreachable', () => cmp('>', ref('p', floatRange(0, 1)), lit(1.5)), false],
    ['declared range makes a bound always hold', () => cmp('>=', ref('age', intRange(0, 150)), lit(0)), true],
    ['float gap', () => and(cmp('>', ref('f', FLOAT), lit(0.5)), cmp('<', ref('f', FLOAT), lit(0.5))), false],
    ['string literals', () => and(cmp('==', ref('s', STRING), lit('a')), cmp('==', ref('s', STRING), lit('b'))), false],
    ['coalesced optional bool', () => or(coalesce(ref('o', optional(BOOL)), lit(false)), not(coalesce(ref('o', optional(BOOL)), lit(false)))), true],
    ['ordering of two attributes', () => and(cmp('<', ref('a', INT), ref('b', INT)), cmp('<', ref('b', INT), ref('a', INT))), false],
    ['clamp stays within its bounds', () => cmp('>', call('clamp', FLOAT, ref('x', FLOAT), lit(0), lit(1)), lit(1)), false],
    ['constant arithmetic', () => cmp('>', arith('*', lit(2), lit(60)), lit(100)), true],
    ['opaque atom repeated', () => or(contains(ref('t', STRING), lit('x')), not(contains(ref('t', STRING), lit('x')))), true],
    ['timestamps', () => and(cmp('>', ref('t', TIMESTAMP), ref('d', TIMESTAMP)), cmp('<=', ref('t', TIMESTAMP), ref('d', TIMESTAMP))), false],
  ])('%s', (_name, build, expected) => {
    expect(constantValue(build())).toBe(expected);
  });

  it.each<[string, () => CheckedExpr]>([
    ['a plain comparison', () => cmp('>', ref('x', INT), lit(5))],
    ['a satisfiable range', () => and(cmp('>', ref('x', INT), lit(5)), cmp('<', ref('x', INT), lit(7)))],
    ['a satisfiable float range', () => and(cmp('>', ref('f', FLOAT), lit(5)), cmp('<', ref('f', FLOAT), lit(5.0001)))],
    ['mixed int and float ordering', () => and(and(cmp('>', ref('i', INT), ref('f', FLOAT)), cmp('>', ref('f', FLOAT), lit(0.5))), cmp('<', ref('i', INT), lit(2)))],
    ['three attributes in order', () => and(cmp('<', ref('a', INT), ref('b', INT)), cmp('<', ref('b', INT), ref('c', INT)))],
    ['different opaque atoms', () => and(contains(ref('t', STRING), lit('x')), not(contains(ref('t', STRING), lit('y'))))],
    ['opaque regex and its negation on different patterns', () => and(matches(ref('t', STRING), 'a'), not(matches(ref('t', STRING), 'b')))],
    ['arithmetic over two attributes stays opaque', () => cmp('==', arith('+', ref('x', INT), ref('y', INT)), lit(7))],
    ['division stays opaque', () => cmp('==', arith('/', ref('x', INT), lit(2)), lit(3))],
    ['length of a string', () => length('>', ref('t', STRING), lit(20))],
    ['optional compared null-safely', () => cmp('==', ref('o', optional(BOOL)), lit(true))],
    ['narrowed optional', () => and(isNull(ref('o', optional(INT)), true), cmp('>', ref('o', optional(INT)), lit(5)))],
    ['a list attribute', () => contains(ref('docs', listOf(STRING)), lit('w2'))],
    ['an if-expression', () => cmp('>', ifThen(ref('b', BOOL), ref('x', INT), lit(0)), lit(3))],
    ['durations', () => cmp('>', ref('d', DURATION), lit(18 * 3_600_000))],
    ['an unconstrained string', () => cmp('!=', ref('s', STRING), lit('a'))],
  ])('no claim about %s', (_name, build) => {
    expect(constantValue(build())).toBeUndefined();
  });

  it('inlines computed attributes', () => {
    const age = ref('dependent_age', INT);
    const overAge = ref('over_age', BOOL);
    const definitions = new Map([[definitionKey('context', 'over_age'), cmp('>=', age, lit(26))]]);
    expect(constantValue(and(overAge, cmp('<', ref('dependent_age', INT), lit(20))), definitions)).toBe(false);
    expect(constantValue(and(overAge, cmp('<', ref('dependent_age', INT), lit(30))), definitions)).toBeUndefined();
  });

  it('treats a computed attribute it cannot inline as an attribute of its type', () => {
    const hours = ref('hours', floatRange(0, 24));
    const definitions = new Map([[definitionKey('context', 'hours'), arith('/', ref('ms', INT), lit(3_600_000))]]);
    expect(constantValue(cmp('>', hours, lit(30)), definitions)).toBe(false);
    expect(constantValue(cmp('>', hours, lit(12)), definitions)).toBeUndefined();
  });

  it('gives up (no claim) when the model is too large', () => {
    let condition: CheckedExpr = lit(false);
    for (let i = 0; i < 13; i++) condition = or(condition, ref(`b${i}`, BOOL));
    expect(buildModel([condition])).toBeUndefined();
    expect(constantValue(and(condition, not(condition)))).toBeUndefined();
  });

  it('makes no claim about integers beyond 2^53, where neighbours are not distinct numbers', () => {
    const amount = ref('amount', INT);
    const huge = cmp('>', amount, lit(2 ** 53));
    expect(buildModel([huge])).toBeUndefined();
    expect(constantValue(and(huge, cmp('<', amount, lit(2 ** 53 + 2))))).toBeUndefined();
    expect(constantValue(and(cmp('>', amount, lit(5)), cmp('<', amount, lit(3))))).toBe(false);
  });

  it('shares an attribute read through the same field path', () => {
    const intensity = () => field(ref('action', { kind: 'record', fields: [] }, 'action'), 'intensity', enumType('low', 'high'));
    const model = buildModel([and(cmp('==', intensity(), lit('low')), cmp('==', intensity(), lit('high')))]);
    expect(model?.keys).toEqual(['action.action.intensity']);
  });
});

describe('largest constant sub-condition', () => {
  it('reports the whole `and`, not its parts', () => {
    const whole = and(cmp('>', ref('x', INT), lit(5)), cmp('<', ref('x', INT), lit(3)));
    expect(constantSubConditions([whole]).map((c) => c.expr)).toEqual([whole]);
  });

  it('reports a constant part of a non-constant condition', () => {
    const part = or(cmp('==', ref('r', RELATIONSHIP), lit('child')), lit(true));
    const whole = and(ref('b', BOOL), part);
    expect(constantSubConditions([whole])).toEqual([{ expr: part, value: true }]);
  });

  it('never reports a bare literal', () => {
    expect(constantSubConditions([lit(true)])).toEqual([]);
    expect(constantSubConditions([and(ref('b', BOOL), lit(true))])).toEqual([]);
  });

  it('leaves IS NULL on a value that cannot be absent to the checker (ADEC5005)', () => {
    expect(constantSubConditions([isNull(ref('x', INT))])).toEqual([]);
    expect(constantSubConditions([isNull(ref('x', optional(INT)))])).toEqual([]);
  });
});
