/**
 * Differential tests of the fast path against the reference: conditions compiled into
 * closures over slots (compile.ts), block-skipping enumeration (`forEachValue`), memoized
 * constant answers and the fast ADEC5003 check must give exactly what the plain interpreter
 * (evaluate.ts) gives on every assignment, and what the reference implementations
 * (reference-*.ts, the analyses as they were before the fast path) report.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConstantConditions, constantValue } from '../../src/analyze/constant-conditions.js';
import { evaluate, UNKNOWN, type Value } from '../../src/analyze/evaluate.js';
import { buildModel, definitionKey, groupValues, NO_DEFINITIONS, type Definitions, type ScalarInfo } from '../../src/analyze/finite-model.js';
import { checkNeverDecides, jointImplication } from '../../src/analyze/never-decides.js';
import { BOOL, FLOAT, INT, STRING, TIMESTAMP, type CheckedExpr, type Type } from '../../src/model/index.js';
import {
  action,
  and,
  arith,
  attribute,
  call,
  cmp,
  coalesce,
  contains,
  enumType,
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
  rule,
} from './builders.js';
import { referenceCheckConstantConditions, referenceConstantValue } from './reference-constant-conditions.js';
import { referenceGroupValues } from './reference-group-values.js';
import { referenceCheckNeverDecides } from './reference-never-decides.js';

const COLOUR = enumType('red', 'green', 'blue');
const NUMERIC: readonly [string, Type][] = [
  ['a', INT],
  ['b', intRange(0, 10)],
  ['f', FLOAT],
  ['p', floatRange(0, 1)],
  ['o', optional(INT)],
  ['ts', TIMESTAMP],
  ['h', INT], // computed in DEFINITIONS: min(a, 5)
];
const DEFINITIONS: Definitions = new Map([
  [definitionKey('context', 'd'), or(cmp('>', ref('a', INT), lit(3)), ref('t', BOOL))],
  [definitionKey('context', 'h'), call('min', INT, ref('a', INT), lit(5))],
]);

const literalNumber = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.constantFrom(0.5, 2.5, -0, 1e6));

const { condition } = fc.letrec<{ condition: CheckedExpr; term: CheckedExpr }>((tie) => ({
  term: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...NUMERIC).map(([name, type]) => ref(name, type)),
    literalNumber.map((n) => lit(n)),
    fc.integer({ min: -2, max: 8 }).map((n) => coalesce(ref('o', optional(INT)), lit(n))),
    fc.tuple(fc.constantFrom('min' as const, 'max' as const), tie('term'), tie('term')).map(([name, x, y]) => call(name, FLOAT, x, y)),
    fc.tuple(tie('term'), literalNumber, literalNumber).map(([x, lo, hi]) => call('clamp', FLOAT, x, lit(lo), lit(hi))),
    fc.tuple(tie('condition'), tie('term'), tie('term')).map(([c, x, y]) => ifThen(c, x, y)),
    fc.tuple(fc.constantFrom('+' as const, '*' as const, '/' as const, '%' as const), tie('term'), tie('term')).map(([op, x, y]) =>
      arith(op, x, y),
    ),
  ),
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom('==' as const, '!=' as const, '<' as const, '<=' as const, '>' as const, '>=' as const), tie('term'), tie('term')).map(
      ([op, x, y]) => cmp(op, x, y),
    ),
    fc.tuple(fc.constantFrom('==' as const, '!=' as const), fc.constantFrom('red', 'green', 'blue', 'pink')).map(([op, v]) =>
      cmp(op, ref('c', COLOUR), lit(v)),
    ),
    fc.tuple(fc.constantFrom('==' as const, '!=' as const, '<' as const), fc.constantFrom('x', 'y', '')).map(([op, v]) => cmp(op, ref('s', STRING), lit(v))),
    fc.constant(null).map(() => ref('t', BOOL)),
    fc.constant(null).map(() => ref('d', BOOL)),
    fc.boolean().map((v) => coalesce(ref('ob', optional(BOOL)), lit(v))),
    fc.boolean().map((v) => cmp('==', ref('ob', optional(BOOL)), lit(v))),
    fc.boolean().map((negated) => isNull(ref('o', optional(INT)), negated)),
    fc.boolean().map((negated) => isNull(ref('ob', optional(BOOL)), negated)),
    fc.subarray(['red', 'green', 'blue', 'pink'], { minLength: 0 }).map((vs) => inList(ref('c', COLOUR), list(...vs.map((v) => lit(v))))),
    fc.tuple(tie('term'), fc.array(literalNumber, { maxLength: 3 })).map(([x, vs]) => inList(x, list(...vs.map((v) => lit(v))))),
    fc.constantFrom('x', 'y').map((v) => contains(ref('tags', listOf(STRING)), lit(v))),
    fc.constantFrom('x', 'y').map((v) => contains(ref('s', STRING), lit(v), { negated: v === 'y' })),
    fc.boolean().map((negated) => matches(ref('s', STRING), 'a+', '', negated)),
    fc.integer({ min: 0, max: 3 }).map((n) => length('>', ref('s', STRING), lit(n))),
    fc.boolean().map((v) => lit(v)),
    tie('condition').map((c) => not(c)),
    fc.tuple(tie('condition'), tie('condition')).map(([x, y]) => and(x, y)),
    fc.tuple(tie('condition'), tie('condition')).map(([x, y]) => or(x, y)),
    fc.tuple(tie('condition'), tie('condition'), tie('condition')).map(([x, y, z]) => ifThen(x, y, z)),
  ),
}));

const definitions = fc.constantFrom<Definitions>(NO_DEFINITIONS, DEFINITIONS);

/** Every assignment of the model of `conditions`: the reference values and the slots. */
function referenceRun(conditions: readonly CheckedExpr[], defs: Definitions) {
  const model = buildModel(conditions, defs);
  if (model === undefined) return undefined;
  const rows: { slots: Value[]; values: Value[] }[] = [];
  model.forEachAssignment((env, current) => {
    const assignment = current();
    rows.push({ slots: model.keys.map((key) => assignment.get(key)!), values: conditions.map((c) => evaluate(c, env)) });
  });
  return { model, rows };
}

