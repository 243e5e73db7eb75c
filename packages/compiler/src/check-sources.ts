import { sortDiagnostics, type Diagnostic } from '@adec/diagnostics';
import { parseSource, type SourceFile } from '@adec/grammar';
import { checkWorld } from './check/check-world.js';
import type { CheckedWorld } from './model/index.js';
import type { WorldSources } from './sources/world-sources.js';

export interface CheckResult {
  /** Present exactly when no diagnostic is an error. */
  readonly world?: CheckedWorld;
  /** Every syntax, name, type and semantic diagnostic of the world, sorted by position. */
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly SourceFile[];
}

/**
 * Parses and checks a world. Syntax errors do not stop checking: the parser recovers, and
 * the checker reports what it can on the recovered AST, so one run shows every problem.
 */
export function checkSources(sources: WorldSources): CheckResult {
  const parsed = sources.files.map((source) => parseSource(source.path, source.text));
  const files = parsed.map((p) => p.file);
  // The warnings analysis judges conditions: not ones the parser had to patch up.
  const syntaxErrors = parsed.some((p) => p.diagnostics.some((d) => d.severity === 'error'));
  const checked = checkWorld(files, { analyze: !syntaxErrors });
  const diagnostics = sortDiagnostics([...parsed.flatMap((p) => p.diagnostics), ...checked.diagnostics]);
  const hasError = diagnostics.some((d) => d.severity === 'error');
  return {
    diagnostics,
    files,
    ...(!hasError && checked.world !== undefined && { world: checked.world }),
  };
}
