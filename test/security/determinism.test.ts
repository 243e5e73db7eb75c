/**
 * Identical requests get identical decisions (issue 12, finding 7). Hostile predicates try every
 * source of time, randomness, environment and cross-decision state a sandbox could leak — the
 * clock through `Intl` date formatting (which used to work), `Date`, `performance`,
 * `Math.random`, the host's time zone, RegExp's legacy statics (the last match of the previous
 * decision, which used to leak), the garbage collector, shared memory, and writes to the module,
 * its tables, the context and the global object — and each is decided repeatedly, in both
 * isolations and across reloads: every decision must equal the first.
 *
 * What freezing cannot reach: a closure variable of a compromised bundle (`let n = 0` beside a
 * predicate). adec-built bundles have none (the build checks the bundle's declarations), and
 * SECURITY.md says so.
 */
import { decide, loadModule, type Decision, type Isolation, type LoadedModule } from '@adec/runtime';
import { afterAll, describe, expect, test } from 'vitest';
import { anywhere, asTestBundle, buildFixture, injectIntoBundle, type TestBundle } from '../support/runtime.js';

const ACTION = 'add_dependent';
const CONTEXT = { relationship: 'child', dependent_age: 12, documents: ['birth_certificate'] };
const ENTRY = { requestId: 'same', requestTime: Date.parse('2026-03-01T09:00:00Z') };

/** Each replaces `child_under_26` (the rule that decides CONTEXT) with a predicate that tries one leak. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['the clock through Intl', 'new Intl.DateTimeFormat("en", { timeStyle: "full" }).format().length % 2 === 0'],
  ['the time zone through Intl', 'Intl.DateTimeFormat().resolvedOptions().timeZone === "UTC"'],
  ['Date', 'Date.now() % 2 === 0'],
  ['new Date()', 'new Date().getSeconds() % 2 === 0'],
  ['performance', 'performance.now() % 2 > 1'],
  ["the host's clock given to trusted extensions", '((globalThis.__adec_clock?.applySync(undefined, []) ?? 0) % 2) > 1'],
  ['Math.random', 'Math.random() > 0.5'],
  ['RegExp legacy statics', '(/(\\\\w+)/.test(ctx.relationship), String(RegExp.$1) !== "child" && String(RegExp.lastMatch) !== "child")'],
  ['WeakRef', 'new WeakRef({}).deref() === undefined'],
  ['FinalizationRegistry', 'typeof new FinalizationRegistry(() => {}) === "object"'],
  ['SharedArrayBuffer and Atomics', 'Atomics.add(new Int32Array(new SharedArrayBuffer(4)), 0, 1) === 0'],
  ['a counter on the module', '(m.counter = (m.counter ?? 0) + 1) % 2 === 0'],
  ['a counter on a module table', '(m._RULE_READS.child_under_26.push("x"), m._RULE_READS.child_under_26.length % 2 === 0)'],
  ['a counter on the global object', '(globalThis.counter = (globalThis.counter ?? 0) + 1) % 2 === 0'],
  ['a counter on an intrinsic', '(Array.prototype.counter = (Array.prototype.counter ?? 0) + 1) % 2 === 0'],
  ['a write to the context', '(ctx.documents.push("x"), ctx.documents.length % 2 === 0)'],
  ['Error stack limits', '(Error.stackTraceLimit = (Error.stackTraceLimit ?? 0) + 1) % 2 === 0'],
];

const modules: LoadedModule[] = [];
afterAll(async () => {
  for (const module of modules) await module.evaluator.dispose();
});

async function load(bundle: TestBundle, isolation: Isolation): Promise<LoadedModule> {
  const loaded = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation });
  if (!loaded.ok) throw new Error(loaded.message);
  modules.push(loaded.module);
  return loaded.module;
}

async function decided(module: LoadedModule): Promise<Decision> {
  const result = await decide(module, { action: ACTION, context: CONTEXT }, ENTRY);
  if (!result.ok) throw new Error(result.error.message);
  return anywhere(result.decision);
}

describe('hostile predicates cannot make identical requests decide differently', () => {
  test.each(HOSTILE)('%s', async (_name, condition) => {
    const bundle = injectIntoBundle(asTestBundle(await buildFixture('examples/benefits')), `m._RULE_FUNCTIONS.child_under_26 = (ctx) => ({ matched: ${condition} });`);
    const decisions: Decision[] = [];
    for (const isolation of ['in-process', 'process', 'in-process'] as const) {
      // A fresh load each time: the same answers across reloads and processes.
      const module = await load(bundle, isolation);
      for (let i = 0; i < 4; i++) decisions.push(await decided(module));
    }
    for (const decision of decisions) expect(decision).toEqual(decisions[0]);
  });
});