const RUNS = { numRuns: 400 };

describe('compiled evaluation agrees with the interpreter', () => {
  it('on every assignment of the model, in the same order', () => {
    fc.assert(
      fc.property(condition, definitions, (c, defs) => {
        const run = referenceRun([c], defs);
        if (run === undefined) return;
        const { model, rows } = run;
        const compiled = model.compile(c);
        const slotsSeen: Value[][] = [];
        model.forEachSlots((slots) => void slotsSeen.push([...slots]));
        expect(slotsSeen).toEqual(rows.map((row) => row.slots));
        for (const row of rows) expect(compiled(row.slots)).toEqual(row.values[0]);
      }),
      RUNS,
    );
  });

  it('with some variables unknown (a witness from another model)', () => {
    fc.assert(
      fc.property(condition, definitions, fc.integer({ min: 0, max: 1_000_000 }), (c, defs, seed) => {
        const run = referenceRun([c], defs);
        if (run === undefined) return;
        const { model, rows } = run;
        const row = rows[seed % rows.length]!;
        const known = new Map<string, Value>();
        model.keys.forEach((key, i) => {
          if ((seed >> i) & 1) known.set(key, row.slots[i]!);
        });
        const slots = model.keys.map((key) => (known.has(key) ? known.get(key)! : UNKNOWN));
        expect(model.compile(c)(slots)).toEqual(evaluate(c, model.keyedEnvironment(known)));
      }),
      RUNS,
    );
  });

  it('block-skipping enumeration stands for exactly the assignments it skips', () => {
    fc.assert(
      fc.property(condition, definitions, (c, defs) => {
        const run = referenceRun([c], defs);
        if (run === undefined) return;
        const { model, rows } = run;
        const expanded: Value[] = [];
        const slotsSeen: Value[][] = [];
        model.forEachValue(c, (slots, value, count) => {
          expect(count === 1 || value === false).toBe(true);
          slotsSeen.push([...slots]);
          for (let i = 0; i < count; i++) expanded.push(value);
        });
        expect(expanded).toEqual(rows.map((row) => row.values[0]));
        // Each visit is at the first assignment it stands for.
        let position = 0;
        let visit = 0;
        model.forEachValue(c, (_slots, _value, count) => {
          expect(slotsSeen[visit++]).toEqual(rows[position]!.slots);
          position += count;
        });
        expect(position).toBe(rows.length);
      }),
      RUNS,
    );
  });
});

