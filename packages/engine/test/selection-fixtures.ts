/**
 * Helpers for the engine tests: load a built world (or a bundle with injected JavaScript) into
 * a real isolate with the selection extension, and the candidate actions the lab world's tests
 * share.
 */
import { loadModule, type LoadedModule } from '@adec/runtime';
import { SELECTION_EXTENSION, select, type CandidateAction, type Selection, type SelectionRequest } from '@adec/engine';
import { asTestBundle, buildFixture, injectIntoBundle, type TestBundle } from '../../../test/support/runtime.js';

export const LAB_WORLD = 'packages/engine/test/worlds/selection-lab';

/** Loads a bundle in this process, with the selection extension unless told otherwise. */
export async function loadForSelection(bundle: TestBundle, extensions: readonly string[] = [SELECTION_EXTENSION]): Promise<LoadedModule> {
  const loaded = await loadModule(
    { manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle },
    { isolation: 'in-process', extensions },
  );
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.module;
}

/** Builds a world (once per test file) and loads it; `javascript` is injected first when given. */
export async function loadWorld(pathFromRepo: string, javascript?: string): Promise<LoadedModule> {
  const bundle = asTestBundle(await buildFixture(pathFromRepo));
  return loadForSelection(javascript === undefined ? bundle : injectIntoBundle(bundle, javascript));
}

/** Selects, failing the test with the error when there is one. */
export async function selectOk(module: LoadedModule, request: SelectionRequest): Promise<Selection> {
  const result = await select(module, request, 1_000);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.selection;
}

export function task(action_id: string, effort: number, priority: 'low' | 'high', label = action_id): CandidateAction {
  return { action_id, type: 'task', effort, priority, label };
}

export function call(action_id: string, minutes: number, label = action_id): CandidateAction {
  return { action_id, type: 'call', minutes, label };
}

export function pause(action_id: string): CandidateAction {
  return { action_id, type: 'pause' };
}
