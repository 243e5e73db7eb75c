/**
 * Hostile predicates (ARCHITECTURE.md "Sandbox"), injected as raw JavaScript into the benefits
 * bundle through the test-only path, since the language cannot express them. Each must become
 * its own `errored_predicates` entry, raise the status to at least YELLOW, leave every other
 * rule's result intact, and leave the host deciding correctly afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decide, type Decision, type Isolation, type LoadedModule } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, loadTestBundle, type TestBundle } from '../../../test/support/runtime.js';

const HOSTILE_RULE = 'dependent_already_covered';
const ADD_CHILD = { action: 'add_dependent', context: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } };
const CHANGE_PLAN = { action: 'change_plan', context: { current_plan: 'silver', requested_plan: 'gold', open_enrollment: true } };

interface Hostile {
  readonly body: string;
  readonly kind: 'exception' | 'timeout' | 'memory' | 'crash';
  readonly message: RegExp;
  /** Injected too: e.g. a per-rule time limit long enough for the heap to run out first. */
  readonly setup?: string;
}

const HOSTILE: Readonly<Record<string, Hostile>> = {
  'an infinite loop': { body: 'for (;;) {}', kind: 'timeout', message: /exceeded its time limit of 5 ms/ },
  'a catastrophic regex': { body: 'return { matched: /^(a+)+$/.test("a".repeat(40) + "!") };', kind: 'timeout', message: /time limit/ },
  'heap exhaustion': {
    body: 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));',
    setup: `m._ACTIONS.add_dependent.rule_timeout_ms.${HOSTILE_RULE} = 1000;`,
    kind: 'memory',
    message: /exhausted the sandbox memory limit of 32 MiB; the isolate was rebuilt/,
  },
  'heap exhaustion within its time limit': {
    body: 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(hoard.length));',
    kind: 'timeout',
    message: /exceeded its time limit of 5 ms/,
  },
  'reaching for process': { body: 'process.exit(3);', kind: 'exception', message: /ReferenceError: process is not defined/ },
  'reaching for require': { body: 'return { matched: require("node:fs").existsSync("/") };', kind: 'exception', message: /ReferenceError: require is not defined/ },
  'reaching through globalThis.constructor': {
    body: 'const g = globalThis.constructor.constructor("return this")(); return { matched: g.process.mainModule !== undefined };',
    kind: 'exception',
    // The Function constructor is gone from every function (no code generation from strings).
    message: /TypeError: globalThis\.constructor\.constructor is not a function/,
  },
  'patching shared prototypes': {
    body: '"use strict"; Array.prototype.includes = () => true; return { matched: true };',
    kind: 'exception',
    message: /TypeError: Cannot assign to read only property 'includes'/,
  },
  'mutating the context other rules read': {
    body: '"use strict"; ctx.documents.length = 0; return { matched: true };',
    kind: 'exception',
    message: /TypeError: Cannot (assign to read only|add) property/,
  },
  'reading a clock or randomness': { body: 'return { matched: Date.now() > 0 || Math.random() > 0.5 };', kind: 'exception', message: /ReferenceError: Date is not defined/ },
  'throwing': { body: 'throw new Error("hostile failure");', kind: 'exception', message: /^Error: hostile failure$/ },
};

let built: TestBundle;
let baseline: LoadedModule;

beforeAll(async () => {
  built = asTestBundle(await buildFixture('examples/benefits'));
  baseline = await loadTestBundle(built);
});
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => baseline?.evaluator.dispose());

