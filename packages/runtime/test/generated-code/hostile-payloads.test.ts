/**
 * Every hostile payload the test suites inject into bundles (grep `injectIntoBundle`) is refused
 * by the verifier of generated code, wherever it is put into the benefits bundle: appended as
 * the suites append it, as a statement inside the module, and — the placement the verifier must
 * read closest — in place of a rule function, where the generator's own functions stand. Each
 * refusal points into the injected text.
 */
import { verifyGeneratedCode } from '@adec/runtime';
import { beforeAll, describe, expect, test } from 'vitest';
import { asTestBundle, buildFixture, injectIntoBundle, type TestBundle } from '../../../../test/support/runtime.js';
import { describeVerdict, offsetOf, ruleFunctionSpan, spliced } from './verified-bundles.js';

/** Predicate bodies (statements of a function of `ctx`). */
const BODIES: readonly (readonly [origin: string, body: string])[] = [
  // packages/runtime/test/hostile-predicates.test.ts
  ['hostile-predicates: an infinite loop', 'for (;;) {}'],
  ['hostile-predicates: a catastrophic regex', 'return { matched: /^(a+)+$/.test("a".repeat(40) + "!") };'],
  ['hostile-predicates: heap exhaustion', 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));'],
  ['hostile-predicates: reaching for process', 'process.exit(3);'],
  ['hostile-predicates: reaching for require', 'return { matched: require("node:fs").existsSync("/") };'],
  ['hostile-predicates: globalThis.constructor', 'const g = globalThis.constructor.constructor("return this")(); return { matched: g.process.mainModule !== undefined };'],
  ['hostile-predicates: patching shared prototypes', '"use strict"; Array.prototype.includes = () => true; return { matched: true };'],
  ['hostile-predicates: mutating the context', '"use strict"; ctx.documents.length = 0; return { matched: true };'],
  ['hostile-predicates: a clock or randomness', 'return { matched: Date.now() > 0 || Math.random() > 0.5 };'],
  ['hostile-predicates: throwing', 'throw new Error("hostile failure");'],
  ['hostile-predicates and module-loader: a fatal V8 out-of-memory error', 'return { matched: new Array(2 ** 30).fill(1).length > 0 };'],
  // test/security/hostile-benefits.ts and sandbox-crash.test.ts
  ['hostile-benefits: crash', 'if (Array.isArray(ctx.documents) && ctx.documents.includes("CRASH")) new Array(2 ** 30).fill(1); return { matched: false };'],
  ['hostile-benefits: loop', 'if (Array.isArray(ctx.documents) && ctx.documents.includes("LOOP")) for (;;) {}; return { matched: false };'],
  // packages/runtime/test/replay-recorded-faults.test.ts, aggregation-conformance.test.ts
  ['replay-recorded-faults: a broken rule', 'throw new Error("broken rule");'],
  ['aggregation-conformance: a throwing rule', 'if (ctx.fire.includes("x")) throw new Error("x failed"); return { matched: false };'],
];

