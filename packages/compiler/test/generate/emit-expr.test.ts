import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ExprEmitter, type ExprScope } from '../../src/generate/emit-expr.js';
import { helperSources } from '../../src/generate/runtime-helpers.js';
import { BOOL, FLOAT, INT, STRING, type CheckedExpr } from '../../src/model/index.js';
import {
  and,
  arith,
  call,
  cmp,
  coalesce,
  contains,
  enumOf,
  field,
  ifElse,
  inList,
  isNull,
  lengthCmp,
  list,
  listOf,
  lit,
  matches,
  not,
  optional,
  or,
  ref,
  template,
} from './fixtures.js';

const CTX: ExprScope = { context: 'ctx' };

function emit(expr: CheckedExpr): string {
  return new ExprEmitter().emit(expr, CTX);
}

/** Emits `expr`, compiles it with the helpers and regexes it needs, and evaluates it on `ctx`. */
function evaluate(expr: CheckedExpr, ctx: Record<string, unknown>): unknown {
  const emitter = new ExprEmitter();
  const code = emitter.emit(expr, CTX);
  const prelude = [...helperSources(emitter.usedHelpers()), ...emitter.hoistedRegexes().map((r) => `const ${r.name} = ${r.literal};`)];
  const js = transformSync(`${prelude.join('\n')}\nreturn (${code});`, { loader: 'ts' }).code;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the generated code is what this test checks
  const run = new Function('ctx', js) as (ctx: unknown) => unknown;
  return run(ctx);
}

const age = ref('age', INT);
const name = ref('name', STRING);
const student = ref('student', optional(BOOL));
const nick = ref('nick', optional(STRING));
const tags = ref('tags', listOf(STRING));

