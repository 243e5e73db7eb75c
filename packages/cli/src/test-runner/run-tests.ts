/**
 * Runs every golden test of a built world against its bundle, loaded in this process with
 * the selection extension, in declaration order; then measures coverage.
 */
import type { BuildArtifacts, CheckedWorld } from '@adec/compiler';
import { loadModule } from '@adec/runtime';
import { SELECTION_EXTENSION } from '@adec/engine';
import { measureCoverage, type Coverage } from './coverage.js';
import { runAdjudicationTest } from './run-adjudication-test.js';
import { runSelectionTest } from './run-selection-test.js';
import type { TestOutcome } from './test-outcome.js';

export interface TestRun {
  readonly outcomes: readonly TestOutcome[];
  readonly coverage: Coverage;
}

export type TestRunResult = { readonly ok: true; readonly run: TestRun } | { readonly ok: false; readonly message: string };

export async function runWorldTests(world: CheckedWorld, artifacts: BuildArtifacts): Promise<TestRunResult> {
  const loaded = await loadModule(
    { manifest: artifacts.manifest as unknown as Readonly<Record<string, unknown>>, moduleHash: artifacts.manifest.module_hash, bundleSource: artifacts.bundle },
    { isolation: 'in-process', extensions: [SELECTION_EXTENSION] },
  );
  if (!loaded.ok) return { ok: false, message: `the built module could not be loaded: ${loaded.message}` };
  const module = loaded.module;
  try {
    const outcomes: TestOutcome[] = [];
    for (const [index, test] of world.tests.entries()) {
      // Sequential on purpose: one isolate, and request ids in declaration order.
      outcomes.push(test.kind === 'adjudication' ? await runAdjudicationTest(module, test, `test:${index + 1}`) : await runSelectionTest(module, test));
    }
    return { ok: true, run: { outcomes, coverage: measureCoverage(world, outcomes) } };
  } finally {
    await module.evaluator.dispose();
  }
}
