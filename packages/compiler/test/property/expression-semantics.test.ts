/**
 * Expression semantics exist three times: the code the compiler generates (generate/emit-expr.ts,
 * built-ins lowered as model/builtins.ts says), the analyses' interpreter (analyze/evaluate.ts,
 * built-ins by the registry's `apply`) and its compiled form (analyze/compile.ts). This
 * differential test generates well-typed expressions over every built-in and operator, and
 * values of the right types for their attributes, and requires:
 * - the compiled form gives exactly what the interpreter gives, `UNKNOWN` included;
 * - where the interpreter knows the value, the generated code gives the same value: each
 *   expression emitted alone with the helpers it uses (600 cases, shrunk on failure), and 300
 *   expressions as the computed attributes of one generated module (generateModule, compiled
 *   by esbuild, imported and called through its `_COMPUTED` export) on 20 contexts.
 * The interpreter answers `UNKNOWN` on a known input only for a division or remainder by zero;
 * the generated code then fails with the language's division fault (nonZeroDivisor), and it may
 * fail so where the interpreter decides past the unknown part (`x / 0 > 1 or true`), as the
 * predicate stops at the division. The test checks that most expressions are decided, so it
 * cannot pass by saying nothing.
 */
import { transformSync } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileExpr, type Binding } from '../../src/analyze/compile.js';
import { evaluate, UNKNOWN, type Value } from '../../src/analyze/evaluate.js';
import { ExprEmitter } from '../../src/generate/emit-expr.js';
import { generateModule } from '../../src/generate/generate-module.js';
import { helperSources } from '../../src/generate/runtime-helpers.js';
import { BUILTIN_NAMES, builtin, childExpressions, DURATION, FLOAT, INT, STRING, TIMESTAMP, type BuiltinName, type CheckedAction, type CheckedExpr, type CheckedWorld, type ContextAttribute, type ParameterKind, type Type } from '../../src/model/index.js';
import { and, arith, call, cmp, coalesce, contains, ifElse, inList, isNull, lengthCmp, list, listOf, lit, matches, not, optional, or, ref, span } from '../generate/fixtures.js';

// ---- the attributes an expression reads, and values of their types --------------------------

const TAGS = listOf(STRING);
const ATTRIBUTES = {
  n: INT,
  m: INT,
  x: FLOAT,
  s: STRING,
  t: STRING,
  d: DURATION,
  e: DURATION,
  at: TIMESTAMP,
  since: TIMESTAMP,
  o: optional(INT),
  tags: TAGS,
} as const satisfies Record<string, Type>;
type AttributeName = keyof typeof ATTRIBUTES;
type Values = Readonly<Record<AttributeName, Value>>;

const attribute = (name: AttributeName): CheckedExpr => ref(name, ATTRIBUTES[name]);

/** Text with upper case, accents and a character outside the BMP (code points ≠ UTF-16 units). */
const text = fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'é', 'Ä', ' ', '👍', 'x'), maxLength: 6 });
const anyNumber = fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constantFrom(0.5, -0.5, 1.5, -2.5, 0.1, 1e-4, 2.675), fc.double({ min: -1e4, max: 1e4, noNaN: true }));
const milliseconds = fc.oneof(fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }), fc.constantFrom(0, 1, 999, 1_000, 90 * 60_000, 36 * 3_600_000));
const timestamp = fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 });

const values: fc.Arbitrary<Values> = fc.record({
  n: fc.integer({ min: -20, max: 20 }),
  m: fc.integer({ min: -5, max: 5 }),
  x: anyNumber,
  s: text,
  t: text,
  d: milliseconds,
  e: milliseconds,
  at: timestamp,
  since: timestamp,
  o: fc.option(fc.integer({ min: -10, max: 10 }), { nil: null }),
  tags: fc.array(text, { maxLength: 4 }),
});

// ---- well-typed expressions ---------------------------------------------------------------

const negate = (operand: CheckedExpr): CheckedExpr => ({ kind: 'negate', operand, type: operand.type, span: operand.span });
const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;
const PATTERNS = ['^a', 'b$', '(?:é|ä)', '\\p{L}{2}', '[0-9]', '^$'];

