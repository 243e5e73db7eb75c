import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { formatSource } from '@adec/compiler';
import { renderDiagnostics, type Diagnostic } from '@adec/diagnostics';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles } from '../output-files.js';
import { diagnosticsJson, writeJson } from '../report.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec fmt <world dir | file.adec>... [--check] [--stdout] [--format text|json]
       adec fmt -          (standard input to standard output)

Rewrites .adec files in the canonical layout: every .adec file below a directory, or the
files named. Only whitespace changes: comments, literals and meaning stay as written, and
formatting twice changes nothing. A file with a syntax error is reported and left untouched.
Prints the paths of the files it rewrote.

  --check    write nothing; print the paths of the files that are not formatted
  --stdout   print the formatted text instead of rewriting the file (one file)
  -          format standard input and print it

Exit 0 when every file is formatted (or, with --check, already was); 1 when a file has a
syntax error, cannot be read or written, or with --check is not formatted.`;

type Status = 'formatted' | 'unchanged' | 'unformatted' | 'error';

interface FileReport {
  readonly path: string;
  readonly status: Status;
}

interface Target {
  /** Absolute path. */
  readonly path: string;
  /** The path as the user wrote it (joined with the relative path for files below a directory). */
  readonly display: string;
}

/** `adec fmt <paths…>`: formats world files in place, checks them, or formats standard input. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const options = parseOptions(args);
  if (options.paths.includes('-')) return formatStdin(options, io);

  const diagnostics: Diagnostic[] = [];
  const texts = new Map<string, string>();
  const reports: FileReport[] = [];
  const problem = (message: string, path: string) => {
    if (options.format === 'text') io.stderr.write(`adec: ${message}\n`);
    reports.push({ path, status: 'error' });
  };

  const targets: Target[] = [];
  for (const path of options.paths) {
    const found = await listTargets(path, io.cwd);
    if (typeof found === 'string') problem(found, path);
    else targets.push(...found);
  }
  if (options.stdout && targets.length > 1) {
    throw new UsageError(`--stdout prints one file, and ${options.paths[0]} holds ${targets.length}\n\n${usage}`);
  }

  for (const target of targets) {
    const read = await readText(target);
    if (typeof read !== 'string') {
      problem(read.problem, target.display);
      continue;
    }
    const result = formatSource(target.display, read);
    if (!result.ok) {
      texts.set(target.display, read);
      diagnostics.push(...result.diagnostics);
      reports.push({ path: target.display, status: 'error' });
      continue;
    }
    if (options.stdout) {
      io.stdout.write(result.text);
      reports.push({ path: target.display, status: result.changed ? 'formatted' : 'unchanged' });
    } else if (!result.changed) {
      reports.push({ path: target.display, status: 'unchanged' });
    } else if (options.check) {
      reports.push({ path: target.display, status: 'unformatted' });
    } else {
      const written = await rewrite(target, result.text);
      if (written !== undefined) problem(written, target.display);
      else reports.push({ path: target.display, status: 'formatted' });
    }
  }

  const failed = reports.some((r) => r.status === 'error' || r.status === 'unformatted');
  if (options.format === 'json') {
    writeJson(io.stdout, { ok: !failed, files: reports, diagnostics: diagnosticsJson(diagnostics) });
  } else {
    if (diagnostics.length > 0) io.stderr.write(renderDiagnostics(diagnostics, (path) => texts.get(path)));
    if (!options.stdout) {
      for (const report of reports) {
        if (report.status === 'formatted' || report.status === 'unformatted') io.stdout.write(`${report.path}\n`);
      }
    }
    const unformatted = reports.filter((r) => r.status === 'unformatted').length;
    if (unformatted > 0) {
      io.stderr.write(`adec fmt: ${unformatted} ${unformatted === 1 ? 'file is' : 'files are'} not formatted (run \`adec fmt\` to rewrite)\n`);
    }
  }
  return failed ? EXIT.inputErrors : EXIT.ok;
}

interface Options {
  readonly paths: readonly string[];
  readonly check: boolean;
  readonly stdout: boolean;
  readonly format: 'text' | 'json';
}

