import { resolve } from 'node:path';
import { buildFiles, buildWorld, RULE_OUTCOMES, SEVERITY_TIERS, type Manifest } from '@adec/compiler';
import { worldLabel } from '../bundle-command.js';
import { parseCommand } from '../parse-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles } from '../output-files.js';
import { diagnosticsJson, progress, reportDiagnostics, writeJson } from '../report.js';
import { loadWorldOrReport } from '../world-input.js';

export const usage = `usage: adec build <world> [--out <dir>] [--format text|json]

Checks a world and, when it has no errors, writes to <dir> (default: <world>/build):
  module.ts     the generated TypeScript module (readable, type-checked)
  bundle.js     the self-contained script the runtime loads
  manifest.json ABI version, world, module_hash (sha256 of bundle.js), rule table, schemas
  types.d.ts    a TypeScript type for each action's supplied context
Each file is written to a temporary file and renamed into place; a symbolic link in place of
<dir> or of one of its files is refused (exit 1) and nothing is written through it.`;

/** `adec build <world>`: a reproducible, content-hashed bundle and its manifest. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { world: dir, format, values } = parseCommand(args, usage, { out: { type: 'string' } });
  const outDisplay = typeof values['out'] === 'string' ? values['out'] : `${dir.replace(/\/+$/, '')}/build`;
  const outDir = resolve(io.cwd, outDisplay);
  const sources = await loadWorldOrReport(dir, io);
  if (sources === undefined) return EXIT.inputErrors;

  const show = progress(io.stderr);
  const result = await buildWorld(sources, { onPhase: (phase) => show(`${phase}…`) });
  if (result.rejectedModuleSource !== undefined) {
    // Keep the module that failed its own checks so the bug can be reported with it.
    const kept = await writeOutputFiles(outDir, outDisplay, [{ name: 'module.rejected.ts', content: result.rejectedModuleSource }]);
    io.stderr.write(kept === undefined ? `adec: the generated module was kept at ${outDisplay}/module.rejected.ts\n` : `adec build: ${kept.message}\n`);
  }
  const written = result.artifacts === undefined ? undefined : await writeOutputFiles(outDir, outDisplay, buildFiles(result.artifacts));
  const built = result.artifacts !== undefined && written === undefined ? result.artifacts : undefined;
  if (written !== undefined) io.stderr.write(`adec build: ${written.message}\n`);

  if (format === 'json') {
    writeJson(io.stdout, {
      ok: built !== undefined,
      diagnostics: diagnosticsJson(result.diagnostics),
      ...(written !== undefined && { error: written }),
      ...(built !== undefined && { out: outDisplay, manifest: built.manifest }),
    });
  } else {
    reportDiagnostics(io.stderr, result.diagnostics, sources);
    if (built !== undefined) io.stdout.write(summarizeBuild(built.manifest, outDisplay));
  }
  return built !== undefined ? EXIT.ok : EXIT.inputErrors;
}

/** The human summary of a build: what was built, where, and its content hash. */
export function summarizeBuild(manifest: Manifest, outDisplay: string): string {
  const { world } = manifest;
  const countBy = (key: 'outcome' | 'severity', order: readonly string[]) =>
    order
      .map((value) => [value, manifest.rules.filter((rule) => rule[key] === value).length] as const)
      .filter(([, n]) => n > 0)
      .map(([value, n]) => `${value} ${n}`)
      .join(', ');
  const actions = Object.keys(manifest.actions);
  const rules = manifest.rules.length;
  const lines = [
    `built ${worldLabel(world)} → ${outDisplay}`,
    `  actions    ${actions.length}${actions.length > 0 ? ` (${actions.join(', ')})` : ''}`,
    `  rules      ${rules}${rules > 0 ? ` (${countBy('outcome', RULE_OUTCOMES)}; ${countBy('severity', SEVERITY_TIERS)})` : ''}`,
    `  skills     ${manifest.skills.length}, scenarios ${manifest.scenarios.length}`,
    `  module     ${manifest.module_hash}`,
    `  sources    ${manifest.source_hash}`,
  ];
  return `${lines.join('\n')}\n`;
}