/**
 * fast-check picks the first alternative ever more often with depth; weighting the operators
 * keeps expressions deep enough that built-ins nest in operators and conditions.
 */
const DEPTH = { depthSize: 'medium', maxDepth: 6, withCrossShrink: true } as const;
const operator = <T>(arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ arbitrary, weight: 3 });

/** A type, not an interface: `fc.letrec` types its `tie` only for a record type. */
type Expressions = {
  number: CheckedExpr;
  duration: CheckedExpr;
  text: CheckedExpr;
  condition: CheckedExpr;
  tags: CheckedExpr;
};

/** A call of `name` on generated arguments of the kinds its registry entry accepts. */
function builtinCall(name: BuiltinName, argument: Readonly<Record<ParameterKind, fc.Arbitrary<CheckedExpr>>>): fc.Arbitrary<CheckedExpr> {
  const entry = builtin(name);
  const resultType = entry.result.kind === 'fixed' ? entry.result.type : FLOAT;
  return fc.tuple(...entry.parameters.map(() => argument[entry.accepts])).map((args) => call(name, resultType, ...args));
}

const returning = (kind: Type['kind']): BuiltinName[] =>
  BUILTIN_NAMES.filter((name) => {
    const result = builtin(name).result;
    return result.kind === 'numeric' ? kind === 'float' : result.type.kind === kind || (kind === 'float' && result.type.kind === 'int');
  });

/** Arguments of each kind a built-in accepts. */
const argumentsFrom = (of: (key: keyof Expressions) => fc.Arbitrary<CheckedExpr>): Record<ParameterKind, fc.Arbitrary<CheckedExpr>> => ({
  number: of('number'),
  duration: of('duration'),
  text: of('text'),
  'text-or-list': fc.oneof(of('text'), of('tags')),
});

const expressions = fc.letrec<Expressions>((tie) => {
  const argument = argumentsFrom(tie);
  const callReturning = (kind: Type['kind']): fc.Arbitrary<CheckedExpr> => fc.constantFrom(...returning(kind)).chain((name) => builtinCall(name, argument));
  return {
    number: fc.oneof(
      DEPTH,
      fc.constantFrom<AttributeName>('n', 'm', 'x').map(attribute),
      anyNumber.map((value) => lit(value)),
      operator(fc.tuple(fc.constantFrom('+' as const, '-' as const, '*' as const, '/' as const, '%' as const), tie('number'), tie('number')).map(([op, l, r]) => arith(op, l, r))),
      tie('number').map(negate),
      operator(callReturning('float')),
      fc.tuple(tie('condition'), tie('number'), tie('number')).map(([c, a, b]) => ifElse(c, a, b)),
      tie('number').map((fallback) => coalesce(attribute('o'), fallback)),
    ),
    duration: fc.oneof(
      DEPTH,
      fc.constantFrom<AttributeName>('d', 'e').map(attribute),
      milliseconds.map((ms) => lit(ms, DURATION)),
      operator(callReturning('duration')),
      fc.tuple(fc.constantFrom('+' as const, '-' as const), tie('duration'), tie('duration')).map(([op, l, r]) => arith(op, l, r, DURATION)),
      fc.constant(arith('-', attribute('at'), attribute('since'), DURATION)),
    ),
    text: fc.oneof(
      DEPTH,
      fc.constantFrom<AttributeName>('s', 't').map(attribute),
      text.map((value) => lit(value)),
      operator(callReturning('string')),
      fc.tuple(tie('text'), tie('text')).map(([l, r]) => arith('+', l, r, STRING)),
      fc.tuple(tie('condition'), tie('text'), tie('text')).map(([c, a, b]) => ifElse(c, a, b)),
    ),
    tags: fc.oneof(DEPTH, fc.constant(attribute('tags')), fc.array(tie('text'), { maxLength: 3 }).map((items) => list(STRING, ...items))),
    condition: fc.oneof(
      DEPTH,
      operator(fc.tuple(fc.constantFrom(...COMPARISONS), tie('number'), tie('number')).map(([op, l, r]) => cmp(op, l, r))),
      fc.tuple(fc.constantFrom(...COMPARISONS), tie('duration'), tie('duration')).map(([op, l, r]) => cmp(op, l, r)),
      fc.tuple(fc.constantFrom(...COMPARISONS), tie('text'), tie('text')).map(([op, l, r]) => cmp(op, l, r)),
      fc.tuple(fc.constantFrom('==' as const, '!=' as const), tie('tags'), tie('tags')).map(([op, l, r]) => cmp(op, l, r)),
      fc.tuple(tie('condition'), tie('condition')).map(([l, r]) => and(l, r)),
      fc.tuple(tie('condition'), tie('condition')).map(([l, r]) => or(l, r)),
      tie('condition').map(not),
      fc.tuple(tie('text'), tie('text'), fc.boolean()).map(([s, needle, negated]) => contains(s, needle, { negated })),
      fc.tuple(tie('tags'), tie('text')).map(([tags, needle]) => contains(tags, needle, { mode: 'element' })),
      fc.tuple(tie('text'), tie('tags')).map(([s, needles]) => contains(s, needles, { any: true })),
      fc.tuple(tie('text'), tie('tags')).map(([element, tags]) => inList(element, tags)),
      fc.boolean().map((negated) => isNull(attribute('o'), negated)),
      fc.tuple(fc.constantFrom(...COMPARISONS), fc.oneof(tie('text'), tie('tags')), tie('number')).map(([op, operand, limit]) => lengthCmp(op, operand, limit)),
      fc.tuple(tie('text'), fc.constantFrom(...PATTERNS), fc.constantFrom('u', 'iu'), fc.boolean()).map(([s, source, flags, negated]) => matches(s, source, flags, negated)),
    ),
  };
});

