import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { approveModule, BUNDLE_FILES, formatSignatureFile } from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeJson } from '../report.js';
import { prepareToSign } from './sign.js';

export const usage = `usage: adec approve <bundle> --key <operator private key> [--format text|json]

Records an operator's approval of a bundle's module and writes <bundle>/approval.json:
  { "key_id": "<kid>", "module_hash": "sha256:…", "signature": "<base64 Ed25519 signature>" }
over "adec.approval.v1\\n" followed by the module hash. Refuses (exit 1) when bundle.js is not
the module manifest.json names. Hosts that require approval load a bundle only when an
approval key in their trust file approved its exact module hash.`;

/** `adec approve <bundle>`: approval.json over the module hash of a whole bundle. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, { key: { type: 'string' } });
  const keyPath = requiredOption(values, 'key', usage);
  const prepared = await prepareToSign(dir, keyPath, io, 'approve');
  if (prepared === undefined) return EXIT.inputErrors;

  const { manifest, moduleHash } = prepared.module;
  const approval = approveModule(moduleHash, prepared.key);
  const written = join(dir, BUNDLE_FILES.approval);
  await writeFile(resolve(io.cwd, written), formatSignatureFile(approval));
  if (format === 'json') {
    writeJson(io.stdout, { ok: true, file: written, key_id: approval.key_id, module_hash: moduleHash });
  } else {
    io.stdout.write(`approved ${bundleLabel(manifest, dir)} ${moduleHash} with key ${approval.key_id} → ${written}\n`);
  }
  return EXIT.ok;
}
