import { formatApprovalTime, loadTrustConfig, readBundleFiles, verifyBundle, type VerificationResult } from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeJson } from '../report.js';

export const usage = `usage: adec verify <bundle> --trust <trust.json> [--format text|json]

Verifies a bundle as a runtime host does before loading it: signature.json by a trusted
signing key over manifest.json, bundle.js hashing to manifest.module_hash, and approval.json
by a trusted approval key over that hash (when present, or required by the trust file), saying
whether the approver rebuilt the bundle identically from its sources (\`adec approve\`):
  { "signing_keys": ["ci.pub.jwk"], "approval_keys": ["ops.pub.jwk"], "require_approval": true,
    "revoked_modules": [], "revoked_keys": [], "minimum_versions": [] }
and the approval neither expired nor for another world version, the module neither revoked
nor below its minimum version. Exit 0 when the bundle verifies; 1 with the failure code and what failed otherwise.`;

/** `adec verify <bundle>`: the checks a host runs before it loads a bundle. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, { trust: { type: 'string' } });
  const trustPath = requiredOption(values, 'trust', usage);
  const trust = await loadTrustConfig(trustPath, io.cwd);
  if (!trust.ok) {
    io.stderr.write(`adec verify: ${trust.code}: ${trust.message}\n`);
    return EXIT.inputErrors;
  }
  const read = await readBundleFiles(dir, io.cwd);
  const result: VerificationResult = read.ok ? verifyBundle(read.files, trust.trust) : read;

  if (format === 'json') {
    writeJson(io.stdout, verificationJson(result));
  } else if (result.ok) {
    const { manifest, moduleHash, signedBy, approvedBy, approvalExpiresAt, rebuiltBy } = result.bundle;
    const rebuilt = rebuiltBy === undefined ? '' : ` (rebuilt identically by ${rebuiltBy.name} ${rebuiltBy.version})`;
    const approval =
      approvedBy !== undefined && approvalExpiresAt !== undefined
        ? `approved by ${approvedBy}${rebuilt} until ${formatApprovalTime(approvalExpiresAt)}`
        : 'not approved (approval not required)';
    io.stdout.write(`verified ${bundleLabel(manifest, dir)} ${moduleHash} signed by ${signedBy}, ${approval}\n`);
  } else {
    io.stderr.write(`adec verify: ${result.failure.code}: ${result.failure.message}\n`);
  }
  return result.ok ? EXIT.ok : EXIT.inputErrors;
}

/** `{ ok, failure?, module_hash?, signed_by?, approved_by?, approval_expires_at?, rebuilt_by? }` for --format json. */
function verificationJson(result: VerificationResult) {
  if (!result.ok) return { ok: false, failure: result.failure };
  const { moduleHash, signedBy, approvedBy, approvalExpiresAt, rebuiltBy } = result.bundle;
  return {
    ok: true,
    module_hash: moduleHash,
    signed_by: signedBy,
    ...(approvedBy !== undefined && { approved_by: approvedBy }),
    ...(approvalExpiresAt !== undefined && { approval_expires_at: formatApprovalTime(approvalExpiresAt) }),
    ...(approvedBy !== undefined && { rebuilt_by: rebuiltBy ?? null }),
  };
}
