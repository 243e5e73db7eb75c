/**
 * The one way a runtime reads a manifest: by its `abi_version`, as the manifest of that ABI,
 * every problem reported with its JSON path. Never throws.
 */
import { childPath, describeValue, type AbiResult } from './abi-problem.js';
import { checkObject, validate, type Check } from './checks.js';
import { checkManifestAbi1, type ManifestAbi1 } from './manifest-abi1.js';
import { ABI_VERSION, checkManifest, type Manifest } from './manifest.js';

/** A manifest of any ABI this runtime still reads. */
export type AnyManifest = Manifest | ManifestAbi1;

/** The ABI versions whose manifests `readManifest` reads, oldest first. */
export const READABLE_ABI_VERSIONS = [1, ABI_VERSION] as const;

/** `value` (a parsed manifest.json) as the manifest of the ABI it names, or the problems with it. */
export function readManifest(value: unknown): AbiResult<AnyManifest> {
  return validate(checkAnyManifest, value);
}

/** Whether `manifest` is of the current ABI. */
export function isCurrentManifest(manifest: AnyManifest): manifest is Manifest {
  return manifest.abi_version === ABI_VERSION;
}

const checkAnyManifest: Check<AnyManifest> = (value, path, problems): value is AnyManifest => {
  if (!checkObject(value, path, problems)) return false;
  const version = value['abi_version'];
  if (version === 1) return checkManifestAbi1(value, path, problems);
  if (version === ABI_VERSION) return checkManifest(value, path, problems);
  const at = childPath(path, 'abi_version');
  if (!Object.hasOwn(value, 'abi_version')) return problems.add('FIELD_MISSING', at, `\`${at}\` is missing`);
  return problems.add('ABI_VERSION_UNSUPPORTED', at, `\`${at}\` is ${describeValue(version)}, expected one of ${READABLE_ABI_VERSIONS.join(', ')}`);
};
