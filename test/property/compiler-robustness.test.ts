/**
 * No input crashes the compiler (issue 13):
 *
 * - Names: every kind of declaration (and every word the language spells from a closed set)
 *   named after a property every JavaScript object has — `constructor`, `toString`,
 *   `__proto__`, `hasOwnProperty`, `valueOf` — declared, and referenced without a
 *   declaration. A declared name checks (or gets the language's one diagnostic for it); an
 *   undeclared one gets the usual unknown-name diagnostic; no message, help or note ever shows
 *   what `Object.prototype` holds (`function Object() { [native code] }`). A world naming every
 *   declaration it can after each of them builds, and its module answers under those names.
 * - Nesting (grammar/README.md, "Nesting limit"): every way to nest, exactly at the limit,
 *   checks and builds; one level deeper is one ADEC1010 where the limit is crossed, and
 *   nothing else.
 * - Chains: 10,000-operand chains of every operator family check, build (the generated
 *   module passes TypeScript's check, with the long chains cut into blocks) and compute
 *   the right value in the bundle.
 */
import { createContext, runInContext } from 'node:vm';
import { buildWorld, checkSources, type WorldSources } from '@adec/compiler';
import type { Diagnostic } from '@adec/diagnostics';
import { formatExpr, parseSource, type ActionDecl, type Expr } from '@adec/grammar';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileExpr } from '../../packages/compiler/src/analyze/compile.js';
import { evaluate, type Value } from '../../packages/compiler/src/analyze/evaluate.js';
import { buildModel } from '../../packages/compiler/src/analyze/finite-model.js';
import { BUNDLE_GLOBAL_NAME } from '../../packages/compiler/src/bundle/index.js';
import { BOOL, INT, type CheckedExpr } from '../../packages/compiler/src/model/index.js';
import { and, arith, cmp, coalesce, lit, optional, or, ref } from '../../packages/compiler/test/analyze/builders.js';
import { CHAIN_CONTEXT, CHAIN_KINDS, chainCondition, NESTING_KINDS, nestedWorld, nthOffset, ruleWorld } from './deep-inputs.js';
import { DEFAULT_NAMES, everythingNamed, EXPECTATIONS, namesWorld, UNDECLARED_REFERENCE, type NameKind } from './prototype-names.js';

const OBJECT_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'] as const;
const LIMIT = 100;