function parseOptions(args: readonly string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        check: { type: 'boolean', default: false },
        stdout: { type: 'boolean', default: false },
        format: { type: 'string', default: 'text' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const { positionals: paths, values } = parsed;
  if (paths.length === 0) throw new UsageError(`missing <world dir | file.adec>\n\n${usage}`);
  if (paths.includes('-') && paths.length > 1) throw new UsageError(`\`-\` (standard input) is formatted alone\n\n${usage}`);
  if (values.stdout && paths.length > 1) throw new UsageError(`--stdout prints one file, and ${paths.length} were named\n\n${usage}`);
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new UsageError(`invalid --format \`${format}\`: expected text or json\n\n${usage}`);
  if (format === 'json' && (values.stdout || paths.includes('-'))) {
    throw new UsageError(`--format json reports on files; it does not go with --stdout or \`-\`\n\n${usage}`);
  }
  return { paths, check: values.check, stdout: values.stdout, format };
}

/** `adec fmt -`: standard input to standard output (with --check, nothing printed: exit 1 if not formatted). */
async function formatStdin(options: Options, io: CliIo): Promise<ExitCode> {
  if (io.readStdin === undefined) {
    io.stderr.write('adec: standard input is not available\n');
    return EXIT.inputErrors;
  }
  const name = '<stdin>';
  // A world's source has no size limit: the author pipes their own file.
  const text = decode(await io.readStdin(Number.POSITIVE_INFINITY));
  if (text === undefined) {
    io.stderr.write('adec: standard input is not UTF-8 text\n');
    return EXIT.inputErrors;
  }
  const result = formatSource(name, text);
  if (!result.ok) {
    io.stderr.write(renderDiagnostics(result.diagnostics, (path) => (path === name ? text : undefined)));
    return EXIT.inputErrors;
  }
  if (options.check) {
    if (!result.changed) return EXIT.ok;
    io.stdout.write(`${name}\n`);
    return EXIT.inputErrors;
  }
  io.stdout.write(result.text);
  return EXIT.ok;
}

/** The files a path names: itself, or every `.adec` file below a directory (in byte order); a string when it names nothing. */
async function listTargets(path: string, cwd: string): Promise<Target[] | string> {
  const absolute = resolve(cwd, path);
  const info = await lstat(absolute).catch(() => undefined);
  if (info === undefined) return `\`${path}\` does not exist`;
  if (info.isFile()) return [{ path: absolute, display: path }];
  if (info.isSymbolicLink()) return `\`${path}\` is a symbolic link: adec fmt rewrites only regular files`;
  if (!info.isDirectory()) return `\`${path}\` is neither a file nor a directory`;
  const entries = await readdir(absolute, { recursive: true, withFileTypes: true });
  const root = path.split(sep).join('/').replace(/\/+$/, '') || '.';
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.adec'))
    .map((entry) => relative(absolute, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (files.length === 0) return `\`${path}\` contains no .adec files`;
  return files.map((file) => ({ path: join(absolute, file), display: `${root}/${file}` }));
}

/** The file's text, or why it cannot be formatted: never formatted from a lossy decoding. */
async function readText(target: Target): Promise<string | { readonly problem: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(target.path);
  } catch (error) {
    return { problem: `cannot read \`${target.display}\` (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  return decode(bytes) ?? { problem: `\`${target.display}\` is not UTF-8 text: it was left as it is` };
}

/** Strict UTF-8, keeping a byte-order mark in the text (the formatter keeps it). */
function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Replaces the file (via a temporary file and a rename, never through a link), keeping its mode. */
async function rewrite(target: Target, text: string): Promise<string | undefined> {
  const info = await lstat(target.path).catch(() => undefined);
  const mode = info === undefined ? undefined : info.mode & 0o777;
  const problem = await writeOutputFiles(dirname(target.path), dirname(target.display), [
    { name: basename(target.path), content: text, ...(mode !== undefined && { mode }) },
  ]);
  return problem?.message;
}
