/**
 * A sandbox that dies always comes back (issue 12, finding 2). A predicate that kills its
 * sandbox process (a fatal V8 out-of-memory error) while it runs — the first, a middle or the
 * last rule of an action, a derived attribute, an `applies_when`, a suppressing rule — gets the
 * crash attributed to exactly it in the decision's metadata; the host reloads the module; and
 * the next 100 decisions equal the in-process answers of the same bundle. Before, a crash in
 * the last rule or a derivation left the process without a module: every later decision was
 * YELLOW "no module is loaded". A module that keeps killing its process is quarantined: its
 * decisions are a fail-safe YELLOW that says why, and the host keeps serving other modules.
 */
import { decide, loadModule, type LoadedModule } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { CRASH_LOOP_LIMIT } from '../../packages/runtime/src/sandbox/process-evaluator.js';
import { anywhere, buildFixture, injectIntoBundle, type TestBundle } from '../support/runtime.js';
import { requestFor, type ContextSchema } from './schema-requests.js';
import { benefitsLimitedTo, UNHURRIED_LIMIT_MS } from './hostile-benefits.js';

const ACTION = 'add_dependent';
/** A request that fires the injected crash: the action reads `documents`, so it crosses. */
const CRASHING = { relationship: 'child', dependent_age: 30, documents: ['CRASH'], full_time_student: true };
/** The same for the rules that apply only to partners. */
const CRASHING_PARTNER = { relationship: 'spouse', dependent_age: 30, documents: ['CRASH'] };

/** `m.<registry>.<id>` runs as before, except that it kills its process on a CRASH document. */
function crashIn(registry: string, id: string): string {
  return `
const original = m.${registry}.${id};
m.${registry}.${id} = (ctx) => {
  if (Array.isArray(ctx.documents) && ctx.documents.includes("CRASH")) new Array(2 ** 30).fill(1);
  return original(ctx);
};`;
}

const loaded: LoadedModule[] = [];
afterAll(async () => {
  for (const module of loaded) await module.evaluator.dispose();
});

async function load(bundle: TestBundle, isolation: 'process' | 'in-process'): Promise<LoadedModule> {
  const result = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation });
  if (!result.ok) throw new Error(result.message);
  loaded.push(result.module);
  return result.module;
}

async function benefits(): Promise<TestBundle> {
  return benefitsLimitedTo(UNHURRIED_LIMIT_MS);
}

/** 100 requests that never fire the crash, from the action's signed context schema. */
async function ordinaryRequests(): Promise<readonly Record<string, unknown>[]> {
  const built = await buildFixture('examples/benefits');
  const schema = built.manifest.actions[ACTION]!.context_schema as unknown as ContextSchema;
  return fc.sample(requestFor(schema), { seed: 20_261_125, numRuns: 100 }).filter((ctx) => !JSON.stringify(ctx).includes('CRASH'));
}

const POSITIONS = [
  { name: 'the first rule', registry: '_RULE_FUNCTIONS', id: 'terminated_employee_cannot_add', rule: 'terminated_employee_cannot_add' },
  { name: 'a middle rule', registry: '_RULE_FUNCTIONS', id: 'student_extension', rule: 'student_extension' },
  { name: 'the last rule', registry: '_RULE_FUNCTIONS', id: 'relationship_undocumented', rule: 'relationship_undocumented', context: CRASHING_PARTNER },
  { name: 'an applies_when', registry: '_RULE_APPLIES_WHEN', id: 'disabled_adult_child', rule: 'disabled_adult_child' },
  { name: 'a suppressing rule', registry: '_RULE_FUNCTIONS', id: 'dependent_already_covered', rule: 'dependent_already_covered' },
  { name: 'a derived attribute', registry: '_COMPUTED.add_dependent', id: 'over_age', derivation: 'over_age' },
] as const;

describe('a crash at every position is attributed, and the module comes back exact', () => {
  test.each(POSITIONS)('$name', async (position) => {
    const bundle = injectIntoBundle(await benefits(), crashIn(position.registry, position.id));
    const sandboxed = await load(bundle, 'process');
    const reference = await load(bundle, 'in-process');

    const context = 'context' in position ? position.context : CRASHING;
    const crashed = await decide(sandboxed, { action: ACTION, context }, { requestId: 'crash', requestTime: Date.parse('2026-03-01T09:00:00Z') });
    if (!crashed.ok) throw new Error(crashed.error.message);
    const { status, decision_metadata: metadata } = crashed.decision;
    expect(['YELLOW', 'RED']).toContain(status);
    if ('rule' in position) {
      expect(metadata.errored_predicates.map((e) => [e.rule_id, e.kind])).toEqual([[position.rule, 'crash']]);
      expect(metadata.errored_derivations).toEqual([]);
    } else {
      expect(metadata.errored_derivations.filter((d) => d.kind === 'crash').map((d) => d.attribute)).toEqual([position.derivation]);
      // What reads the derivation errors (reading it throws, naming it); nothing else is blamed for the crash.
      for (const failure of [...metadata.errored_derivations.filter((d) => d.kind !== 'crash'), ...metadata.errored_predicates]) {
        expect(failure.kind).toBe('exception');
        expect(failure.message).toContain(position.derivation);
      }
    }
    expect(metadata.errored_predicates[0]?.message ?? metadata.errored_derivations[0]?.message).toMatch(/the sandbox process (died|stopped responding).*; the sandbox process was restarted/);

    for (const [index, context] of (await ordinaryRequests()).entries()) {
      const entry = { requestId: `after-${index}`, requestTime: Date.parse('2026-03-01T09:00:00Z') + index };
      const expected = await decide(reference, { action: ACTION, context }, entry);
      const actual = await decide(sandboxed, { action: ACTION, context }, entry);
      expect(anywhere(actual), JSON.stringify(context)).toEqual(anywhere(expected));
    }
  });
});

describe('a module that keeps killing its process', () => {
  test(`is quarantined after ${CRASH_LOOP_LIMIT} crashed decisions; the host keeps serving other modules`, async () => {
    const bundle = injectIntoBundle(await benefits(), crashIn('_RULE_FUNCTIONS', 'terminated_employee_cannot_add'));
    const doomed = await load(bundle, 'process');
    const healthy = await load(await benefits(), 'process');
    for (let i = 0; i < CRASH_LOOP_LIMIT; i++) {
      const result = await decide(doomed, { action: ACTION, context: CRASHING });
      // The crash is an errored predicate: the decision is at least YELLOW (here a t1 RED matched too).
      expect(result.ok && ['YELLOW', 'RED'].includes(result.decision.status)).toBe(true);
    }
    // Quarantined: even a request that would not crash is a fail-safe YELLOW naming why, at once.
    const after = await decide(doomed, { action: ACTION, context: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } });
    expect(after.ok && after.decision.status).toBe('YELLOW');
    const errors = after.ok ? after.decision.decision_metadata.errored_predicates : [];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.kind === 'crash' && /quarantined: its sandbox process died in 5 decisions within 60 s/.test(e.message))).toBe(true);

    const served = await decide(healthy, { action: ACTION, context: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } });
    expect(served.ok && [served.decision.status, served.decision.decision_metadata.aggregation_outcome.winning_rule]).toEqual(['GREEN', 'child_under_26']);
  });
});
