/**
 * Whether a typo the checker accepts still leaves a world its authors would keep: built, and
 * every one of its tests passing under `adec test`'s runner. A model's reply in a skill test is
 * such a place: a model may answer anything, so a reply with a mistyped key that the test's
 * expectations still hold for (`expect skill validation failed "STUDY-001"`) is another reply, and
 * the world stays valid. A typo whose world fails a test is still counted as accepted: the
 * checker let through a world that does not do what its tests say.
 */
import { buildWorld, type WorldSources } from '@adec/compiler';
import { runWorldTests } from '../../packages/cli/src/test-runner/run-tests.js';
import { applyMutation, type TypoVerdict } from './typo-mutations.js';

/** `verdict` as judged, or, when it was accepted and the world's tests all still pass, a valid world. */
export async function withWorldTests(world: WorldSources, verdict: TypoVerdict): Promise<TypoVerdict> {
  if (verdict.outcome !== 'accepted') return verdict;
  return (await testsPass(applyMutation(world, verdict.mutation))) ? { ...verdict, outcome: 'passes its tests' } : verdict;
}

async function testsPass(world: WorldSources): Promise<boolean> {
  const built = await buildWorld(world);
  if (built.world === undefined || built.artifacts === undefined) return false;
  const result = await runWorldTests(built.world, built.artifacts);
  return result.ok && result.run.outcomes.every((outcome) => outcome.passed);
}
