import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * The one way adec reads a file it is given: bundle files, key files, trust files. A path could
 * name a FIFO (open or read would block forever), a device such as /dev/zero (endless bytes), a
 * directory or a huge file, so each file is
 *
 * * opened non-blocking, so opening a FIFO returns at once instead of waiting for a writer;
 * * checked on the open descriptor (fstat, no race with a swap of the path) to be a regular file;
 * * read up to a size cap and refused beyond it, whatever its size said (/proc files say 0);
 * * optionally opened with O_NOFOLLOW, so a symbolic link is refused rather than followed.
 */
export type FileCode = 'FILE_MISSING' | 'FILE_NOT_REGULAR' | 'FILE_TOO_LARGE' | 'FILE_UNREADABLE';

/**
 * The bytes of a file, or what is wrong with it as the end of a sentence that starts with its
 * name; for FILE_UNREADABLE, the system's error code (`EACCES`, `EIO`…) when it gave one, so a
 * caller can tell a failure that may pass from one that will not.
 */
export type FileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly code: FileCode; readonly problem: string; readonly systemCode?: string };

export interface FileReadOptions {
  /** The most bytes the file may hold. */
  readonly maxBytes: number;
  /** Whether a symbolic link is followed (true) or refused as not a regular file (false). */
  readonly followSymlinks: boolean;
}

export const MIB = 1024 * 1024;

/** Key files are a few hundred bytes. */
export const KEY_FILE_MAX_BYTES = 64 * 1024;

/** Trust files grow with their revocation lists. */
export const TRUST_FILE_MAX_BYTES = 16 * MIB;

const CHUNK_BYTES = 64 * 1024;

export async function readRegularFile(path: string, options: FileReadOptions): Promise<FileRead> {
  // O_NOFOLLOW is POSIX; where it does not exist (Windows) links are not a concern of this kind.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- @types/node declares O_NOFOLLOW on every platform
  const noFollow = options.followSymlinks ? 0 : (constants.O_NOFOLLOW ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  } catch (error) {
    return refuseOpen(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return refuse('FILE_NOT_REGULAR', `is ${describeType(stats)}, not a regular file`);
    if (stats.size > options.maxBytes) return tooLarge(stats.size, options.maxBytes);
    return await readAtMost(handle, options.maxBytes);
  } catch (error) {
    return unreadable(error);
  } finally {
    await handle.close();
  }
}

/** Reads to the end, but never more than one byte past `maxBytes`: a file that grows is still bounded. */
async function readAtMost(handle: FileHandle, maxBytes: number): Promise<FileRead> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return tooLarge(undefined, maxBytes);
  }
}

function refuseOpen(error: unknown): FileRead {
  const code = errorCode(error);
  if (code === 'ENOENT') return refuse('FILE_MISSING', 'does not exist');
  // O_NOFOLLOW on a symbolic link fails with ELOOP.
  if (code === 'ELOOP') return refuse('FILE_NOT_REGULAR', 'is a symbolic link, not a regular file (links are not followed)');
  // A socket cannot be opened; ENXIO also comes from a FIFO opened for writing only.
  if (code === 'ENXIO') return refuse('FILE_NOT_REGULAR', 'is a socket or device, not a regular file');
  if (code === 'EISDIR') return refuse('FILE_NOT_REGULAR', 'is a directory, not a regular file');
  return unreadable(error);
}

function unreadable(error: unknown): FileRead {
  const systemCode = (error as NodeJS.ErrnoException | undefined)?.code;
  const problem = `cannot be read (${errorCode(error)})`;
  return typeof systemCode === 'string' ? { ok: false, code: 'FILE_UNREADABLE', problem, systemCode } : refuse('FILE_UNREADABLE', problem);
}

function tooLarge(size: number | undefined, maxBytes: number): FileRead {
  const limit = describeBytes(maxBytes);
  return refuse('FILE_TOO_LARGE', size === undefined ? `is larger than the limit of ${limit}` : `is ${size} bytes, over the limit of ${limit}`);
}

function describeType(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

/** `16 MiB`, `64 KiB`, or bytes. */
export function describeBytes(bytes: number): string {
  if (bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error as Error).message;
}

function refuse(code: FileCode, problem: string): FileRead {
  return { ok: false, code, problem };
}
