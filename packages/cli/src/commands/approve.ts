import { join, resolve } from 'node:path';
import { BUILD_FILES, rebuildBundle, type RebuildResult } from '@adec/compiler';
import { approveModule, BUNDLE_FILES, DEFAULT_APPROVAL_LIFETIME_MS, DEFAULT_BUNDLE_FILE_LIMITS, formatSignatureFile, readRegularFile, type ApprovalCompiler } from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeJson } from '../report.js';
import { UsageError } from '../usage-error.js';
import { prepareToSign, writeSignatureFile, type SignableBundle } from './sign.js';

export const usage = `usage: adec approve <bundle> --key <operator private key> [--expires <when>] [--without-rebuild] [--format text|json]

Rebuilds the bundle from the sources it carries (sources.json) with this compiler, and records
an operator's approval of its module only when the rebuild gives exactly its bundle.js and
manifest.json. Writes <bundle>/approval.json:
  { "format": "adec.approval.v3", "key_id": "<kid>", "module_hash": "sha256:…",
    "world": { "org", "domain", "version" }, "issued_at": "…Z", "expires_at": "…Z",
    "rebuilt_by": { "name": "adec", "version": "…" }, "signature": "<base64 Ed25519 signature>" }
signed over "adec.approval.v3\\n" followed by the module hash, world, issue and expiry times and
the rebuild. Refuses (exit 1) when the bundle carries no sources, was built by another compiler
version, or is not what its sources build (naming the file and where it differs), and when
bundle.js is not the module manifest.json names.
--without-rebuild approves without rebuilding ("rebuilt_by": null): hosts then never run the
module in process by default, only in a sandbox process.
--expires is a duration from now (90d, 12h, 30m) or a time (2027-01-31T00:00:00Z, 2027-01-31);
default 90d. Hosts refuse the approval after it expires. Hosts that require approval load a
bundle only when an approval key in their trust file approved its exact module hash and world
version.`;

/** `adec approve <bundle>`: approval.json over the module hash and world of a whole bundle. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, {
    key: { type: 'string' },
    expires: { type: 'string' },
    'without-rebuild': { type: 'boolean', default: false },
  });
  const keyPath = requiredOption(values, 'key', usage);
  const issuedAt = Date.now();
  const expiresAt = typeof values['expires'] === 'string' ? parseExpiry(values['expires'], issuedAt) : issuedAt + DEFAULT_APPROVAL_LIFETIME_MS;
  if (expiresAt === undefined || expiresAt <= issuedAt + 1000) {
    throw new UsageError(`invalid --expires \`${String(values['expires'])}\`: expected a duration (90d, 12h, 30m) or a time in the future\n\n${usage}`);
  }
  const prepared = await prepareToSign(dir, keyPath, io, 'approve');
  if (prepared === undefined) return EXIT.inputErrors;

  let rebuiltBy: ApprovalCompiler | undefined;
  if (values['without-rebuild'] !== true) {
    const rebuilt = await rebuildFromSources(dir, prepared, io);
    if (!rebuilt.ok) {
      io.stderr.write(`adec approve: refusing to approve \`${dir}\`: ${rebuilt.code}: ${rebuilt.message}\n`);
      return EXIT.inputErrors;
    }
    rebuiltBy = rebuilt.compiler;
  }
  const { manifest, moduleHash, world } = prepared.module;
  const approval = approveModule({ moduleHash, world, issuedAt, expiresAt, ...(rebuiltBy !== undefined && { rebuiltBy }) }, prepared.key);
  const written = join(dir, BUNDLE_FILES.approval);
  if (!(await writeSignatureFile(dir, BUNDLE_FILES.approval, formatSignatureFile(approval), io, 'approve'))) return EXIT.inputErrors;
  if (format === 'json') {
    writeJson(io.stdout, { ok: true, file: written, key_id: approval.key_id, module_hash: moduleHash, expires_at: approval.expires_at, rebuilt_by: approval.rebuilt_by });
  } else {
    const how = rebuiltBy === undefined ? 'without a rebuild' : `rebuilt identically by ${rebuiltBy.name} ${rebuiltBy.version}`;
    io.stdout.write(`approved ${bundleLabel(manifest, dir)} ${moduleHash}, ${how}, with key ${approval.key_id} until ${approval.expires_at} → ${written}\n`);
  }
  return EXIT.ok;
}

/** Rebuilds the bundle in `dir` from its sources.json (at most as large as bundle.js may be) and compares. */
async function rebuildFromSources(dir: string, { files, module }: SignableBundle, io: CliIo): Promise<RebuildResult> {
  const sourcesName = join(dir, BUILD_FILES.sources);
  const read = await readRegularFile(resolve(io.cwd, sourcesName), { maxBytes: DEFAULT_BUNDLE_FILE_LIMITS.bundle, followSymlinks: false });
  if (!read.ok && read.code !== 'FILE_MISSING') return { ok: false, code: 'SOURCES_INVALID', message: `\`${sourcesName}\` ${read.problem}` };
  const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
  // bundle.js was decoded, strictly, when its hash was checked against the manifest.
  return rebuildBundle({ manifest: text(files.manifest), bundle: module.bundleSource, sources: read.ok ? text(read.bytes) : undefined, sourcesName });
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
