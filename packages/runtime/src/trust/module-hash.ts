import { createHash, timingSafeEqual } from 'node:crypto';

/** `"sha256:"` and 64 lowercase hex digits: the form of `manifest.module_hash`. */
export const MODULE_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The module hash of a bundle: the sha256 of the exact bytes of bundle.js. */
export function moduleHashOf(bundle: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bundle).digest('hex')}`;
}

/**
 * Compares two module hashes in time independent of where they differ. Both must already
 * match MODULE_HASH_PATTERN, so they have the same length.
 */
export function sameModuleHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