/** Conditions (expressions of `ctx`) a predicate answers. */
const CONDITIONS: readonly (readonly [origin: string, condition: string])[] = [
  // test/security/determinism.test.ts
  ['determinism: the clock through Intl', 'new Intl.DateTimeFormat("en", { timeStyle: "full" }).format().length % 2 === 0'],
  ['determinism: the time zone through Intl', 'Intl.DateTimeFormat().resolvedOptions().timeZone === "UTC"'],
  ['determinism: Date', 'Date.now() % 2 === 0'],
  ['determinism: new Date()', 'new Date().getSeconds() % 2 === 0'],
  ['determinism: performance', 'performance.now() % 2 > 1'],
  ["determinism: the host's clock", '((globalThis.__adec_clock?.applySync(undefined, []) ?? 0) % 2) > 1'],
  ['determinism: Math.random', 'Math.random() > 0.5'],
  ['determinism: RegExp legacy statics', '(/(\\w+)/.test(ctx.relationship), String(RegExp.$1) !== "child" && String(RegExp.lastMatch) !== "child")'],
  ['determinism: WeakRef', 'new WeakRef({}).deref() === undefined'],
  ['determinism: FinalizationRegistry', 'typeof new FinalizationRegistry(() => {}) === "object"'],
  ['determinism: SharedArrayBuffer and Atomics', 'Atomics.add(new Int32Array(new SharedArrayBuffer(4)), 0, 1) === 0'],
  ['determinism: a counter on the module', '(m.counter = (m.counter ?? 0) + 1) % 2 === 0'],
  ['determinism: a counter on a module table', '(m._RULE_READS.child_under_26.push("x"), m._RULE_READS.child_under_26.length % 2 === 0)'],
  ['determinism: a counter on the global object', '(globalThis.counter = (globalThis.counter ?? 0) + 1) % 2 === 0'],
  ['determinism: a counter on an intrinsic', '(Array.prototype.counter = (Array.prototype.counter ?? 0) + 1) % 2 === 0'],
  ['determinism: a write to the context', '(ctx.documents.push("x"), ctx.documents.length % 2 === 0)'],
  ['determinism: Error stack limits', '(Error.stackTraceLimit = (Error.stackTraceLimit ?? 0) + 1) % 2 === 0'],
  // test/security/bigint-and-strings.test.ts
  ['bigint: a BigInt literal', '2n ** 4000000n > 0n'],
  ['bigint: the BigInt function', 'typeof BigInt(1) === "bigint"'],
  ['bigint: BigInt through the global object', 'typeof globalThis["Big" + "Int"](1) === "bigint"'],
  ['bigint: 64-bit typed arrays', 'typeof new BigInt64Array(1)[0] === "bigint"'],
  ['bigint: unsigned 64-bit typed arrays', 'typeof BigUint64Array.of === "function"'],
  ["bigint: DataView's 64-bit reads", 'typeof new DataView(new ArrayBuffer(8)).getBigInt64(0) === "bigint"'],
  ["bigint: DataView's unsigned 64-bit reads", 'typeof new DataView(new ArrayBuffer(8)).getBigUint64(0) === "bigint"'],
  ['bigint: Function', 'typeof Function("return 1" + "n")() === "bigint"'],
  ['bigint: eval', 'typeof eval("1" + "n") === "bigint"'],
  ['bigint: eval through the global object', 'typeof globalThis["ev" + "al"]("1" + "n") === "bigint"'],
  ["bigint: a function's constructor", 'typeof (() => 0).constructor("return 1" + "n")() === "bigint"'],
  ["bigint: an async function's constructor", 'typeof (async () => 0).constructor("return 1" + "n") === "function"'],
  ["bigint: a generator's constructor", 'typeof (function* () {}).constructor("yield 1" + "n") === "function"'],
  ["bigint: an async generator's constructor", 'typeof (async function* () {}).constructor("yield 1" + "n") === "function"'],
  ['bigint: the constructor reached by name', 'typeof Object.getPrototypeOf(() => 0)["construct" + "or"]("return 1" + "n")() === "bigint"'],
  ['bigint: a rope doubled by +', '(() => { let s = ctx.relationship; for (let i = 0; i < 25; i++) s = s + s; return s.indexOf("z") < 0; })()'],
  ['bigint: a rope doubled by a template', '(() => { let s = ctx.relationship; for (let i = 0; i < 25; i++) s = `${s}${s}`; return s.indexOf("z") < 0; })()'],
  ['bigint: repeat', 'ctx.relationship.repeat(2 ** 26).indexOf("z") < 0'],
  ['bigint: padStart', '"".padStart(2 ** 28, ctx.relationship).indexOf("z") < 0'],
  ['bigint: join over a sparse array', '(() => { const a = []; a.length = 2 ** 26; return a.join(ctx.relationship).indexOf("z") < 0; })()'],
  ['bigint: replaceAll', 'ctx.relationship.repeat(2 ** 13).replaceAll("c", "c".repeat(2 ** 14)).indexOf("z") < 0'],
  ['bigint: JSON.stringify', 'JSON.stringify(ctx.relationship.repeat(2 ** 26)).indexOf("z") < 0'],
];

/** Whole scripts run with the module as `m`, as the suites inject them. */
const SCRIPTS: readonly (readonly [origin: string, script: string])[] = [
  ['module-refresh, module-watch, deploy: a revision mark', 'm.__revision = 2;'],
  ['rollback-revocation: a comment', '/* rebuilt */'],
  ['durations: an older module', 'for (const action of Object.values(m._ACTIONS)) delete action.durations;'],
  ['module-loader: a loop at load', 'for (;;) {}'],
  ['starved-attribution: a looping rule', 'm._RULE_FUNCTIONS.student_extension = () => { for (;;) {} };'],
  ['hostile-predicates: a throwing derivation', 'm._COMPUTED.add_dependent.over_age = () => { throw new RangeError("no age table"); };'],
  ['hostile-predicates: a longer time limit', 'm._ACTIONS.add_dependent.rule_timeout_ms.student_extension = 1000;'],
  [
    'sandbox-crash: a crash in place of a function',
    'const original = m._RULE_FUNCTIONS.student_extension;\nm._RULE_FUNCTIONS.student_extension = (ctx) => {\n  if (Array.isArray(ctx.documents) && ctx.documents.includes("CRASH")) new Array(2 ** 30).fill(1);\n  return original(ctx);\n};',
  ],
  [
    'replay-recorded-faults: slow at first',
    'let slowRuns = 3;\nconst original = m._RULE_FUNCTIONS.student_extension;\nm._RULE_FUNCTIONS.student_extension = (ctx) => {\n  if (slowRuns > 0) { slowRuns -= 1; for (;;) {} }\n  return original(ctx);\n};',
  ],
  [
    'aggregation-conformance: throwing rules',
    'const throwsWhenFired = (id) => (ctx) => {\n  if (ctx.fire.includes(id)) throw new Error(id + " failed");\n  return { matched: false };\n};\nfor (const id of ["t2_throws"]) m._RULE_FUNCTIONS[id] = throwsWhenFired(id);',
  ],
  ['engine function-errors: a looping objective', 'm._SCENARIOS.lab.objectives[0].score = (env, action) => { if (action.action_id === "loop") for (;;) {} return 0.5; };'],
];

