import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildArtifacts } from './build-world.js';

/** The files of a build directory, by name. */
export const BUILD_FILES = {
  module: 'module.ts',
  bundle: 'bundle.js',
  manifest: 'manifest.json',
  contextTypes: 'types.d.ts',
  sources: 'sources.json',
} as const;

/** The files of a build, by name, with their content (`adec build` writes them safely: cli/src/output-files.ts). */
export function buildFiles(artifacts: BuildArtifacts): ReadonlyArray<{ readonly name: string; readonly content: string }> {
  return [
    { name: BUILD_FILES.module, content: artifacts.moduleSource },
    { name: BUILD_FILES.bundle, content: artifacts.bundle },
    { name: BUILD_FILES.manifest, content: artifacts.manifestJson },
    { name: BUILD_FILES.contextTypes, content: artifacts.contextTypes },
    { name: BUILD_FILES.sources, content: artifacts.sourcesJson },
  ];
}

/** Writes a build's artifacts into `outDir` (created if needed): for tests and tools in a directory they own. */
export async function writeBuild(artifacts: BuildArtifacts, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all(buildFiles(artifacts).map(({ name, content }) => writeFile(join(outDir, name), content)));
}