/** What `Object.prototype`'s members print as, should a table lookup ever return one. */
const PROTOTYPE_TEXT = /native code|\[object |function \w*\(\)/;

function texts(d: Diagnostic): string {
  return [d.message, d.label ?? '', d.help ?? '', ...(d.notes ?? [])].join('\n');
}

function describeAll(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.span.file}:${d.span.line}:${d.span.column} ${d.message}${d.help === undefined ? '' : ` (help: ${d.help})`}`);
}

/** Checks `sources`; fails on a thrown error, an internal error or prototype text. */
function checkSafely(sources: WorldSources) {
  const result = checkSources(sources);
  const broken = result.diagnostics.filter((d) => d.code.startsWith('ADEC9') || PROTOTYPE_TEXT.test(texts(d)));
  expect(describeAll(broken)).toEqual([]);
  return result;
}

function textOf(sources: WorldSources, d: Diagnostic): string {
  const file = sources.files.find((f) => f.path === d.span.file);
  return file === undefined ? '' : file.text.slice(d.span.offset, d.span.endOffset);
}

type Module = Record<string, Record<string, unknown>>;

async function buildAndLoad(sources: WorldSources): Promise<Module> {
  const built = await buildWorld(sources);
  expect(describeAll(built.diagnostics.filter((d) => d.severity === 'error'))).toEqual([]);
  expect(built.artifacts).toBeDefined();
  return runInContext(`${built.artifacts!.bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as Module;
}

describe('names every JavaScript object has', () => {
  it('the everyday world checks without a diagnostic', () => {
    expect(describeAll(checkSafely(namesWorld()).diagnostics)).toEqual([]);
  });

  for (const kind of Object.keys(DEFAULT_NAMES) as NameKind[]) {
    const expectation = EXPECTATIONS[kind];
    it(`${kind} named ${OBJECT_NAMES.join(', ')}: ${expectation.declared === 'ok' ? 'an ordinary name' : expectation.declared === 'reserved' ? 'reserved (ADEC2015)' : expectation.code}`, () => {
      for (const name of OBJECT_NAMES) {
        const sources = namesWorld({ [kind]: name });
        const errors = checkSafely(sources).diagnostics.filter((d) => d.severity === 'error');
        if (expectation.declared === 'ok') {
          expect(describeAll(errors), name).toEqual([]);
        } else if (expectation.declared === 'reserved') {
          expect(errors.length, name).toBeGreaterThan(0);
          for (const error of errors) {
            expect(error.code, `${name}: ${error.message}`).toBe('ADEC2015');
            expect(textOf(sources, error)).toBe(name);
          }
        } else {
          expect(errors.map((e) => e.code), name).toContain(expectation.code);
          for (const error of errors) expect(error.message, name).toContain(name);
          // A suggestion names a real word, never the name itself or prototype text.
          for (const error of errors) {
            const suggestion = /did you mean `([^`]*)`/.exec(error.help ?? '')?.[1];
            if (suggestion !== undefined) expect(suggestion, name).toMatch(/^[\w-]+$/);
          }
        }
      }
    });
  }

  for (const [kind, code] of Object.entries(UNDECLARED_REFERENCE) as [NameKind, string][]) {
    it(`${kind} referenced as ${OBJECT_NAMES.join(', ')} without a declaration: ${code}`, () => {
      for (const name of OBJECT_NAMES) {
        const sources = namesWorld({}, { [kind]: name });
        const errors = checkSafely(sources).diagnostics.filter((d) => d.severity === 'error');
        const unknown = errors.filter((e) => e.code === code);
        expect(unknown.length, `${name}: ${describeAll(errors).join('; ')}`).toBeGreaterThan(0);
        for (const error of unknown) {
          expect(error.message).toContain(name);
          const suggestion = /did you mean `([^`]*)`/.exec(error.help ?? '')?.[1];
          if (suggestion !== undefined) expect(OBJECT_NAMES as readonly string[]).not.toContain(suggestion);
        }
      }
    });
  }

  for (const name of OBJECT_NAMES) {
    it(`a world whose action, rule, skill, scenario, … are all named \`${name}\` builds and answers under that name`, async () => {
      const sources = namesWorld(everythingNamed(name));
      expect(describeAll(checkSafely(sources).diagnostics)).toEqual([]);
      const module = await buildAndLoad(sources);
      for (const registry of ['_ACTIONS', '_RULE_FUNCTIONS', '_RULE_OUTCOME', '_RULE_SEVERITY', '_SCENARIOS', '_SKILLS']) {
        expect(Object.hasOwn(module[registry]!, name), `${registry} has own \`${name}\``).toBe(true);
      }
      // A plain string key: the registries have no prototype, so `toString` is the world's own entry, not Object's method.
      const key: string = name;
      const predicate = module['_RULE_FUNCTIONS']![key] as (ctx: unknown) => { matched: boolean };
      const ctx = { amount: 20, large: true, plan: name, address: { city: 'x', zip: '1' } };
      expect(predicate(ctx).matched).toBe(true);
      expect(module['_RULE_OUTCOME']![key]).toBe('YELLOW');
    });
  }
});

describe(`nesting: at most ${LIMIT} levels`, () => {
  for (const kind of NESTING_KINDS) {
    it(`${kind}: ${LIMIT} levels check and build; ${LIMIT + 1} are one ADEC1010 where the limit is crossed, and nothing else`, async () => {
      const atLimit = nestedWorld(kind, LIMIT).sources;
      const checked = checkSafely(atLimit);
      expect(describeAll(checked.diagnostics.filter((d) => d.severity === 'error'))).toEqual([]);
      await buildAndLoad(atLimit);

      const past = nestedWorld(kind, LIMIT + 1);
      const { diagnostics } = checkSafely(past.sources);
      expect(describeAll(diagnostics)).toHaveLength(1);
      const [only] = diagnostics;
      expect(only!.code).toBe('ADEC1010');
      expect(only!.message).toBe(`nested deeper than ${LIMIT} levels`);
      expect(only!.span.offset).toBe(nthOffset(past.sources.files[0]!.text, past.crossing, past.occurrence));
    });
  }

  it('400 nested parentheses are one ADEC1010, no internal error and no unknown action in the tests of another file', () => {
    const sources = ruleWorld(`${'('.repeat(400)}amount > 1${')'.repeat(400)}`);
    const tests = { path: 'limits/tests.adec', text: 'test "t" {\n  action review\n  context { amount: 2 }\n  expect YELLOW by r\n}\n' };
    const { diagnostics } = checkSafely({ ...sources, files: [...sources.files, tests] });
    expect(diagnostics.map((d) => `${d.code} ${d.span.file}:${d.span.line}:${d.span.column}`)).toEqual(['ADEC1010 limits/world.adec:11:112']);
  });

  // How long it takes is the compile bench's to measure (bench/compile); here, that the limit holds.
  it('10,000 levels of each kind are one ADEC1010 per place, the stack never exhausted', () => {
    for (const kind of NESTING_KINDS) {
      const { diagnostics } = checkSafely(nestedWorld(kind, 10_000).sources);
      expect(diagnostics.map((d) => d.code), kind).toEqual(['ADEC1010']);
    }
  });
});

describe('long chains', () => {
  const LENGTH = 10_000;

  /** The `when` of the one rule of `action x { rule r { when … } }`. */
  function parsedCondition(condition: string): Expr {
    const { file, diagnostics } = parseSource('x.adec', `action x {\n  rule r {\n    when ${condition}\n  }\n}\n`);
    expect(describeAll(diagnostics)).toEqual([]);
    const clause = (file.declarations[0] as ActionDecl).rules[0]!.clauses.find((c) => c.kind === 'WhenClause');
    if (clause?.kind !== 'WhenClause') throw new Error('no when clause');
    return clause.condition;
  }

  it(`${LENGTH}-operand chains parse with their associativity and print back as written`, () => {
    const coalesce = Array.from({ length: LENGTH }, (_, i) => `a${i}`).join(' ?? ');
    let node = parsedCondition(coalesce);
    for (let i = 0; i < LENGTH - 1; i++) {
      if (node.kind !== 'BinaryExpr') throw new Error(`operand ${i} is a ${node.kind}`);
      expect(node.left).toMatchObject({ kind: 'NameExpr', name: `a${i}` });
      node = node.right;
    }
    expect(formatExpr(parsedCondition(coalesce))).toBe(coalesce);
    const minus = Array.from({ length: LENGTH }, (_, i) => `a${i}`).join(' - ');
    expect(formatExpr(parsedCondition(minus))).toBe(minus);
    const mixed = Array.from({ length: LENGTH }, (_, i) => `a${i} == ${i}`).join(' or ') + ' and b';
    expect(formatExpr(parsedCondition(mixed))).toBe(mixed);
  });

  it('the analysis runs a chain of 32 links or more in a loop, with the interpreter\'s value on every assignment', () => {
    const a = ref('a', INT);
    const o = ref('o', optional(INT));
    const t = ref('t', BOOL);
    const atoms: readonly CheckedExpr[] = [cmp('==', a, lit(1)), cmp('>', a, lit(2)), t, cmp('==', o, lit(null)), cmp('<', coalesce(o, lit(0)), a)];
    const link = fc.oneof(
      fc.tuple(fc.constantFrom('and', 'or'), fc.constantFrom(...atoms)).map(([op, atom]) => (left: CheckedExpr) => (op === 'and' ? and(left, atom) : or(left, atom))),
    );
    const chain = fc.oneof(
      // `… and … or …` over the atoms
      fc.tuple(fc.constantFrom(...atoms), fc.array(link, { minLength: 32, maxLength: 120 })).map(([first, links]) => links.reduce((left, f) => f(left), first)),
      // `a + 1 - 2 * …` compared, and `o ?? o ?? … ?? a` compared
      fc.array(fc.tuple(fc.constantFrom<'+' | '-' | '*' | '%'>('+', '-', '*', '%'), fc.integer({ min: 1, max: 3 })), { minLength: 32, maxLength: 120 })
        .map((links) => cmp('>', links.reduce<CheckedExpr>((left, [op, n]) => arith(op, left, lit(n)), a), lit(4))),
      fc.integer({ min: 32, max: 120 }).map((n) => cmp('==', Array.from({ length: n }, () => o).reduceRight<CheckedExpr>((right, left) => coalesce(left, right), a), lit(2))),
    );
    fc.assert(
      fc.property(chain, (condition) => {
        const model = buildModel([condition]);
        if (model === undefined) return;
        const compiled = model.compile(condition);
        const fast: Value[] = [];
        model.forEachSlots((slots) => void fast.push(compiled(slots)));
        const reference: Value[] = [];
        model.forEachAssignment((env) => void reference.push(evaluate(condition, env)));
        expect(fast).toEqual(reference);
      }),
      { numRuns: 200, seed: 20_261_126 },
    );
    // Arithmetic is never an atom's inside (an atom is opaque), so a chain of literals.
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 5 }),
        fc.array(fc.tuple(fc.constantFrom<'+' | '-' | '*' | '/' | '%'>('+', '-', '*', '/', '%'), fc.integer({ min: -3, max: 3 })), { minLength: 32, maxLength: 120 }),
        (start, links) => {
          const sum = links.reduce<CheckedExpr>((left, [op, n]) => arith(op, left, lit(n)), lit(start));
          expect(compileExpr(sum, new Map())([])).toEqual(evaluate(sum));
        },
      ),
      { numRuns: 200, seed: 20_261_126 },
    );
  });

  it(`${LENGTH}-operand chains of ${CHAIN_KINDS.join(', ')} check without a diagnostic`, () => {
    for (const kind of CHAIN_KINDS) {
      const { diagnostics } = checkSafely(ruleWorld(chainCondition(kind, LENGTH).text));
      expect(describeAll(diagnostics.filter((d) => d.severity === 'error')), kind).toEqual([]);
    }
  });

  it(`a world with ${LENGTH}-operand chains of logic, arithmetic, \`??\` and text in every place an expression goes builds, and the bundle computes each chain`, async () => {
    const chain = (kind: (typeof CHAIN_KINDS)[number]) => chainCondition(kind, LENGTH);
    const built = ['and', 'mixed arithmetic', 'coalesce', 'concatenation'] as const;
    const reasons = `"sum {amount${' + 1'.repeat(LENGTH - 1)}}"`;
    const sources = ruleWorld(chain('or').text, {
      reason: reasons,
      extra: [
        'action chains {',
        '  context {',
        `    computed any_small: bool = ${chain('comparisons of sums').text}`,
        '  }',
        `  rule small {\n    outcome  YELLOW\n    severity t2\n    applies_when ${chain('and').text}\n    when     any_small or flag\n  }`,
        ...built.map((kind, i) => `  rule c${i} {\n    outcome  YELLOW\n    severity t2\n    when     ${chain(kind).text}\n  }`),
        '}',
        'scenario daily {',
        '  version "1.0.0"',
        '  signals { sessions: int = 0 }',
        `  state { busy: bool = ${'sessions > 1 or '.repeat(LENGTH - 1)}sessions > 2 }`,
        '  action_type walk { minutes: int }',
        `  guardrail "GR-1" "long walks" {\n    when  ${'busy and '.repeat(LENGTH - 1)}busy\n    block action.minutes${' + 1'.repeat(LENGTH - 1)} > 100\n  }`,
        `  objective effort weight 1.0 = action.minutes${' * 1'.repeat(LENGTH - 1)}`,
        '  tie_break action_id asc',
        '}',
      ].join('\n'),
    });
    const { diagnostics } = checkSafely(sources);
    expect(describeAll(diagnostics.filter((d) => d.severity === 'error'))).toEqual([]);
    const module = await buildAndLoad(sources);
    const rules = module['_RULE_FUNCTIONS'] as Record<string, (ctx: unknown) => { matched: boolean; reason?: string }>;
    const ctx = { ...CHAIN_CONTEXT, any_small: false };
    expect(rules['r']!(ctx)).toEqual({ matched: true, reason: `sum ${3 + LENGTH - 1}` });
    built.forEach((kind, i) => expect(rules[`c${i}`]!(ctx).matched, kind).toBe(chain(kind).value));
    const derive = (module['_COMPUTED']!['chains'] as Record<string, (ctx: unknown) => unknown>)['any_small']!;
    expect(derive(ctx)).toBe(chain('comparisons of sums').value);
    const appliesWhen = module['_RULE_APPLIES_WHEN']!['small'] as (ctx: unknown) => boolean;
    expect(appliesWhen(ctx)).toBe(chain('and').value);
  });
});
