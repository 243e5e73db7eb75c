import { lstat, unlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import {
  BUNDLE_FILES,
  checkModuleBinding,
  DirectoryModuleStore,
  LoadedApprovals,
  loadTrustConfig,
  readBundleFiles,
  verifyBundle,
  type BoundModule,
  type BundleFiles,
  type TrustConfig,
  type VerificationFailure,
  type VerifiedBundle,
} from '@adec/runtime';
import { bundleLabel, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles, type OutputFile } from '../output-files.js';
import { writeJson } from '../report.js';

export const usage = `usage: adec deploy <bundle> --modules <dir> [--trust <trust.json>] [--format text|json]

Puts a built, signed (and approved) bundle where \`adec serve --modules <dir>\` reads it:
  <dir>/<org>/<domain>/<version>/{manifest.json, bundle.js, signature.json, approval.json}
the org, domain and version taken from the bundle's signed manifest. The directories are
created as needed (never through a symbolic link); each file is written to a temporary file
and renamed into place, so a running service reads the old bundle or the new one.

With --trust (the trust file the service uses; see \`adec verify --help\`), the bundle is
verified exactly as the service's loader does before it is copied, and refused (exit 1, with
the failure code) when it would not load: untrusted or missing signature or approval, a
bundle.js that is not the signed module, an expired approval, a revoked module. A bundle whose
approval is older than that of the different bundle already deployed for the same world
version is refused too (APPROVAL_OLDER_THAN_LOADED, as a running service would refuse it): to
go back to an older bundle on purpose, approve it again. Without --trust only the bundle's
hash is checked, and a note says so.

A running \`adec serve\` picks the bundle up at its next scan of the directory (every 10 s):
a new world version is loaded, and a newer approval replaces the module it serves.

  adec build examples/benefits --out build
  adec sign build --key keys/ci.key.jwk
  adec approve build --key keys/operator.key.jwk
  adec deploy build --modules modules --trust trust.json
  → modules/acme/hr.benefits/1.4.0/`;

/** `adec deploy <bundle> --modules <dir>`: the bundle into the directory store `adec serve` reads. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, format, values } = parseBundleCommand(args, usage, { modules: { type: 'string' }, trust: { type: 'string' } });
  const modules = requiredOption(values, 'modules', usage);
  const trustPath = values['trust'] === undefined ? undefined : requiredOption(values, 'trust', usage);
  const refuse = (message: string) => {
    io.stderr.write(`adec deploy: refusing to deploy \`${dir}\`: ${message}\n`);
    return EXIT.inputErrors;
  };

  let trust: TrustConfig | undefined;
  if (trustPath !== undefined) {
    const loaded = await loadTrustConfig(trustPath, io.cwd);
    if (!loaded.ok) {
      io.stderr.write(`adec deploy: ${loaded.code}: ${loaded.message}\n`);
      return EXIT.inputErrors;
    }
    trust = loaded.trust;
  }
  const read = await readBundleFiles(dir, io.cwd);
  if (!read.ok) return refuse(describe(read.failure));
  const checked = checkBundle(read.files, trust);
  if (!checked.ok) return refuse(checked.problem);
  const { world, moduleHash, manifest } = checked.module;

  const store = new DirectoryModuleStore(resolve(io.cwd, modules));
  const target = store.directoryOf(world);
  if (target === undefined) return refuse(`the world \`${world.org}/${world.domain}@${world.version}\` is not made of plain names (letters, digits, \`.\`, \`_\`, \`+\`, \`-\`), so no module directory can hold it`);
  const display = join(modules, relative(store.root, target));
  const linked = await linkOnTheWay(store.root, [world.org, world.domain], modules);
  if (linked !== undefined) return refuse(linked);

  const replaced = await deployedBundle(target, trust);
  if (checked.verified !== undefined && replaced?.verified !== undefined) {
    // The loader's own rule, with the deployed bundle as the one a running service has loaded.
    const approvals = new LoadedApprovals();
    approvals.admit(replaced.verified);
    const rollback = approvals.admit(checked.verified);
    if (rollback !== undefined) return refuse(describe(rollback));
  }

  const problem = await writeOutputFiles(target, display, bundleFiles(read.files));
  if (problem !== undefined) return refuse(problem.message);
  // An approval left from the bundle replaced would not match this one's module.
  if (read.files.approval === undefined) await unlink(join(target, BUNDLE_FILES.approval)).catch(() => undefined);

  if (trust === undefined) io.stderr.write('adec deploy: note: the signature and approval were not verified against a trust configuration (pass --trust to refuse a bundle the service would not load)\n');
  const previous = replaced !== undefined && replaced.module.moduleHash !== moduleHash ? replaced.module.moduleHash : undefined;
  if (format === 'json') {
    writeJson(io.stdout, { ok: true, directory: display, module_hash: moduleHash, world, verified: trust !== undefined, replaced: previous ?? null });
  } else {
    io.stdout.write(`deployed ${bundleLabel(manifest, dir)} ${moduleHash} → ${display}${previous === undefined ? '' : ` (replacing ${previous})`}\n`);
  }
  return EXIT.ok;
}

/** A bundle's module, and its verification when a trust configuration was given. */
type Checked = { readonly ok: true; readonly module: BoundModule; readonly verified?: VerifiedBundle } | { readonly ok: false; readonly problem: string };

/** The loader's verification with a trust configuration; without one, only the module binding and a signature file. */
function checkBundle(files: BundleFiles, trust: TrustConfig | undefined): Checked {
  if (trust !== undefined) {
    const verified = verifyBundle(files, trust);
    return verified.ok ? { ok: true, module: verified.bundle, verified: verified.bundle } : { ok: false, problem: describe(verified.failure) };
  }
  const bound = checkModuleBinding(files.manifest, files.bundle);
  if (!bound.ok) return { ok: false, problem: describe(bound.failure) };
  if (files.signature === undefined) return { ok: false, problem: 'SIGNATURE_MISSING: the bundle is not signed: it has no signature.json (run `adec sign`; no service loads an unsigned bundle)' };
  return { ok: true, module: bound.module };
}

/** What is deployed at `target` now (verified when it verifies), or undefined when no usable bundle is there. */
async function deployedBundle(target: string, trust: TrustConfig | undefined): Promise<Exclude<Checked, { ok: false }> | undefined> {
  const read = await readBundleFiles(target);
  if (!read.ok) return undefined;
  const bound = checkModuleBinding(read.files.manifest, read.files.bundle);
  if (!bound.ok) return undefined;
  const verified = trust === undefined ? undefined : verifyBundle(read.files, trust);
  return verified?.ok === true ? { ok: true, module: bound.module, verified: verified.bundle } : { ok: true, module: bound.module };
}

/** The files of the bundle, bundle.js first and approval.json last (a reader in between sees a mix that does not verify, and keeps the old module). */
function bundleFiles(files: BundleFiles): OutputFile[] {
  return [
    { name: BUNDLE_FILES.bundle, content: files.bundle },
    { name: BUNDLE_FILES.manifest, content: files.manifest },
    ...(files.signature === undefined ? [] : [{ name: BUNDLE_FILES.signature, content: files.signature }]),
    ...(files.approval === undefined ? [] : [{ name: BUNDLE_FILES.approval, content: files.approval }]),
  ];
}

/** A symbolic link (or a non-directory) where the org or domain directory goes: never written through. */
async function linkOnTheWay(root: string, segments: readonly string[], display: string): Promise<string | undefined> {
  let path = root;
  let shown = display;
  for (const segment of segments) {
    path = join(path, segment);
    shown = join(shown, segment);
    const stats = await lstat(path).catch(() => undefined);
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return `\`${shown}\` is a symbolic link: adec writes only into real directories`;
    if (!stats.isDirectory()) return `\`${shown}\` is not a directory`;
  }
  return undefined;
}

function describe(failure: VerificationFailure): string {
  return `${failure.code}: ${failure.message}`;
}
