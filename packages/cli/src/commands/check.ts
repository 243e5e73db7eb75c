import { summarize } from '@adec/diagnostics';
import { checkSources } from '@adec/compiler';
import { parseCommand } from '../parse-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { diagnosticsJson, reportDiagnostics, writeJson } from '../report.js';
import { loadWorldOrReport } from '../world-input.js';

export const usage = `usage: adec check <world> [--format text|json]

Parses and type-checks a world without building it. Diagnostics go to stderr
(with --format json: a JSON array on stdout). Exit 0 when there are no errors.`;

/** `adec check <world>`: every diagnostic of the world, nothing written. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { world: dir, format } = parseCommand(args, usage, {});
  const sources = await loadWorldOrReport(dir, io);
  if (sources === undefined) return EXIT.inputErrors;
  const { diagnostics } = checkSources(sources);
  const failed = diagnostics.some((d) => d.severity === 'error');
  if (format === 'json') {
    writeJson(io.stdout, diagnosticsJson(diagnostics));
  } else {
    reportDiagnostics(io.stderr, diagnostics, sources);
    if (!failed) io.stdout.write(`${sources.root}: ok (${summarize(diagnostics)})\n`);
  }
  return failed ? EXIT.inputErrors : EXIT.ok;
}
