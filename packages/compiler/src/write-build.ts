import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildArtifacts } from './build-world.js';

/** The files of a build directory, by name. */
export const BUILD_FILES = {
  module: 'module.ts',
  bundle: 'bundle.js',
  manifest: 'manifest.json',
  contextTypes: 'types.d.ts',
} as const;

/** Writes a build's artifacts into `outDir` (created if needed). */
export async function writeBuild(artifacts: BuildArtifacts, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all([
    writeFile(join(outDir, BUILD_FILES.module), artifacts.moduleSource),
    writeFile(join(outDir, BUILD_FILES.bundle), artifacts.bundle),
    writeFile(join(outDir, BUILD_FILES.manifest), artifacts.manifestJson),
    writeFile(join(outDir, BUILD_FILES.contextTypes), artifacts.contextTypes),
  ]);
}
