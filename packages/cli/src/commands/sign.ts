import { join, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import {
  BUNDLE_FILES,
  checkModuleBinding,
  formatSignatureFile,
  readBundleFiles,
  readPrivateKeyFile,
  signManifest,
  type BoundModule,
  type BundleFiles,
  type VerificationFailure,
} from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles } from '../output-files.js';
import { writeJson } from '../report.js';

export const usage = `usage: adec sign <bundle> --key <private key> [--format text|json]

Signs a bundle written by \`adec build\` and writes <bundle>/signature.json:
  { "key_id": "<kid>", "signature": "<base64 Ed25519 signature>" }
over "adec.manifest.v1\\n" followed by the bytes of manifest.json, which binds module_hash.
Refuses (exit 1) when bundle.js is not the module manifest.json names. The key is an Ed25519
private key file (JWK or PEM, e.g. from \`adec keygen\`).`;

/** `adec sign <bundle>`: signature.json over the manifest of a whole bundle. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, { key: { type: 'string' } });
  const keyPath = requiredOption(values, 'key', usage);
  const prepared = await prepareToSign(dir, keyPath, io, 'sign');
  if (prepared === undefined) return EXIT.inputErrors;

  const signature = signManifest(prepared.files.manifest, prepared.key);
  const written = join(dir, BUNDLE_FILES.signature);
  if (!(await writeSignatureFile(dir, BUNDLE_FILES.signature, formatSignatureFile(signature), io, 'sign'))) return EXIT.inputErrors;
  const { manifest, moduleHash } = prepared.module;
  if (format === 'json') {
    writeJson(io.stdout, { ok: true, file: written, key_id: signature.key_id, module_hash: moduleHash });
  } else {
    io.stdout.write(`signed ${bundleLabel(manifest, dir)} ${moduleHash} with key ${signature.key_id} → ${written}\n`);
  }
  return EXIT.ok;
}

/** A private key and a bundle whose bundle.js is the module its manifest names. */
export interface SignableBundle {
  readonly key: KeyObject;
  readonly files: BundleFiles;
  readonly module: BoundModule;
}

/**
 * Reads the private key and the bundle for `adec sign` and `adec approve`, or reports on
 * stderr why it will not be signed: an unusable key, a missing file, or a bundle.js that does
 * not match its manifest (a broken bundle is never signed).
 */
export async function prepareToSign(dir: string, keyPath: string, io: CliIo, verb: 'sign' | 'approve'): Promise<SignableBundle | undefined> {
  const key = await readPrivateKeyFile(keyPath, io.cwd);
  if (!key.ok) {
    io.stderr.write(`adec ${verb}: ${key.code}: ${key.message}\n`);
    return undefined;
  }
  const refuse = (failure: VerificationFailure): void => {
    io.stderr.write(`adec ${verb}: refusing to ${verb} \`${dir}\`: ${failure.code}: ${failure.message}\n`);
  };
  const read = await readBundleFiles(dir, io.cwd);
  if (!read.ok) {
    refuse(read.failure);
    return undefined;
  }
  const binding = checkModuleBinding(read.files.manifest, read.files.bundle);
  if (!binding.ok) {
    refuse(binding.failure);
    return undefined;
  }
  return { key: key.key, files: read.files, module: binding.module };
}

/** Writes signature.json or approval.json into the bundle (never through a link); false, reported, when it cannot. */
export async function writeSignatureFile(dir: string, name: string, content: string, io: CliIo, verb: 'sign' | 'approve'): Promise<boolean> {
  const problem = await writeOutputFiles(resolve(io.cwd, dir), dir, [{ name, content }]);
  if (problem !== undefined) io.stderr.write(`adec ${verb}: ${problem.message}\n`);
  return problem === undefined;
}
