import { describe, expect, it } from 'vitest';
import { UNKNOWN, evaluate, type Environment, type Value } from '../../src/analyze/evaluate.js';
import { BOOL, FLOAT, INT, STRING, type CheckedExpr } from '../../src/model/index.js';
import {
  and,
  arith,
  call,
  cmp,
  coalesce,
  contains,
  field,
  ifThen,
  inList,
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

/** An environment binding references by name. */
function env(values: Record<string, Value>): Environment {
  return {
    lookup: (expr: CheckedExpr) => (expr.kind === 'ref' && Object.hasOwn(values, expr.name) ? values[expr.name] : undefined),
  };
}

describe('evaluate', () => {
  it('computes arithmetic, comparisons and builtins', () => {
    expect(evaluate(arith('+', lit(2), lit(3)))).toBe(5);
    expect(evaluate(arith('/', lit(7), lit(2)))).toBe(3.5);
    expect(evaluate(arith('+', lit('a'), lit('b')))).toBe('ab');
    expect(evaluate(cmp('>=', lit(26), lit(26)))).toBe(true);
    expect(evaluate(call('clamp', FLOAT, lit(7), lit(0), lit(5)))).toBe(5);
    expect(evaluate(call('max', INT, lit(1), lit(9)))).toBe(9);
    expect(evaluate(call('in_days', FLOAT, lit(36 * 3_600_000)))).toBe(1.5);
    expect(evaluate(call('lower', STRING, lit('ABC')))).toBe('abc');
    expect(evaluate(call('len', INT, lit('héllo')))).toBe(5);
  });

  it('is unknown where the run time result is not known statically', () => {
    expect(evaluate(arith('/', lit(1), lit(0)))).toBe(UNKNOWN);
    expect(evaluate(ref('missing', INT))).toBe(UNKNOWN);
    expect(evaluate(cmp('>', lit(null), lit(5)))).toBe(UNKNOWN);
  });

  it('uses null-safe equality and coalescing', () => {
    const student = ref('student', optional(BOOL));
    expect(evaluate(cmp('==', student, lit(null)), env({ student: null }))).toBe(true);
    expect(evaluate(cmp('==', student, lit(true)), env({ student: null }))).toBe(false);
    expect(evaluate(cmp('!=', student, lit(true)), env({ student: null }))).toBe(true);
    expect(evaluate(coalesce(student, lit(false)), env({ student: null }))).toBe(false);
    expect(evaluate(coalesce(student, lit(false)), env({ student: true }))).toBe(true);
    expect(evaluate(isNull(student), env({ student: null }))).toBe(true);
    expect(evaluate(isNull(student, true), env({ student: false }))).toBe(true);
  });

  it('short-circuits with three-valued logic', () => {
    const x = ref('x', optional(INT));
    // narrowing: the right side is never evaluated when x is absent
    expect(evaluate(and(isNull(x, true), cmp('>', x, lit(5))), env({ x: null }))).toBe(false);
    expect(evaluate(and(lit(false), ref('unbound', BOOL)))).toBe(false);
    expect(evaluate(or(lit(true), ref('unbound', BOOL)))).toBe(true);
    expect(evaluate(and(lit(true), ref('unbound', BOOL)))).toBe(UNKNOWN);
    expect(evaluate(or(ref('unbound', BOOL), lit(true)))).toBe(true);
    expect(evaluate(not(ref('unbound', BOOL)))).toBe(UNKNOWN);
  });

  it('evaluates the SEC string operators', () => {
    const text = ref('rationale', STRING, 'payload');
    const values = env({ rationale: 'Your Recovery Run keeps momentum' });
    expect(evaluate(contains(text, lit('Recovery')), values)).toBe(true);
    expect(evaluate(contains(text, list(lit('guarantee'), lit('proven to')), { any: true, negated: true }), values)).toBe(true);
    expect(evaluate(matches(text, '(injury|pain)', 'i'), values)).toBe(false);
    expect(evaluate(matches(text, 'recovery', 'i'), values)).toBe(true);
    expect(evaluate(length('<', text, lit(100)), values)).toBe(true);
    expect(evaluate(inList(lit('b'), list(lit('a'), lit('b'))))).toBe(true);
    const documents = ref('documents', listOf(STRING));
    expect(evaluate(contains(documents, lit('w2')), env({ documents: ['w2'] }))).toBe(true);
  });

  it('reads fields of records and absent objects', () => {
    const display = ref('display', optional({ kind: 'record', fields: [{ name: 'tone', type: STRING }] }), 'payload');
    const tone = field(display, 'tone', optional(STRING), true);
    expect(evaluate(tone, env({ display: { tone: 'calm' } }))).toBe('calm');
    expect(evaluate(tone, env({ display: null }))).toBe(null);
  });

  it('evaluates if-expressions, also when the condition is unknown but both branches agree', () => {
    expect(evaluate(ifThen(lit(true), lit(1), lit(2)))).toBe(1);
    expect(evaluate(ifThen(ref('unbound', BOOL), lit(3), lit(3)))).toBe(3);
    expect(evaluate(ifThen(ref('unbound', BOOL), lit(3), lit(4)))).toBe(UNKNOWN);
  });
});
