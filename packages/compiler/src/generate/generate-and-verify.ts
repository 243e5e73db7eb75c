import type { CheckedWorld } from '../model/index.js';
import { generateModule, type ModuleProvenance } from './generate-module.js';
import { verifyGeneratedModule } from './typecheck-module.js';

/** A generated module and what its own checks found (empty when it may be bundled). */
export interface GeneratedModule {
  readonly source: string;
  /** Forbidden constructs and type errors: each one is a bug in adec, not in the world. */
  readonly problems: readonly string[];
}

/** Pipeline step 3: generate the module with ts-morph, then verify it (static + type check). */
export function generateAndVerify(world: CheckedWorld, provenance: ModuleProvenance): GeneratedModule {
  const source = generateModule(world, provenance);
  return { source, problems: verifyGeneratedModule(source) };
}

/** How a build generates its module: `generateLazily` unless a caller supplies another. */
export type ModuleGenerator = (world: CheckedWorld, provenance: ModuleProvenance) => Promise<GeneratedModule>;