async function run(module: LoadedModule, request: { readonly action: string; readonly context: Readonly<Record<string, unknown>> }): Promise<Decision> {
  const result = await decide(module, request, { requestId: 'r-1', requestTime: Date.parse('2026-06-01T12:00:00Z') });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

// A fatal V8 out-of-memory error: isolated-vm cannot contain it, so only a supervised sandbox
// process can (measured: it aborts or wedges the process that hosts the isolate).
const FATAL: Hostile = { body: 'return { matched: new Array(2 ** 30).fill(1).length > 0 };', kind: 'crash', message: /the sandbox process (died|stopped responding).*; the sandbox process was restarted/ };

const CASES: readonly (readonly [string, Isolation, Hostile])[] = [
  ...(['in-process', 'process'] as const).flatMap((isolation) => Object.entries(HOSTILE).map(([name, hostile]) => [name, isolation, hostile] as const)),
  ['a fatal V8 out-of-memory error', 'process', FATAL],
];

describe.each(CASES)('a predicate with %s (%s isolation)', (_name, isolation, hostile) => {
  let module: LoadedModule;
  beforeAll(async () => {
    module = await loadTestBundle(injectIntoBundle(built, `m._RULE_FUNCTIONS.${HOSTILE_RULE} = (ctx) => { ${hostile.body} };\n${hostile.setup ?? ''}`), isolation);
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => module?.evaluator.dispose());

  test('is its own errored entry; the status is at least YELLOW; every other rule is intact', async () => {
    const expected = await run(baseline, ADD_CHILD);
    const decision = await run(module, ADD_CHILD);
    const errored = decision.decision_metadata.errored_predicates;
    expect(errored.map((e) => [e.rule_id, e.kind])).toEqual([[HOSTILE_RULE, hostile.kind]]);
    expect(errored[0]!.message).toMatch(hostile.message);
    expect(decision.status).toBe('YELLOW');
    expect(decision.decision_metadata.aggregation_outcome).toMatchObject({ winning_rule: 'child_under_26', error_floor_applied: true });
    const others = (d: Decision) => d.decision_metadata.predicate_traces.filter((t) => t.rule_id !== HOSTILE_RULE);
    expect(others(decision)).toEqual(others(expected));
  });

  test('the next decisions on the same host are correct', async () => {
    await run(module, ADD_CHILD);
    const other = await run(module, CHANGE_PLAN);
    const expected = await run(baseline, CHANGE_PLAN);
    expect(other.status).toBe(expected.status);
    expect(other.decision_metadata.predicate_traces).toEqual(expected.decision_metadata.predicate_traces);
    expect(other.decision_metadata.errored_predicates).toEqual([]);
    const again = await run(module, ADD_CHILD);
    expect(again.decision_metadata.errored_predicates.map((e) => e.rule_id)).toEqual([HOSTILE_RULE]);
    expect(again.status).toBe('YELLOW');
  });
});

describe('a computed attribute whose derivation throws', () => {
  test('errors exactly the rules that read it and raises the status to YELLOW', async () => {
    const module = await loadTestBundle(injectIntoBundle(built, 'm._COMPUTED.add_dependent.over_age = () => { throw new RangeError("no age table"); };'));
    try {
      const decision = await run(module, { ...ADD_CHILD, context: { ...ADD_CHILD.context, already_on_plan: true } });
      const meta = decision.decision_metadata;
      // A derivation that reads the failed one fails too, naming the cause.
      expect(meta.errored_derivations).toEqual([
        { attribute: 'over_age', kind: 'exception', message: 'RangeError: no age table' },
        { attribute: 'student_extension_eligible', kind: 'exception', message: 'Error: reads computed attribute `over_age`, whose derivation failed: RangeError: no age table' },
      ]);
      // Rules reading over_age (directly or through student_extension_eligible) error; the rest decide.
      expect(meta.errored_predicates.map((e) => e.rule_id)).toEqual(['ineligible_over_age', 'child_under_26', 'student_extension', 'disabled_adult_child']);
      expect(meta.errored_predicates[1]!.message).toMatch(/reads computed attribute `over_age`, whose derivation failed: RangeError: no age table/);
      expect(meta.matched_rules).toEqual(['dependent_already_covered']);
      expect(decision.status).toBe('YELLOW');
    } finally {
      await module.evaluator.dispose();
    }
  });
});
