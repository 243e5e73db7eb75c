import type { BuildArtifacts } from '@adec/compiler';
import { loadModule, type LoadResult } from '@adec/runtime';
import { SELECTION_EXTENSION } from '@adec/engine';

/**
 * A world built in memory, loaded in this process with the selection extension: how `adec test`
 * and `adec explain` run a world's sources without writing a bundle (the bundle is the one
 * `adec build` would write, so it decides exactly as a host would).
 */
export function loadBuiltModule(artifacts: BuildArtifacts): Promise<LoadResult> {
  return loadModule(
    { manifest: artifacts.manifest, moduleHash: artifacts.manifest.module_hash, bundleSource: artifacts.bundle },
    { isolation: 'in-process', extensions: [SELECTION_EXTENSION] },
  );
}
