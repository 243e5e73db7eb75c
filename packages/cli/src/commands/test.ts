import { resolve } from 'node:path';
import { parseCommand } from '../parse-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { diagnosticsJson, progress, writeJson, type OutputFormat } from '../report.js';
import { testRunJson } from '../test-runner/report-json.js';
import { renderTestRun } from '../test-runner/render-text.js';
import { runWorldTests } from '../test-runner/run-tests.js';
import { watchWorld } from '../test-runner/watch-world.js';
import { buildWorldOrReport } from '../world-input.js';

export const usage = `usage: adec test <world> [--format text|json] [--filter <pattern>] [--watch]

Builds a world in memory (nothing is written) and runs its \`test\` blocks against the bundle:
adjudication tests through the runtime, selection tests through the engine. A test without a
\`system\` block decides at request_time 2026-01-01T00:00:00Z, so runs are reproducible.
Prints each test, a diff for each failure, and rule coverage. Exit 0 when every test passes,
1 when one fails or the world has errors.

options:
  --filter <pattern>   run only the tests whose name, action or scenario contains <pattern>
                       (coverage then counts only those; exit 1 when none matches)
  --watch              run again whenever a .adec file below <world> changes, until Ctrl-C
                       (exit 0 then)`;

/** `adec test <world>`: the world's golden tests, with rule coverage; `--watch` runs them again on every change. */
export async function run(args: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process): Promise<ExitCode> {
  const { world: dir, format, values } = parseCommand(args, usage, { filter: { type: 'string' }, watch: { type: 'boolean' } });
  const filter = typeof values['filter'] === 'string' ? values['filter'] : undefined;
  const runOnce = () => testWorld(dir, format, filter, io);
  if (values['watch'] !== true) return runOnce();

  await runOnce();
  // The watcher is in place (watchWorld starts it at once) before the user is told it is.
  const stopped = watchWorld(resolve(io.cwd, dir), async (changed) => {
    io.stdout.write(`\n── ${changed.join(', ')} changed: running the tests again ──\n\n`);
    await runOnce();
  }, signals);
  io.stderr.write(`adec test: watching ${dir} for changes to .adec files (Ctrl-C to stop)\n`);
  await stopped;
  return EXIT.ok;
}

async function testWorld(dir: string, format: OutputFormat, filter: string | undefined, io: CliIo): Promise<ExitCode> {
  const show = progress(io.stderr);
  const built = await buildWorldOrReport(dir, format, io, show);
  if (built === undefined) return EXIT.inputErrors;

  show('test…');
  const result = await runWorldTests(built.world, built.artifacts, filter);
  if (!result.ok) {
    io.stderr.write(`adec: ${result.message}\n`);
    return EXIT.inputErrors;
  }
  if (format === 'json') writeJson(io.stdout, testRunJson(result.run, diagnosticsJson(built.diagnostics)));
  else io.stdout.write(renderTestRun(result.run));
  return result.run.outcomes.every((o) => o.passed) ? EXIT.ok : EXIT.inputErrors;
}
