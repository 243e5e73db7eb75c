import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readProblem } from './read-problem.js';
import { MIB, readRegularFile, type FileCode } from './regular-file.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/** The names of the files of a bundle directory that verification reads. */
export const BUNDLE_FILES = {
  manifest: 'manifest.json',
  bundle: 'bundle.js',
  signature: 'signature.json',
  approval: 'approval.json',
} as const;

/** The most bytes each file of a bundle may hold; a larger file is refused unread. */
export type BundleFileLimits = { readonly [Name in keyof typeof BUNDLE_FILES]: number };

/**
 * Generous for every real world (examples/benefits: a 30 KiB manifest, a 40 KiB bundle), small
 * enough that a hostile store cannot make a host buffer without bound.
 */
export const DEFAULT_BUNDLE_FILE_LIMITS: BundleFileLimits = {
  manifest: 16 * MIB,
  bundle: 64 * MIB,
  signature: 64 * 1024,
  approval: 64 * 1024,
};

/**
 * The bytes of a bundle, read once. Verification works on these bytes and hands the same
 * bytes on, so what is verified is exactly what runs (no second read a file swap could race).
 */
export interface BundleFiles {
  readonly manifest: Uint8Array;
  readonly bundle: Uint8Array;
  readonly signature?: Uint8Array;
  readonly approval?: Uint8Array;
}

/** A failure carries the system's error code when a file or the directory could not be read (regular-file.ts). */
export type BundleFilesRead = { readonly ok: true; readonly files: BundleFiles } | { readonly ok: false; readonly failure: VerificationFailure; readonly systemCode?: string };

/**
 * Reads a bundle directory. manifest.json and bundle.js must exist (BUNDLE_FILE_MISSING);
 * signature.json and approval.json are optional here and judged by `verifyBundle`. Each file
 * must be a regular file, not a symbolic link, a FIFO or a device (BUNDLE_FILE_NOT_REGULAR), of
 * at most its limit (BUNDLE_FILE_TOO_LARGE). The directory itself may be reached through a link
 * (stores often switch releases that way). `dir` is resolved against `cwd` and named as given
 * in messages.
 */
export async function readBundleFiles(
  dir: string,
  cwd: string = process.cwd(),
  limits: Partial<BundleFileLimits> = {},
): Promise<BundleFilesRead> {
  const absolute = resolve(cwd, dir);
  const directoryProblem = await checkDirectory(absolute);
  if (directoryProblem !== undefined) {
    const failure = verificationFailure('BUNDLE_FILE_MISSING', { problem: `bundle directory \`${dir}\` ${directoryProblem.problem}` });
    return directoryProblem.systemCode === undefined ? { ok: false, failure } : { ok: false, failure, systemCode: directoryProblem.systemCode };
  }
  const read = async (name: keyof typeof BUNDLE_FILES, required: boolean): Promise<Uint8Array | undefined | FileFailure> => {
    const file = BUNDLE_FILES[name];
    const maxBytes = limits[name] ?? DEFAULT_BUNDLE_FILE_LIMITS[name];
    const result = await readRegularFile(join(absolute, file), { maxBytes, followSymlinks: false });
    if (result.ok) return result.bytes;
    if (!required && result.code === 'FILE_MISSING') return undefined;
    const failure = verificationFailure(FAILURE_CODES[result.code], { problem: `\`${join(dir, file)}\` ${result.problem}` });
    return result.systemCode === undefined ? { failure } : { failure, systemCode: result.systemCode };
  };
  const [manifest, bundle, signature, approval] = await Promise.all([
    read('manifest', true),
    read('bundle', true),
    read('signature', false),
    read('approval', false),
  ]);
  for (const file of [manifest, bundle, signature, approval]) {
    if (isFailure(file)) return { ok: false, ...file };
  }
  return {
    ok: true,
    files: {
      manifest: manifest as Uint8Array,
      bundle: bundle as Uint8Array,
      ...(signature !== undefined && { signature: signature as Uint8Array }),
      ...(approval !== undefined && { approval: approval as Uint8Array }),
    },
  };
}

/** An unreadable file (EACCES, EIO) is reported as missing, as a store that lacks it would be (with its system code). */
const FAILURE_CODES = {
  FILE_MISSING: 'BUNDLE_FILE_MISSING',
  FILE_UNREADABLE: 'BUNDLE_FILE_MISSING',
  FILE_NOT_REGULAR: 'BUNDLE_FILE_NOT_REGULAR',
  FILE_TOO_LARGE: 'BUNDLE_FILE_TOO_LARGE',
} as const satisfies Record<FileCode, string>;

type FileFailure = Omit<Extract<BundleFilesRead, { ok: false }>, 'ok'>;

function isFailure(value: Uint8Array | undefined | FileFailure): value is FileFailure {
  return value !== undefined && !(value instanceof Uint8Array);
}

async function checkDirectory(path: string): Promise<{ readonly problem: string; readonly systemCode?: string } | undefined> {
  try {
    return (await stat(path)).isDirectory() ? undefined : { problem: 'is not a directory' };
  } catch (error) {
    // As for a file (regular-file.ts): the system's code when the directory could not be read, not when it is missing.
    const systemCode = (error as NodeJS.ErrnoException | undefined)?.code;
    return typeof systemCode === 'string' && systemCode !== 'ENOENT' ? { problem: readProblem(error), systemCode } : { problem: readProblem(error) };
  }
}
