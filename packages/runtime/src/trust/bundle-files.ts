import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readProblem } from './read-problem.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/** The names of the files of a bundle directory that verification reads. */
export const BUNDLE_FILES = {
  manifest: 'manifest.json',
  bundle: 'bundle.js',
  signature: 'signature.json',
  approval: 'approval.json',
} as const;

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

export type BundleFilesRead = { readonly ok: true; readonly files: BundleFiles } | { readonly ok: false; readonly failure: VerificationFailure };

/**
 * Reads a bundle directory. manifest.json and bundle.js must exist (BUNDLE_FILE_MISSING);
 * signature.json and approval.json are optional here and judged by `verifyBundle`. `dir` is
 * resolved against `cwd` and named as given in messages.
 */
export async function readBundleFiles(dir: string, cwd: string = process.cwd()): Promise<BundleFilesRead> {
  const absolute = resolve(cwd, dir);
  const directoryProblem = await checkDirectory(absolute);
  if (directoryProblem !== undefined) {
    return { ok: false, failure: verificationFailure('BUNDLE_FILE_MISSING', { problem: `bundle directory \`${dir}\` ${directoryProblem}` }) };
  }
  const read = async (name: string, required: boolean): Promise<Uint8Array | undefined | VerificationFailure> => {
    try {
      return await readFile(join(absolute, name));
    } catch (error) {
      if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return verificationFailure('BUNDLE_FILE_MISSING', { problem: `\`${join(dir, name)}\` ${readProblem(error)}` });
    }
  };
  const [manifest, bundle, signature, approval] = await Promise.all([
    read(BUNDLE_FILES.manifest, true),
    read(BUNDLE_FILES.bundle, true),
    read(BUNDLE_FILES.signature, false),
    read(BUNDLE_FILES.approval, false),
  ]);
  for (const file of [manifest, bundle, signature, approval]) {
    if (isFailure(file)) return { ok: false, failure: file };
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

function isFailure(value: Uint8Array | undefined | VerificationFailure): value is VerificationFailure {
  return value !== undefined && !(value instanceof Uint8Array);
}

async function checkDirectory(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isDirectory() ? undefined : 'is not a directory';
  } catch (error) {
    return readProblem(error);
  }
}
