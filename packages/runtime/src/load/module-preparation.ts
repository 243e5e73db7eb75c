/**
 * What a host prepares when a module loads, beyond the runtime's own parts (metadata, context
 * binders). The engine, for one, reads and compiles everything a selection needs and runs its
 * checking code once (docs/spec/selection.md §7), so that the first request after a load does
 * no more work than any other. Preparing is part of the load: it runs before the module is
 * handed out, and its time is the load's, reported with the module.
 */
import type { LoadedModule } from './loaded-module.js';

/** Prepares `module` (not yet serving anything) and says what it prepared. Never throws for a module's fault. */
export type PrepareModule = (module: LoadedModule) => Promise<ModulePreparation>;

export interface ModulePreparation {
  /** Wall time of the preparation, in ms. */
  readonly durationMs: number;
  /** What was prepared, counted by kind (`scenarios: 1`, `output_schemas: 2`, …). */
  readonly prepared: Readonly<Record<string, number>>;
  /**
   * Why something could not be prepared, or null. The module still loads: a request that needs
   * what is missing meets the same problem and is answered with it.
   */
  readonly problem: string | null;
}
