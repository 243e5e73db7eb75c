import { isWorldLoadError, loadWorld, type WorldSources } from '@adec/compiler';
import type { CliIo } from './io.js';

/** Loads the world a command names, or reports why it cannot be read. */
export async function loadWorldOrReport(dir: string, io: CliIo): Promise<WorldSources | undefined> {
  const loaded = await loadWorld(dir, io.cwd);
  if (isWorldLoadError(loaded)) {
    io.stderr.write(`adec: ${loaded.problem}\n`);
    return undefined;
  }
  return loaded;
}
