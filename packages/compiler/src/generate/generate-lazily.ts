/**
 * The build's default module generator. It loads the generator, and with it ts-morph (which
 * carries TypeScript 6, about 0.3 s to load) and the TypeScript 7 checker, only when a world
 * without errors needs a module, so `adec check` and failed builds never pay for them.
 *
 * Measured and rejected: generating on a worker thread started with the build, so TypeScript
 * loads and warms up while the main thread parses and checks. On this project's 2-vCPU
 * machines the two threads share one physical core; the main thread slowed as much as the
 * worker gained, and 1,000-rule builds took the same time either way (bench/RESULTS.md).
 */
import type { ModuleGenerator } from './generate-and-verify.js';

export const generateLazily: ModuleGenerator = async (world, provenance) =>
  (await import('./generate-and-verify.js')).generateAndVerify(world, provenance);
