import { buildWorld, isWorldLoadError, loadWorld, type BuildArtifacts, type CheckedWorld, type WorldSources } from '@adec/compiler';
import type { Diagnostic } from '@adec/diagnostics';
import type { CliIo } from './io.js';
import { diagnosticsJson, reportDiagnostics, writeJson, type OutputFormat } from './report.js';

/** Loads the world a command names, or reports why it cannot be read. */
export async function loadWorldOrReport(dir: string, io: CliIo): Promise<WorldSources | undefined> {
  const loaded = await loadWorld(dir, io.cwd);
  if (isWorldLoadError(loaded)) {
    io.stderr.write(`adec: ${loaded.problem}\n`);
    return undefined;
  }
  return loaded;
}

export interface BuiltWorld {
  readonly sources: WorldSources;
  readonly world: CheckedWorld;
  readonly artifacts: BuildArtifacts;
  /** The world's warnings (already reported on stderr in text format). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Loads and builds the world a command names, in memory (what `adec test` and `adec explain`
 * run), or reports why it cannot: its errors on stderr, or `{ ok: false, diagnostics }` on
 * stdout in JSON format. `show` hears each build phase.
 */
export async function buildWorldOrReport(dir: string, format: OutputFormat, io: CliIo, show: (message: string) => void): Promise<BuiltWorld | undefined> {
  const sources = await loadWorldOrReport(dir, io);
  if (sources === undefined) return undefined;
  const built = await buildWorld(sources, { onPhase: (phase) => show(`${phase}…`) });
  if (built.world === undefined || built.artifacts === undefined) {
    if (format === 'json') writeJson(io.stdout, { ok: false, diagnostics: diagnosticsJson(built.diagnostics) });
    else reportDiagnostics(io.stderr, built.diagnostics, sources);
    return undefined;
  }
  if (format === 'text') reportDiagnostics(io.stderr, built.diagnostics, sources);
  return { sources, world: built.world, artifacts: built.artifacts, diagnostics: built.diagnostics };
}