describe('fast answers agree with the reference', () => {
  it('always true / always false', () => {
    fc.assert(
      fc.property(condition, definitions, (c, defs) => {
        expect(constantValue(c, defs)).toBe(referenceConstantValue(c, defs));
        expect(checkConstantConditions([c], defs)).toEqual(referenceCheckConstantConditions(c, defs));
      }),
      { numRuns: 1000 },
    );
  });

  it('a part keeps the precision of its own model when the whole fits only without inlining (found by the property below)', () => {
    // With `c`, the model inlining h = min(a, 5) is too large, so a model of both treats h as
    // a plain int; alone, `d`'s model inlines it and `8 == h` is always false.
    const c = cmp('==', ref('a', INT), call('clamp', FLOAT, arith('+', ref('a', INT), ref('a', INT)), lit(0), lit(0.5)));
    const d = and(
      isNull(ref('o', optional(INT))),
      ifThen(cmp('==', lit(8), ref('h', INT)), cmp('==', ref('ts', TIMESTAMP), call('clamp', FLOAT, coalesce(ref('o', optional(INT)), lit(8)), lit(2.5), lit(0.5))), ref('t', BOOL)),
    );
    const expected = [...referenceCheckConstantConditions(c, DEFINITIONS), ...referenceCheckConstantConditions(d, DEFINITIONS)];
    expect(expected.filter((w) => w.code === 'ADEC5002')).toHaveLength(2);
    expect(checkConstantConditions([c, d], DEFINITIONS)).toEqual(expected);
  });

  it('always true / always false for two conditions decided on one model (a rule\'s applies_when and when)', () => {
    fc.assert(
      fc.property(condition, condition, definitions, (c, d, defs) => {
        expect(checkConstantConditions([c, d], defs)).toEqual([...referenceCheckConstantConditions(c, defs), ...referenceCheckConstantConditions(d, defs)]);
      }),
      { numRuns: 1000 },
    );
  });

  it('R ⇒ S on the joint model, with the same number of assignments evaluated', () => {
    fc.assert(
      fc.property(condition, condition, definitions, (r, s, defs) => {
        const run = referenceRun([r, s], defs);
        const fast = jointImplication(r, s, defs);
        if (run === undefined) {
          expect(fast).toBeUndefined();
          return;
        }
        let holds = true;
        let evaluated = 0;
        for (const { values } of run.rows) {
          evaluated++;
          if (values[0] === false) continue;
          holds = values[1] === true;
          if (!holds) break;
        }
        expect(fast).toEqual({ holds, evaluated });
      }),
      RUNS,
    );
  });

  it('ADEC5003 on random actions, budgets included', () => {
    const ruleShape = fc.record({
      when: condition,
      appliesWhen: fc.option(condition, { nil: undefined }),
      outcome: fc.constantFrom('RED' as const, 'YELLOW' as const, 'GREEN-SKIP' as const, 'GREEN' as const),
      severity: fc.constantFrom('t1' as const, 't2' as const, 't3' as const),
      suppresses: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(ruleShape, { minLength: 1, maxLength: 7 }),
        fc.constantFrom('winner_takes_all', 'all_must_pass'),
        definitions,
        fc.option(fc.record({ maxAssignmentsPerAction: fc.integer({ min: 0, max: 3000 }), maxPairModelsPerAction: fc.integer({ min: 0, max: 6 }) }), {
          nil: undefined,
        }),
        (shapes, mode, defs, options) => {
          const rules = shapes.map((shape, i) =>
            rule(`r${i}`, shape.outcome, shape.severity, shape.when, {
              ...(shape.appliesWhen && { appliesWhen: shape.appliesWhen }),
              ...(shape.suppresses && i > 0 && { suppresses: [`r${i - 1}`] }),
            }),
          );
          const act = action(rules, {
            aggregation: { mode } as never,
            context: defs === DEFINITIONS ? [attribute('d', BOOL, DEFINITIONS.get('context:d')), attribute('h', INT, DEFINITIONS.get('context:h'))] : [],
          });
          expect(checkNeverDecides(act, defs, options)).toEqual(referenceCheckNeverDecides(act, defs, options));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on a world-shaped action where most pairs are related (large models)', () => {
    const amount = (): CheckedExpr => ref('amount', floatRange(0, 1_000_000));
    const region = enumType('us', 'eu', 'apac', 'latam');
    const tier = enumType('bronze', 'silver', 'gold', 'platinum');
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            region: fc.constantFrom('us', 'eu', 'apac', 'latam'),
            tier: fc.constantFrom('bronze', 'silver', 'gold', 'platinum'),
            low: fc.integer({ min: 0, max: 9000 }),
            width: fc.integer({ min: 1, max: 6000 }),
            extra: fc.constantFrom('tags', 'score', 'note', 'age'),
            n: fc.integer({ min: 0, max: 80 }),
            outcome: fc.constantFrom('RED' as const, 'YELLOW' as const, 'GREEN-SKIP' as const, 'GREEN' as const),
            severity: fc.constantFrom('t1' as const, 't2' as const, 't3' as const),
          }),
          { minLength: 2, maxLength: 25 },
        ),
        (shapes) => {
          const rules = shapes.map((s, i) => {
            const extra =
              s.extra === 'tags'
                ? contains(ref('tags', listOf(STRING)), lit('x'))
                : s.extra === 'score'
                  ? cmp('>', coalesce(ref('score', optional(INT)), lit(0)), lit(s.n))
                  : s.extra === 'note'
                    ? contains(ref('note', STRING), lit('vip'))
                    : cmp('>=', ref('age', intRange(0, 130)), lit(s.n));
            const when = and(
              and(and(cmp('==', ref('tier', tier), lit(s.tier)), cmp('>=', amount(), lit(s.low))), cmp('<', amount(), lit(s.low + s.width))),
              extra,
            );
            return rule(`r${i}`, s.outcome, s.severity, when, { appliesWhen: cmp('==', ref('region', region), lit(s.region)) });
          });
          const act = action(rules);
          expect(checkNeverDecides(act)).toEqual(referenceCheckNeverDecides(act));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('representative values agree with the reference', () => {
  const bound = fc.option(fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(0.5, -0, 1e6)), { nil: undefined });
  const info: fc.Arbitrary<ScalarInfo> = fc.oneof(
    fc.record({ kind: fc.constantFrom('int' as const, 'float' as const), optional: fc.boolean(), min: bound, max: bound }).map(({ kind, optional: opt, min, max }) => ({
      kind,
      optional: opt,
      ...((min !== undefined || max !== undefined) && { range: { ...(min !== undefined && { min }), ...(max !== undefined && { max }) } }),
    })),
    fc.record({ kind: fc.constant('enum' as const), optional: fc.boolean(), members: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', '\u0000other0'), { minLength: 1 }) }),
    fc.record({ kind: fc.constantFrom('string' as const, 'bool' as const), optional: fc.boolean() }),
  );
  const constant = fc.oneof(fc.integer({ min: -30, max: 30 }), fc.double({ min: -100, max: 100, noNaN: true }), fc.constantFrom('a', 'z', '\u0000other1', -0, 2 ** 53));

  it('for every group of attribute types and constants', () => {
    fc.assert(
      fc.property(fc.array(info, { minLength: 1, maxLength: 3 }), fc.array(constant, { maxLength: 5 }), (infos, constants) => {
        const kinds = new Set(infos.map((i) => i.kind));
        const numeric = [...kinds].every((k) => k === 'int' || k === 'float');
        const stringy = [...kinds].every((k) => k === 'enum' || k === 'string');
        const usable = numeric ? constants.filter((c) => typeof c === 'number') : stringy ? constants.filter((c) => typeof c === 'string') : [];
        expect(groupValues(infos, usable)).toEqual(referenceGroupValues(infos, usable));
      }),
      { numRuns: 2000 },
    );
  });
});