/** Any expression; about one in three is a call of a built-in at the top, so its own result is compared. */
const expression = fc.oneof(
  { arbitrary: fc.constantFrom(...BUILTIN_NAMES).chain((name) => builtinCall(name, argumentsFrom((key) => expressions[key]))), weight: 3 },
  expressions.number,
  expressions.duration,
  expressions.text,
  expressions.condition,
  expressions.tags,
);

// ---- the three implementations ------------------------------------------------------------

/** The compiler's output for `expr`, with the helpers and patterns it declares, compiled by esbuild and run. */
function runGenerated(expr: CheckedExpr, ctx: Values): unknown {
  const emitter = new ExprEmitter();
  const code = emitter.emitValue(expr, { context: 'ctx' });
  const prelude = [...helperSources(emitter.usedHelpers()), ...emitter.hoistedRegexes().map((r) => `const ${r.name} = ${r.literal};`)];
  const js = transformSync(`${prelude.join('\n')}\nreturn (${code});`, { loader: 'ts' }).code;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the generated code is what this test checks
  const run = new Function('ctx', js) as (ctx: unknown) => unknown;
  return run(ctx);
}

function runInterpreter(expr: CheckedExpr, ctx: Values): Value {
  return evaluate(expr, { lookup: (node) => (node.kind === 'ref' ? ctx[node.name as AttributeName] : undefined) });
}

function runCompiled(expr: CheckedExpr, ctx: Values): Value {
  const names = Object.keys(ATTRIBUTES) as AttributeName[];
  const bindings = new Map<CheckedExpr, Binding>();
  const bind = (node: CheckedExpr): void => {
    if (node.kind === 'ref') bindings.set(node, { variable: names.indexOf(node.name as AttributeName) });
    childExpressions(node).forEach(bind);
  };
  bind(expr);
  return compileExpr(expr, bindings)(names.map((name) => ctx[name]));
}

/** What generated code gives when a divisor is 0: it throws, and the predicate fails. */
const DIVISION_FAULT = Symbol('division by zero');

/** The value `run` gives, or DIVISION_FAULT when it throws the division fault. */
function valueOrFault(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError && error.message.startsWith('division by zero: ')) return DIVISION_FAULT;
    throw error;
  }
}

/** Whether `expr` divides or takes a remainder anywhere (the one source of `UNKNOWN` on known input). */
function divides(expr: CheckedExpr): boolean {
  return (expr.kind === 'arithmetic' && (expr.operator === '/' || expr.operator === '%')) || childExpressions(expr).some(divides);
}

/**
 * A value with every -0 written as 0: the language has one zero (JSON and `==` cannot tell them
 * apart, and a division by either is unknown to the analyses), and which one a chain of
 * `min`, `*` and `Math.round` ends on is not part of its semantics.
 */
function oneZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  return Array.isArray(value) ? value.map(oneZero) : value;
}

describe('the generated code, the interpreter and its compiled form agree', () => {
  it('on generated expressions over every built-in and operator', () => {
    let decided = 0;
    let runs = 0;
    fc.assert(
      fc.property(expression, values, (expr, ctx) => {
        runs++;
        const interpreted = runInterpreter(expr, ctx);
        expect(oneZero(runCompiled(expr, ctx))).toEqual(oneZero(interpreted));
        const generated = valueOrFault(() => runGenerated(expr, ctx));
        if (interpreted === UNKNOWN) {
          expect(divides(expr), 'only a division by zero is unknown on known input').toBe(true);
          expect(generated, 'the generated code fails where the interpreter met a division by zero').toBe(DIVISION_FAULT);
          return;
        }
        if (generated === DIVISION_FAULT) {
          expect(divides(expr)).toBe(true);
          return;
        }
        decided++;
        expect(oneZero(generated)).toEqual(oneZero(interpreted));
      }),
      { numRuns: 600 },
    );
    expect(decided / runs).toBeGreaterThan(0.8);
  });

  it('in a generated module: each expression a computed attribute of an action, run on generated contexts', async () => {
    const probes = fc.sample(expression, { numRuns: 300, seed: 3 });
    const supplied = (Object.keys(ATTRIBUTES) as AttributeName[]).map((name): ContextAttribute => ({ name, source: 'supplied', type: ATTRIBUTES[name], span: span(1) }));
    const computed = probes.map((derivation, i): ContextAttribute => ({ name: `probe_${i}`, source: 'computed', type: derivation.type, derivation, span: span(i + 2) }));
    const probeAction: CheckedAction = { name: 'probe', context: [...supplied, ...computed], aggregation: { mode: 'winner_takes_all' }, rules: [], workFrames: {}, span: span(1) };
    const world: CheckedWorld = { header: { org: 'acme', domain: 'adec.semantics', world: 'semantics', version: '1.0.0' }, predicateTimeoutMs: 5, actions: [probeAction], skills: [], scenarios: [], tests: [] };
    const js = transformSync(generateModule(world, { compilerVersion: '0.1.0', sources: ['rules.adec'] }), { loader: 'ts', format: 'esm' }).code;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as { _COMPUTED: Record<string, Record<string, (ctx: Values) => unknown>> };
    const derive = module._COMPUTED['probe']!;
    let compared = 0;
    for (const ctx of fc.sample(values, { numRuns: 20, seed: 4 })) {
      probes.forEach((probe, i) => {
        const interpreted = runInterpreter(probe, ctx);
        const generated = valueOrFault(() => derive[`probe_${i}`]!(ctx));
        if (interpreted === UNKNOWN) {
          expect(generated, `probe_${i} on ${JSON.stringify(ctx)}`).toBe(DIVISION_FAULT);
          return;
        }
        if (generated === DIVISION_FAULT && divides(probe)) return;
        compared++;
        expect(generated, `probe_${i} on ${JSON.stringify(ctx)}`).toEqual(interpreted);
      });
    }
    expect(compared).toBeGreaterThan(0.8 * 300 * 20);
  });

  it('generates a call of every built-in', () => {
    const called = new Set<string>();
    const collect = (expr: CheckedExpr): void => {
      if (expr.kind === 'call') called.add(expr.name);
      childExpressions(expr).forEach(collect);
    };
    fc.sample(expression, { numRuns: 600, seed: 1 }).forEach(collect);
    expect(BUILTIN_NAMES.filter((name) => !called.has(name))).toEqual([]);
  });

  it('each gives the values the language guide promises', () => {
    const ctx = fc.sample(values, { numRuns: 1, seed: 2 })[0]!;
    for (const run of [runGenerated, runInterpreter, runCompiled]) {
      expect(run(call('in_days', FLOAT, lit(36 * 3_600_000, DURATION)), ctx)).toBe(1.5);
      expect(run(call('days', DURATION, lit(1.5)), ctx)).toBe(36 * 3_600_000);
      expect(run(call('len', INT, lit('h\u00e9llo \u{1F44D}')), ctx)).toBe(7);
    }
  });
});
