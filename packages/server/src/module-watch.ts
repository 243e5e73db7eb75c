/**
 * The host follows its bundle directory (the "loads signed, approved bundles from a
 * directory, reloads when a new approved version appears, refuses everything else with a
 * logged reason"): at start it loads every world version the store lists, then every
 * `intervalMs` it loads new ones and refreshes the loaded ones (`ModuleLoader.refresh`: a newer
 * approval replaces a module, a rollback or unverifiable bytes are refused while the verified
 * module keeps serving). Each change and each refusal is logged once, not at every pass.
 */
import type { DirectoryModuleStore, ModuleLoader, WorldKey } from '@adec/runtime';
import type { FastifyBaseLogger } from 'fastify';

export const DEFAULT_MODULE_SCAN_MS = 10_000;

export interface ModuleWatch {
  /** One pass: load new worlds, refresh loaded ones (tests and start-up await it). */
  readonly scan: () => Promise<void>;
  readonly stop: () => void;
}

export function watchModules(loader: ModuleLoader, store: DirectoryModuleStore, log: FastifyBaseLogger, intervalMs: number): ModuleWatch {
  /** The last thing logged per world, so that an unchanged refusal is not logged again. */
  const reported = new Map<string, string>();
  const report = (world: WorldKey, state: string, log: () => void) => {
    const key = worldName(world);
    if (reported.get(key) === state) return;
    reported.set(key, state);
    log();
  };
  let scanning: Promise<void> | undefined;
  const pass = async () => {
    /** Worlds the loader serves after the refresh (a refused replacement leaves one serving). */
    const served = new Set<string>();
    for (const outcome of await loader.refresh()) {
      const { world, result, moduleHash, error } = outcome;
      if (result !== 'unloaded') served.add(worldName(world));
      if (result === 'unchanged') report(world, `serving ${moduleHash}`, () => undefined);
      else if (result === 'replaced') report(world, `serving ${moduleHash}`, () => log.info({ world, moduleHash, replaced: outcome.replacedHash }, 'module replaced by a newer approved bundle'));
      else report(world, `${result} ${error?.code}`, () => log.warn({ world, result, serving: result === 'unloaded' ? null : moduleHash, code: error?.code }, `module ${result}: ${error?.message ?? ''}`));
    }
    for (const world of await store.list()) {
      if (served.has(worldName(world))) continue;
      const lookup = await loader.load(world);
      if (lookup.ok) report(world, `serving ${lookup.module.moduleHash}`, () => log.info({ world, moduleHash: lookup.module.moduleHash, preparation: lookup.module.preparation }, 'module loaded'));
      else report(world, `refused ${lookup.error.code}`, () => log.warn({ world, code: lookup.error.code }, `module refused: ${lookup.error.message}`));
    }
  };
  const scan = () => (scanning ??= pass().finally(() => (scanning = undefined)));
  const timer = setInterval(() => void scan(), intervalMs).unref();
  return { scan, stop: () => clearInterval(timer) };
}

function worldName(world: WorldKey): string {
  return `${world.org}/${world.domain}@${world.version}`;
}