describe('expression translation', () => {
  it('writes only the parentheses JavaScript needs', () => {
    expect(emit(and(cmp('==', ref('rel', enumOf('child')), lit('child')), not(coalesce(student, lit(false)))))).toBe(
      'ctx.rel === "child" && !(ctx.student ?? false)',
    );
    expect(emit(or(and(lit(true), lit(false)), lit(true)))).toBe('true && false || true');
    expect(emit(and(or(lit(true), lit(false)), lit(true)))).toBe('(true || false) && true');
    expect(emit(arith('-', lit(10), arith('-', age, lit(1), INT), INT))).toBe('10 - (ctx.age - 1)');
    expect(emit(arith('*', arith('+', age, lit(1), INT), lit(2), INT))).toBe('(ctx.age + 1) * 2');
    expect(emit({ kind: 'negate', operand: lit(-1), type: INT, span: lit(0).span })).toBe('-(-1)');
  });

  it('never mixes ?? with && or || without parentheses', () => {
    expect(emit(coalesce(and(lit(true), student), lit(false)))).toBe('(true && ctx.student) ?? false');
    expect(emit(or(coalesce(student, lit(false)), lit(true)))).toBe('(ctx.student ?? false) || true');
  });

  it('treats an absent value as null in equality: absent equals only absent', () => {
    expect(emit(cmp('==', nick, lit('bob')))).toBe('(ctx.nick ?? null) === "bob"');
    expect(emit(cmp('==', nick, lit(null)))).toBe('ctx.nick == null');
    expect(evaluate(cmp('==', nick, lit(null)), {})).toBe(true);
    expect(evaluate(cmp('==', nick, lit(null)), { nick: null })).toBe(true);
    expect(evaluate(cmp('==', nick, lit('bob')), {})).toBe(false);
    expect(evaluate(cmp('==', nick, ref('other', optional(STRING))), { other: null })).toBe(true);
    expect(evaluate(cmp('!=', nick, ref('other', optional(STRING))), { nick: 'a' })).toBe(true);
  });

  it('compares lists and records structurally', () => {
    expect(emit(cmp('==', tags, list(STRING, lit('a'))))).toBe('deepEqual(ctx.tags, ["a"])');
    expect(evaluate(cmp('==', tags, list(STRING, lit('a'), lit('b'))), { tags: ['a', 'b'] })).toBe(true);
    expect(evaluate(cmp('!=', tags, list(STRING, lit('a'))), { tags: ['a', 'b'] })).toBe(true);
  });

  it('uses float division and the JavaScript remainder', () => {
    expect(evaluate(arith('/', age, lit(4)), { age: 10 })).toBe(2.5);
    expect(evaluate(arith('%', age, lit(4), INT), { age: 10 })).toBe(2);
  });

  it('checks every divisor but a number at run time: a divisor that is 0 fails, naming it, and never gives Infinity or NaN', () => {
    const count = ref('count', INT);
    expect(emit(arith('/', age, lit(4)))).toBe('ctx.age / 4');
    expect(emit(arith('/', age, count))).toBe('ctx.age / nonZeroDivisor(ctx.count, "`count`")');
    expect(emit(arith('%', age, arith('-', count, lit(1), INT), INT))).toBe('ctx.age % nonZeroDivisor(ctx.count - 1, "the divisor")');
    for (const operator of ['/', '%'] as const) {
      expect(evaluate(arith(operator, age, count), { age: 10, count: 4 })).toBe(operator === '/' ? 2.5 : 2);
      for (const zero of [0, -0]) {
        expect(() => evaluate(arith(operator, age, count), { age: 10, count: zero })).toThrow(new RangeError('division by zero: `count` is 0'));
        expect(() => evaluate(arith(operator, age, arith('-', count, lit(1), INT), INT), { age: 10, count: 1 + zero })).toThrow(new RangeError('division by zero: the divisor is 0'));
      }
    }
  });

  it('translates built-ins to Math and local helpers', () => {
    expect(emit(call('clamp', FLOAT, arith('/', age, lit(5)), lit(0), lit(1)))).toBe('clamp(ctx.age / 5, 0, 1)');
    expect(evaluate(call('clamp', FLOAT, arith('/', age, lit(5)), lit(0), lit(1)), { age: 7 })).toBe(1);
    expect(evaluate(call('max', INT, age, lit(3)), { age: 1 })).toBe(3);
    expect(evaluate(call('round', INT, lit(2.5)), {})).toBe(3);
    expect(evaluate(call('upper', STRING, name), { name: 'ab' })).toBe('AB');
    expect(evaluate(call('len', INT, name), { name: 'a😀' })).toBe(2);
    expect(evaluate(call('len', INT, tags), { tags: ['x', 'y', 'z'] })).toBe(3);
  });

  it('translates the SEC string operators', () => {
    const text = ref('text', STRING);
    expect(emit(contains(text, lit('yoga')))).toBe('ctx.text.includes("yoga")');
    expect(evaluate(contains(text, list(STRING, lit('x'), lit('yoga')), { any: true }), { text: 'morning yoga' })).toBe(true);
    expect(evaluate(contains(text, list(STRING, lit('guarantee')), { any: true, negated: true }), { text: 'I guarantee it' })).toBe(false);
    expect(evaluate(contains(tags, lit('b'), { mode: 'element' }), { tags: ['a', 'b'] })).toBe(true);
    expect(evaluate(contains(tags, list(STRING, lit('c'), lit('d')), { mode: 'element', any: true }), { tags: ['a', 'b'] })).toBe(false);
    expect(evaluate(lengthCmp('<', text, lit(5)), { text: 'four' })).toBe(true);
    expect(evaluate(isNull(nick, true), { nick: 'x' })).toBe(true);
    expect(evaluate(inList(nick, list(STRING, lit('a'), lit(null))), {})).toBe(true);
    expect(evaluate(inList(name, tags), { name: 'b', tags: ['a', 'b'] })).toBe(true);
  });

  it('hoists each regular expression once, as a module constant', () => {
    const emitter = new ExprEmitter();
    const text = ref('text', STRING);
    const first = emitter.emit(matches(text, '\\d+ (fatigue|tired)', 'i', true), CTX);
    const again = emitter.emit(matches(ref('other', STRING), '\\d+ (fatigue|tired)', 'i'), CTX);
    const slash = emitter.emit(matches(text, 'a/b'), CTX);
    expect(first).toBe('!RE_0.test(ctx.text)');
    expect(again).toBe('RE_0.test(ctx.other)');
    expect(slash).toBe('RE_1.test(ctx.text)');
    expect(emitter.hoistedRegexes()).toEqual([
      { name: 'RE_0', literal: '/\\d+ (fatigue|tired)/i' },
      { name: 'RE_1', literal: '/a\\/b/' },
    ]);
    expect(evaluate(matches(text, '(injury|pain)', 'gi'), { text: 'PAIN' })).toBe(true);
  });

  it('uses ?. for optional fields and ?: for if', () => {
    const address = ref('address', optional({ kind: 'record', fields: [{ name: 'city', type: STRING }] }));
    expect(emit(coalesce(field(address, 'city', optional(STRING), true), lit('?')))).toBe('ctx.address?.city ?? "?"');
    expect(evaluate(coalesce(field(address, 'city', optional(STRING), true), lit('?')), {})).toBe('?');
    expect(emit(ifElse(cmp('>', age, lit(1)), lit('a'), lit('b')))).toBe('ctx.age > 1 ? "a" : "b"');
  });

  it('renders templates with String(value) and escapes template syntax', () => {
    const emitter = new ExprEmitter();
    expect(emitter.emitTemplate(template('Age ', age, ', name ', name, ', nick ', nick), CTX)).toBe(
      '`Age ${String(ctx.age)}, name ${ctx.name}, nick ${String(ctx.nick ?? null)}`',
    );
    expect(emitter.emitTemplate(template('cost `${x}` \\ done'), CTX)).toBe('`cost \\`\\${x}\\` \\\\ done`');
  });

  it('refuses a reference outside its scope (a compiler bug, not a user error)', () => {
    expect(() => emit(ref('x', INT, 'signal'))).toThrow(/adec bug/);
  });
});
