/**
 * Reading what a command decides on, as a runtime host would: a bundle (verified when a trust
 * file is given) and a JSON request from a file or standard input.
 */
import { resolve } from 'node:path';
import { checkModuleBinding, DEFAULT_REQUEST_LIMITS, loadTrustConfig, parseRequestJson, readBundleFiles, readRegularFile, verifyBundle, type BundleToLoad, type RequestJsonProblemCode } from '@adec/runtime';
import type { CliIo } from './io.js';

export type Read<T> = { ok: true } & T | { ok: false; message: string };

/** The bundle in `dir`, verified against the trust file when one is given (else only its hash is checked). */
export async function readVerifiedBundle(dir: string, trustPath: string | undefined, io: CliIo, command: string): Promise<Read<{ bundle: BundleToLoad }>> {
  const files = await readBundleFiles(dir, io.cwd);
  if (!files.ok) return { ok: false, message: `${files.failure.code}: ${files.failure.message}` };
  if (trustPath === undefined) {
    const bound = checkModuleBinding(files.files.manifest, files.files.bundle);
    if (!bound.ok) return { ok: false, message: `${bound.failure.code}: ${bound.failure.message}` };
    io.stderr.write(`adec ${command}: note: the bundle was not verified against a trust configuration (pass --trust to verify it)\n`);
    return { ok: true, bundle: bound.module };
  }
  const trust = await loadTrustConfig(trustPath, io.cwd);
  if (!trust.ok) return { ok: false, message: trust.message };
  const verified = verifyBundle(files.files, trust.trust);
  return verified.ok ? { ok: true, bundle: verified.bundle } : { ok: false, message: `${verified.failure.code}: ${verified.failure.message}` };
}

/**
 * A JSON input (`what`, given by `option`), read as a host reads a request's text: a regular
 * file (or standard input) of at most `maxRequestBytes`, strict JSON (runtime README "Reading a
 * request's text"), refused with the position of invalid UTF-8, a repeated key or a syntax error.
 */
export async function readJsonInput(source: string, option: string, what: string, io: CliIo): Promise<Read<{ value: unknown }>> {
  const name = source === '-' ? 'standard input' : source;
  let bytes: Uint8Array;
  if (source === '-') {
    if (io.readStdin === undefined) return { ok: false, message: 'standard input is not available' };
    try {
      bytes = await io.readStdin(DEFAULT_REQUEST_LIMITS.maxRequestBytes);
    } catch (error) {
      return { ok: false, message: `cannot read standard input: ${(error as Error).message}` };
    }
  } else {
    const file = await readRegularFile(resolve(io.cwd, source), { maxBytes: DEFAULT_REQUEST_LIMITS.maxRequestBytes, followSymlinks: true });
    if (file.ok) bytes = file.bytes;
    else if (file.code === 'FILE_TOO_LARGE') return { ok: false, message: `${what} in ${name} is over a request limit: it ${file.problem} (maxRequestBytes)` };
    else return { ok: false, message: `cannot read ${option} ${source}: it ${file.problem}` };
  }
  const parsed = parseRequestJson(bytes);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, message: `${what} in ${name} ${REFUSAL[parsed.problem.code]}: ${parsed.problem.message}` };
}

const REFUSAL: Readonly<Record<RequestJsonProblemCode, string>> = {
  REQUEST_LIMIT: 'is over a request limit',
  NOT_UTF8: 'is not UTF-8',
  NOT_JSON: 'is not JSON',
  DUPLICATE_KEY: 'repeats a key',
};
