import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles } from '../output-files.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec init [<dir>]

Scaffolds a small world in <dir> (default: the current directory), which must be empty or
not exist yet:
  world.adec        the world header and one action with rules in two tiers
  world.tests.adec  golden tests that match every rule
  README.md         what the files are and the commands to run next
\`adec check <dir>\` and \`adec test <dir>\` pass on it. Refuses (exit 1) when <dir> holds anything.`;

/** The scaffold, shipped beside the code (`templates/init/`, in the package's `files`). */
const TEMPLATES = new URL('../../templates/init/', import.meta.url);
const TEMPLATE_FILES = [
  { name: 'world.adec', summary: 'the world: its header, one action and its rules' },
  { name: 'world.tests.adec', summary: 'a golden test for every rule' },
  { name: 'README.md', summary: 'what the files are, and the commands to run next' },
] as const;

/** How many entries of a non-empty directory the refusal names. */
const NAMED_ENTRIES = 3;

/** `adec init [dir]`: a world that checks and tests clean, in an empty or new directory. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const display = parseDirectory(args);
  const dir = resolve(io.cwd, display);

  const problem = await notEmpty(dir, display);
  if (problem !== undefined) {
    io.stderr.write(`adec init: ${problem}\n`);
    return EXIT.inputErrors;
  }
  const files = await Promise.all(
    TEMPLATE_FILES.map(async ({ name }) => ({ name, content: await readFile(new URL(name, TEMPLATES), 'utf8') })),
  );
  // Never over a file, even one that appears while the scaffold is written.
  const written = await writeOutputFiles(dir, display, files, { overwrite: false });
  if (written !== undefined) {
    io.stderr.write(`adec init: ${written.message}\n`);
    return EXIT.inputErrors;
  }
  const paths = TEMPLATE_FILES.map(({ name }) => join(display, name));
  const width = Math.max(...paths.map((path) => path.length));
  io.stdout.write(
    [
      `created a world in ${display}`,
      ...TEMPLATE_FILES.map(({ summary }, i) => `  ${paths[i]!.padEnd(width)}  ${summary}`),
      '',
      'next:',
      `  adec check ${display}`,
      `  adec test ${display}`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

/** The one optional positional, `<dir>`. */
function parseDirectory(args: readonly string[]): string {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...args], allowPositionals: true, strict: true, options: {} }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  if (positionals.length > 1) throw new UsageError(`unexpected argument \`${positionals[1]}\`\n\n${usage}`);
  return positionals[0] ?? '.';
}

/** Why `dir` cannot take a new world: it is not a directory, or it holds something. */
async function notEmpty(dir: string, display: string): Promise<string | undefined> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') return `\`${display}\` is not a directory`;
    return `cannot read \`${display}\` (${code ?? (error as Error).message})`;
  }
  if (entries.length === 0) return undefined;
  const named = entries.sort().slice(0, NAMED_ENTRIES).join(', ') + (entries.length > NAMED_ENTRIES ? ', …' : '');
  return `\`${display}\` is not empty (${named}): adec init writes a new world only into an empty or new directory`;
}
