/**
 * Runs the golden tests of a built world (all, or those `--filter` selects) against its bundle,
 * loaded in this process with the selection extension, in declaration order; then measures
 * coverage.
 */
import type { BuildArtifacts, CheckedScenario, CheckedSkill, CheckedTest, CheckedWorld } from '@adec/compiler';
import { loadBuiltModule } from '../built-module.js';
import { measureCoverage, type Coverage } from './coverage.js';
import { runAdjudicationTest } from './run-adjudication-test.js';
import { runSelectionTest } from './run-selection-test.js';
import type { TestOutcome } from './test-outcome.js';
import { testMatches } from './test-filter.js';

export interface TestRun {
  readonly outcomes: readonly TestOutcome[];
  readonly coverage: Coverage;
  /** `--filter`: the pattern, and how many of the world's tests it left out. */
  readonly filter: { readonly pattern: string; readonly skipped: number } | null;
}

export type TestRunResult = { readonly ok: true; readonly run: TestRun } | { readonly ok: false; readonly message: string };

/** Runs the tests `filter` selects (testMatches), or all of them; when it selects none, nothing runs. */
export async function runWorldTests(world: CheckedWorld, artifacts: BuildArtifacts, filter?: string): Promise<TestRunResult> {
  const selected = (test: CheckedTest) => filter === undefined || testMatches(test, filter);
  const count = world.tests.filter(selected).length;
  if (count === 0 && filter !== undefined) return { ok: false, message: `no test matches --filter \`${filter}\` (by name, action or scenario)` };
  const loaded = await loadBuiltModule(artifacts);
  if (!loaded.ok) return { ok: false, message: `the built module could not be loaded: ${loaded.message}` };
  const module = loaded.module;
  try {
    const outcomes: TestOutcome[] = [];
    for (const [index, test] of world.tests.entries()) {
      if (!selected(test)) continue;
      // Sequential on purpose: one isolate, and request ids in declaration order (a filtered test keeps its own).
      outcomes.push(test.kind === 'adjudication' ? await runAdjudicationTest(module, test, `test:${index + 1}`) : await runSelectionTest(module, test));
    }
    if (filter === undefined) return { ok: true, run: { outcomes, coverage: measureCoverage(world, outcomes), filter: null } };
    // Filtered, coverage counts the actions and scenarios the selected tests decide, not the whole world.
    const tested = new Set(outcomes.map((o) => (o.kind === 'adjudication' ? o.action : o.scenario)));
    const scenarios = world.scenarios.filter((s) => tested.has(s.id));
    const reached = { ...world, actions: world.actions.filter((a) => tested.has(a.name)), scenarios, skills: skillsOf(scenarios, world.skills) };
    return { ok: true, run: { outcomes, coverage: measureCoverage(reached, outcomes), filter: { pattern: filter, skipped: world.tests.length - count } } };
  } finally {
    await module.evaluator.dispose();
  }
}

/** The skills the scenarios' action types name, with their fallbacks: those a selection in them can render. */
function skillsOf(scenarios: readonly CheckedScenario[], skills: readonly CheckedSkill[]): CheckedSkill[] {
  const named = new Set(scenarios.flatMap((s) => s.actionTypes.flatMap((t) => (t.skill === undefined ? [] : [t.skill]))));
  for (const skill of skills) if (named.has(skill.id) && skill.fallback !== undefined) named.add(skill.fallback);
  return skills.filter((s) => named.has(s.id));
}
