import { buildWorld } from '@adec/compiler';
import { parseCommand } from '../parse-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { diagnosticsJson, progress, reportDiagnostics, writeJson } from '../report.js';
import { testRunJson } from '../test-runner/report-json.js';
import { renderTestRun } from '../test-runner/render-text.js';
import { runWorldTests } from '../test-runner/run-tests.js';
import { loadWorldOrReport } from '../world-input.js';

export const usage = `usage: adec test <world> [--format text|json]

Builds a world in memory (nothing is written) and runs its \`test\` blocks against the bundle:
adjudication tests through the runtime, selection tests through the engine. A test without a
\`system\` block decides at request_time 2026-01-01T00:00:00Z, so runs are reproducible.
Prints each test, a diff for each failure, and rule coverage. Exit 0 when every test passes,
1 when one fails or the world has errors.`;

/** `adec test <world>`: the world's golden tests, with rule coverage. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { world: dir, format } = parseCommand(args, usage, {});
  const sources = await loadWorldOrReport(dir, io);
  if (sources === undefined) return EXIT.inputErrors;

  const show = progress(io.stderr);
  const built = await buildWorld(sources, { onPhase: (phase) => show(`${phase}…`) });
  if (built.world === undefined || built.artifacts === undefined) {
    if (format === 'json') writeJson(io.stdout, { ok: false, diagnostics: diagnosticsJson(built.diagnostics) });
    else reportDiagnostics(io.stderr, built.diagnostics, sources);
    return EXIT.inputErrors;
  }
  if (format === 'text') reportDiagnostics(io.stderr, built.diagnostics, sources);

  show('test…');
  const result = await runWorldTests(built.world, built.artifacts);
  if (!result.ok) {
    io.stderr.write(`adec: ${result.message}\n`);
    return EXIT.inputErrors;
  }
  if (format === 'json') writeJson(io.stdout, testRunJson(result.run, diagnosticsJson(built.diagnostics)));
  else io.stdout.write(renderTestRun(result.run));
  return result.run.outcomes.every((o) => o.passed) ? EXIT.ok : EXIT.inputErrors;
}