const RULE = 'child_under_26';

let benefits: TestBundle;
beforeAll(async () => {
  benefits = asTestBundle(await buildFixture('examples/benefits'));
});

/** The verdict on `bundle` is a refusal pointing at or after `from`, within `to`. */
function expectRefusedWithin(bundle: string, from: number, to: number): void {
  const verdict = verifyGeneratedCode(bundle);
  expect(verdict.ok, 'accepted').toBe(false);
  if (verdict.ok) return;
  const at = offsetOf(bundle, verdict.line, verdict.column);
  expect(at >= from && at <= to, `the refusal points outside the injected code:\n${describeVerdict(bundle, verdict)}`).toBe(true);
}

/** `text` as a statement of the module, just before its `return`. */
function insideModule(text: string): { bundle: string; from: number; to: number } {
  const bundle = benefits.bundle;
  const at = bundle.lastIndexOf('  return __toCommonJS(module_exports);');
  return { bundle: spliced(bundle, at, at, `${text}\n`), from: at, to: at + text.length };
}

/** `fn` in place of the rule's function in `_RULE_FUNCTIONS`. */
function inPlaceOfRule(fn: string): { bundle: string; from: number; to: number } {
  const { start, end } = ruleFunctionSpan(benefits.bundle, RULE);
  return { bundle: spliced(benefits.bundle, start, end, fn), from: start, to: start + fn.length };
}

function appended(script: string): { bundle: string; from: number; to: number } {
  const bundle = injectIntoBundle(benefits, script).bundle;
  return { bundle, from: benefits.bundle.length, to: bundle.length };
}

describe('hostile payloads of the test suites are refused', () => {
  test('the benefits bundle itself is accepted', () => {
    expect(describeVerdict(benefits.bundle)).toBe('accepted');
  });

  describe.each(BODIES)('a predicate body: %s', (_origin, body) => {
    test.each([
      ['appended', () => appended(`m._RULE_FUNCTIONS.${RULE} = (ctx) => { ${body} };`)],
      ['inside the module', () => insideModule(`((m) => { m._RULE_FUNCTIONS.${RULE} = (ctx) => { ${body} }; })(module_exports);`)],
      ['in place of a rule function', () => inPlaceOfRule(`(ctx) => { ${body} }`)],
      ['called from a rule condition', () => inPlaceOfRule(`(ctx) => (() => { ${body} })() ? MATCHED : NOT_MATCHED`)],
    ])('%s', (_placement, place) => {
      const { bundle, from, to } = place();
      expectRefusedWithin(bundle, from, to);
    });
  });

  describe.each(CONDITIONS)('a condition: %s', (_origin, condition) => {
    test.each([
      ['appended', () => appended(`m._RULE_FUNCTIONS.${RULE} = (ctx) => ({ matched: ${condition} });`)],
      ['as a rule condition', () => inPlaceOfRule(`(ctx) => (${condition}) ? MATCHED : NOT_MATCHED`)],
      ['in a rule reason', () => inPlaceOfRule(`(ctx) => ctx.is_child ? { matched: true, reason: \`\${String(${condition})}\` } : NOT_MATCHED`)],
    ])('%s', (_placement, place) => {
      const { bundle, from, to } = place();
      expectRefusedWithin(bundle, from, to);
    });
  });

  describe.each(SCRIPTS)('a script: %s', (_origin, script) => {
    test.each([
      ['appended', () => appended(script)],
      ['inside the module', () => insideModule(`((m) => {\n${script}\n})(module_exports);`)],
    ])('%s', (_placement, place) => {
      const { bundle, from, to } = place();
      expectRefusedWithin(bundle, from, to);
    });
  });
});
