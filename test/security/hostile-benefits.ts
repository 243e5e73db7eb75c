/**
 * The benefits example with one hostile predicate, for the sandbox host's tests: rule
 * `student_extension` misbehaves when the request's `documents` hold a marker, and answers as
 * written otherwise, so every other request has an exact in-process reference. Also how those
 * tests load modules into their pool and decide.
 */
import { buildWorld } from '@adec/compiler';
import { decide, loadModule, type Decision, type Isolation, type LoadedModule, type SandboxOptions, type SandboxProcessPool } from '@adec/runtime';
import { afterAll } from 'vitest';
import { loadWorldFromDir } from '../support/repo.js';
import { anywhere, asTestBundle, injectIntoBundle, type TestBundle } from '../support/runtime.js';

export const ACTION = 'add_dependent';
export const CULPRIT_RULE = 'student_extension';

/** Aborts its sandbox process: one allocation far past the isolate's memory limit. */
export const CRASHING = { relationship: 'child', dependent_age: 30, documents: ['CRASH'], full_time_student: true };
/** Never ends. */
export const LOOPING = { relationship: 'child', dependent_age: 30, documents: ['LOOP'], full_time_student: true };

/** The benefits bundle with CULPRIT_RULE running `statement` first when `documents` holds `marker`. */
function misbehavingWhen(bundle: TestBundle, marker: string, statement: string): TestBundle {
  return injectIntoBundle(
    bundle,
    `const original = m._RULE_FUNCTIONS.${CULPRIT_RULE};
m._RULE_FUNCTIONS.${CULPRIT_RULE} = (ctx) => {
  if (Array.isArray(ctx.documents) && ctx.documents.includes(${JSON.stringify(marker)})) ${statement};
  return original(ctx);
};`,
  );
}

/**
 * A predicate limit no loaded machine reaches, for tests of the host (crashes, budgets, moves)
 * whose answers must equal the in-process ones exactly. At the example's 5 ms, a 2-core CI
 * machine under load now and then times a predicate out (a garbage collection, a cold isolate),
 * and that decision's fail-safe YELLOW is not the reference's answer.
 */
export const UNHURRIED_LIMIT_MS = 50;

export async function crashingBenefits(): Promise<TestBundle> {
  return misbehavingWhen(await benefitsLimitedTo(UNHURRIED_LIMIT_MS), 'CRASH', 'new Array(2 ** 30).fill(1)');
}

/** The benefits world built with every predicate limited to `limitMs` (the example says 5 ms). */
export async function benefitsLimitedTo(limitMs: number): Promise<TestBundle> {
  const world = loadWorldFromDir('examples/benefits');
  const files = world.files.map((file) => ({ ...file, text: file.text.replace('timeout 5ms', `timeout ${limitMs}ms`) }));
  const built = await buildWorld({ ...world, files });
  if (built.artifacts === undefined) throw new Error(`the benefits world with a ${limitMs} ms limit does not build`);
  return asTestBundle(built.artifacts);
}

/** `benefitsLimitedTo(limitMs)`, its culprit looping on LOOPING. */
export async function loopingBenefits(limitMs: number): Promise<TestBundle> {
  return misbehavingWhen(await benefitsLimitedTo(limitMs), 'LOOP', 'for (;;) {}');
}

/** A loader into `pool` (or in-process) whose modules are disposed, and the pool closed, after the file's tests. */
export function loaderOn(pool: SandboxProcessPool, options: SandboxOptions = {}): (bundle: TestBundle, isolation: Isolation) => Promise<LoadedModule> {
  const modules: LoadedModule[] = [];
  afterAll(async () => {
    for (const module of modules) await module.evaluator.dispose();
    pool.close();
  });
  return async (bundle, isolation) => {
    const result = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { ...options, isolation }, pool);
    if (!result.ok) throw new Error(result.message);
    modules.push(result.module);
    return result.module;
  };
}

/** The decision of ACTION on `context`, request `index` (its id and time follow from it, so two isolations see the same request). */
export async function decided(module: LoadedModule, context: Record<string, unknown>, index: number): Promise<Decision> {
  const result = await decide(module, { action: ACTION, context }, { requestId: `r-${index}`, requestTime: Date.parse('2026-03-01T09:00:00Z') + index });
  if (!result.ok) throw new Error(result.error.message);
  return anywhere(result.decision);
}
