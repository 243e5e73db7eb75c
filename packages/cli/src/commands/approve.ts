import { join } from 'node:path';
import { approveModule, BUNDLE_FILES, DEFAULT_APPROVAL_LIFETIME_MS, formatSignatureFile } from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeJson } from '../report.js';
import { UsageError } from '../usage-error.js';
import { prepareToSign, writeSignatureFile } from './sign.js';

export const usage = `usage: adec approve <bundle> --key <operator private key> [--expires <when>] [--format text|json]

Records an operator's approval of a bundle's module and writes <bundle>/approval.json:
  { "format": "adec.approval.v2", "key_id": "<kid>", "module_hash": "sha256:…",
    "world": { "org", "domain", "version" }, "issued_at": "…Z", "expires_at": "…Z",
    "signature": "<base64 Ed25519 signature>" }
signed over "adec.approval.v2\\n" followed by the module hash, world, issue and expiry times.
--expires is a duration from now (90d, 12h, 30m) or a time (2027-01-31T00:00:00Z, 2027-01-31);
default 90d. Hosts refuse the approval after it expires. Refuses (exit 1) when bundle.js is
not the module manifest.json names. Hosts that require approval load a bundle only when an
approval key in their trust file approved its exact module hash and world version.`;

/** `adec approve <bundle>`: approval.json over the module hash and world of a whole bundle. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, { key: { type: 'string' }, expires: { type: 'string' } });
  const keyPath = requiredOption(values, 'key', usage);
  const issuedAt = Date.now();
  const expiresAt = typeof values['expires'] === 'string' ? parseExpiry(values['expires'], issuedAt) : issuedAt + DEFAULT_APPROVAL_LIFETIME_MS;
  if (expiresAt === undefined || expiresAt <= issuedAt + 1000) {
    throw new UsageError(`invalid --expires \`${String(values['expires'])}\`: expected a duration (90d, 12h, 30m) or a time in the future\n\n${usage}`);
  }
  const prepared = await prepareToSign(dir, keyPath, io, 'approve');
  if (prepared === undefined) return EXIT.inputErrors;

  const { manifest, moduleHash, world } = prepared.module;
  const approval = approveModule({ moduleHash, world, issuedAt, expiresAt }, prepared.key);
  const written = join(dir, BUNDLE_FILES.approval);
  if (!(await writeSignatureFile(dir, BUNDLE_FILES.approval, formatSignatureFile(approval), io, 'approve'))) return EXIT.inputErrors;
  if (format === 'json') {
    writeJson(io.stdout, { ok: true, file: written, key_id: approval.key_id, module_hash: moduleHash, expires_at: approval.expires_at });
  } else {
    io.stdout.write(`approved ${bundleLabel(manifest, dir)} ${moduleHash} with key ${approval.key_id} until ${approval.expires_at} → ${written}\n`);
  }
  return EXIT.ok;
}

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--expires`: a duration after `now` (`90d`, `12h`, `30m`), or a date or time (UTC unless it says otherwise). */
function parseExpiry(text: string, now: number): number | undefined {
  const duration = /^([1-9]\d{0,5})([mhd])$/.exec(text);
  if (duration !== null) return now + Number(duration[1]) * UNIT_MS[duration[2]!]!;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
