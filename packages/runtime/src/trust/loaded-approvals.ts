import { formatApprovalTime } from './approval-times.js';
import { describeBundleWorld } from './module-binding.js';
import { verificationFailure, type VerificationFailure } from './verification-failure.js';
import type { VerifiedBundle } from './verify-bundle.js';

/**
 * A host's memory of the approvals it loaded, so that a module cannot be rolled back to an
 * older one. A world version's module can be replaced while a host runs: its bundle in the
 * store changes, and the next load (after an unload, an eviction or a crash) reads the new
 * bytes. A replacement that an operator approved later is an update; one whose approval was
 * issued earlier than the approval already loaded is the old bundle put back — by mistake or by
 * whoever can write to the store — and is refused (APPROVAL_OLDER_THAN_LOADED).
 *
 * To go back to an older bundle on purpose, approve it again: its new approval is the newest.
 * A bundle without approval (when the trust file does not require one) has no issue time, and
 * is neither compared nor remembered. The memory is per host process, one entry per world
 * version; the trust file's `minimum_versions` and `revoked_modules` carry the same intent
 * across restarts and hosts.
 */
export class LoadedApprovals {
  /** Per world version: the module hash and issue time of the newest approval admitted. */
  readonly #newest = new Map<string, { readonly moduleHash: string; readonly approvedAt: number }>();

  /** Refuses `bundle` when it would replace a module of newer approval; otherwise remembers it. */
  admit(bundle: VerifiedBundle): VerificationFailure | undefined {
    if (bundle.approvedAt === undefined) return undefined;
    const world = JSON.stringify([bundle.world.org, bundle.world.domain, bundle.world.version]);
    const newest = this.#newest.get(world);
    if (newest !== undefined && newest.moduleHash !== bundle.moduleHash && bundle.approvedAt < newest.approvedAt) {
      return verificationFailure('APPROVAL_OLDER_THAN_LOADED', {
        moduleHash: bundle.moduleHash,
        loadedHash: newest.moduleHash,
        world: `\`${describeBundleWorld(bundle.world)}\``,
        issuedAt: formatApprovalTime(bundle.approvedAt),
        loadedIssuedAt: formatApprovalTime(newest.approvedAt),
      });
    }
    if (newest === undefined || bundle.approvedAt >= newest.approvedAt) this.#newest.set(world, { moduleHash: bundle.moduleHash, approvedAt: bundle.approvedAt });
    return undefined;
  }
}
