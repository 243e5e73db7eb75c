/**
 * Helpers for runtime tests: build a world into in-memory artifacts, inject raw JavaScript
 * into a built bundle (the test-only path for predicates the language cannot express), and
 * load the result into a real isolate.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorld, COMPILER_VERSION, type BuildArtifacts } from '@adec/compiler';
import { approveModule, comparedInReplay, formatSignatureFile, loadModule, signManifest, trustConfig, type DecideResult, type Decision, type Isolation, type LoadedModule, type TrustConfig } from '@adec/runtime';
import { loadWorldFromDir } from './repo.js';

export interface TestBundle {
  readonly bundle: string;
  readonly manifest: Record<string, unknown>;
  readonly manifestJson: string;
}

const builds = new Map<string, Promise<BuildArtifacts>>();

/** Builds a world directory (repo-relative) once per test file. */
export function buildFixture(pathFromRepo: string): Promise<BuildArtifacts> {
  let build = builds.get(pathFromRepo);
  if (build === undefined) {
    build = buildWorld(loadWorldFromDir(pathFromRepo)).then((result) => {
      if (result.artifacts === undefined) throw new Error(`${pathFromRepo} does not build: ${result.diagnostics.map((d) => d.message).join('; ')}`);
      return result.artifacts;
    });
    builds.set(pathFromRepo, build);
  }
  return build;
}

/**
 * Appends `javascript` to a built bundle, run after the module is defined and before the
 * runtime seals it, with the module in scope as `m`; then re-hashes the manifest, as a
 * compromised build would have to. E.g. `m._RULE_FUNCTIONS.r = () => { for (;;) {} }`.
 */
export function injectIntoBundle(artifacts: TestBundle, javascript: string): TestBundle {
  const bundle = `${artifacts.bundle}\n;((m) => {\n${javascript}\n})(__adec_module);\n`;
  const manifest = { ...artifacts.manifest, module_hash: `sha256:${createHash('sha256').update(bundle).digest('hex')}` };
  return { bundle, manifest, manifestJson: `${JSON.stringify(manifest, null, 2)}\n` };
}

export function asTestBundle(artifacts: BuildArtifacts): TestBundle {
  return { bundle: artifacts.bundle, manifest: artifacts.manifest as unknown as Record<string, unknown>, manifestJson: artifacts.manifestJson };
}

/** Loads a bundle into a real isolate (in this process unless told otherwise). */
export async function loadTestBundle(bundle: TestBundle, isolation: Isolation = 'in-process'): Promise<LoadedModule> {
  const loaded = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation });
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.module;
}

/** A CI signing key and an operator approval key, and the trust configuration naming both. */
export interface TestKeys {
  readonly signer: KeyObject;
  readonly approver: KeyObject;
  readonly trust: TrustConfig;
}

export function testKeys(): TestKeys {
  const signer = generateKeyPairSync('ed25519');
  const approver = generateKeyPairSync('ed25519');
  return {
    signer: signer.privateKey,
    approver: approver.privateKey,
    trust: trustConfig({ signingKeys: [signer.publicKey], approvalKeys: [approver.publicKey] }),
  };
}

/**
 * Writes a bundle into a directory module store at `<root>/<org>/<domain>/<version>/`, signed
 * and (unless told otherwise) approved; returns the bundle directory. `rebuilt`: the approval
 * says the operator rebuilt it identically (as `adec approve` does; here only stated).
 */
export function publish(bundle: TestBundle, root: string, keys: TestKeys, options: { approve?: boolean; rebuilt?: boolean } = {}): string {
  const world = bundle.manifest['world'] as Record<string, string>;
  const dir = join(root, world['org']!, world['domain']!, world['version']!);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bundle.js'), bundle.bundle);
  writeFileSync(join(dir, 'manifest.json'), bundle.manifestJson);
  writeFileSync(join(dir, 'signature.json'), formatSignatureFile(signManifest(Buffer.from(bundle.manifestJson), keys.signer)));
  if (options.approve ?? true) {
    const rebuilt = options.rebuilt === true && { rebuiltBy: { name: 'adec', version: COMPILER_VERSION } };
    const approval = approveModule({ moduleHash: String(bundle.manifest['module_hash']), world: { org: world['org']!, domain: world['domain']!, version: world['version']! }, ...rebuilt }, keys.approver);
    writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approval));
  }
  return dir;
}

/**
 * A decision, or a decide() result, without where it was made (`decision_metadata.module.isolation`):
 * what tests compare when they hold two isolations, or a module before and after it moved, to
 * the same answer.
 */
export function anywhere<T extends Decision | DecideResult>(value: T): T {
  if ('status' in value) return comparedInReplay(value) as T;
  return value.ok ? { ...value, decision: comparedInReplay(value.decision) } : value;
}
