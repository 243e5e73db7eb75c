import { describeBundleWorld, type BoundModule } from './module-binding.js';
import { compareSemver, isSemver } from './semver.js';
import type { TrustConfig } from './trust-config.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';

/**
 * What the trust file withdrew from an authentic bundle: its module hash (MODULE_REVOKED), or
 * every version of its module below a minimum (VERSION_BELOW_MINIMUM). A version that is not a
 * semantic version cannot be shown to be at least the minimum, so it is refused as below it.
 */
export function revocation(module: BoundModule, trust: TrustConfig): VerificationFailure | undefined {
  const world = `\`${describeBundleWorld(module.world)}\``;
  if (trust.revokedModules?.has(module.moduleHash)) return verificationFailure('MODULE_REVOKED', { moduleHash: module.moduleHash, world });
  const { org, domain, version } = module.world;
  const minimum = trust.minimumVersions?.find((entry) => entry.org === org && entry.domain === domain);
  if (minimum !== undefined && (!isSemver(version) || compareSemver(version, minimum.version) < 0)) {
    return verificationFailure('VERSION_BELOW_MINIMUM', { world, minimum: minimum.version, module: `\`${org}/${domain}\`` });
  }
  return undefined;
}
