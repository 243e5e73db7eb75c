import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one way the CLI writes files: build output, signature.json, approval.json, key files.
 * A directory someone else can write to may hold a symbolic link planted where adec will write
 * (`out/bundle.js` → a victim file), so:
 *
 * * the output directory must be a real directory, not a link to one;
 * * every target is checked before anything is written: a link or a non-file there is refused,
 *   naming it, and nothing is written;
 * * each file is written to a new temporary file in the same directory (O_EXCL | O_NOFOLLOW)
 *   and renamed over the target, which replaces a link planted after the check rather than
 *   writing through it, and leaves readers the old file or the new one, never half of one;
 * * `overwrite: false` (key files) publishes with link(2), which fails if the target exists.
 */
export interface OutputFile {
  readonly name: string;
  readonly content: string | Uint8Array;
  /** The exact mode of the new file (not narrowed by the umask); default 0o666 less the umask. */
  readonly mode?: number;
}

export type OutputCode = 'OUTPUT_SYMLINK' | 'OUTPUT_NOT_A_FILE' | 'OUTPUT_NOT_A_DIRECTORY' | 'OUTPUT_EXISTS' | 'OUTPUT_UNWRITABLE';

/** Why nothing (or, for OUTPUT_UNWRITABLE, not everything) was written; `message` names the path as the user gave it. */
export interface OutputProblem {
  readonly code: OutputCode;
  readonly message: string;
}

/**
 * Writes `files` into `dir` (created if needed), `display` naming it in messages; undefined
 * when every file was written.
 */
export async function writeOutputFiles(
  dir: string,
  display: string,
  files: readonly OutputFile[],
  options: { readonly overwrite: boolean } = { overwrite: true },
): Promise<OutputProblem | undefined> {
  const directory = await outputDirectory(dir, display);
  if (directory !== undefined) return directory;
  for (const file of files) {
    const problem = await targetProblem(join(dir, file.name), join(display, file.name), options.overwrite);
    if (problem !== undefined) return problem;
  }
  for (const file of files) {
    try {
      await writeOne(dir, file, options.overwrite);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EEXIST') return exists(join(display, file.name));
      return { code: 'OUTPUT_UNWRITABLE', message: `cannot write \`${join(display, file.name)}\` (${code ?? (error as Error).message})` };
    }
  }
  return undefined;
}

async function outputDirectory(dir: string, display: string): Promise<OutputProblem | undefined> {
  try {
    if ((await lstatOrUndefined(dir)) === undefined) await mkdir(dir, { recursive: true });
    const stats = await lstat(dir);
    if (stats.isSymbolicLink()) {
      return { code: 'OUTPUT_SYMLINK', message: `the output directory \`${display}\` is a symbolic link: adec writes only into a real directory` };
    }
    if (!stats.isDirectory()) return { code: 'OUTPUT_NOT_A_DIRECTORY', message: `the output directory \`${display}\` is not a directory` };
    return undefined;
  } catch (error) {
    return { code: 'OUTPUT_UNWRITABLE', message: `cannot create the output directory \`${display}\` (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}

async function targetProblem(path: string, display: string, overwrite: boolean): Promise<OutputProblem | undefined> {
  let stats;
  try {
    stats = await lstatOrUndefined(path);
  } catch (error) {
    return { code: 'OUTPUT_UNWRITABLE', message: `cannot write \`${display}\` (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) {
    return { code: 'OUTPUT_SYMLINK', message: `\`${display}\` is a symbolic link: adec never writes through one (remove it and run again)` };
  }
  if (!stats.isFile()) return { code: 'OUTPUT_NOT_A_FILE', message: `\`${display}\` exists and is not a regular file` };
  return overwrite ? undefined : exists(display);
}

async function writeOne(dir: string, file: OutputFile, overwrite: boolean): Promise<void> {
  const temporary = join(dir, `.${file.name}.${randomBytes(6).toString('hex')}.tmp`);
  // O_NOFOLLOW is POSIX, absent on Windows.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- @types/node declares O_NOFOLLOW on every platform
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(temporary, flags, file.mode ?? 0o666);
  try {
    try {
      if (file.mode !== undefined) await handle.chmod(file.mode);
      await handle.writeFile(file.content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (overwrite) {
      await rename(temporary, join(dir, file.name));
    } else {
      await link(temporary, join(dir, file.name));
      await unlink(temporary);
    }
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function exists(display: string): OutputProblem {
  return { code: 'OUTPUT_EXISTS', message: `\`${display}\` already exists: refusing to overwrite it` };
}
