import { createPublicKey, type KeyObject } from 'node:crypto';
import { pointProblem, type PointProblem } from './ed25519-encoding.js';

/**
 * Ed25519 public keys no signature should be checked against (see ed25519-encoding.ts): a
 * small-order key lets anyone forge signatures and approvals without a private key, and a
 * non-canonical or off-curve encoding is never what a real key generator writes. Refused where
 * a key is read (key files, trust files, `trustConfig`) and again before each verification.
 */
export type WeakKeyCode = 'KEY_NON_CANONICAL' | 'KEY_NOT_ON_CURVE' | 'KEY_SMALL_ORDER';

export interface WeakKey {
  readonly code: WeakKeyCode;
  /** The end of a sentence that starts with the key's name. */
  readonly problem: string;
}

const WEAK_KEYS: { readonly [Problem in PointProblem]: WeakKey } = {
  'non-canonical': {
    code: 'KEY_NON_CANONICAL',
    problem: 'is not the canonical encoding of an Ed25519 point (y >= p, or x = 0 with the sign bit set)',
  },
  'not-on-curve': { code: 'KEY_NOT_ON_CURVE', problem: 'is not a point of the Ed25519 curve' },
  'small-order': {
    code: 'KEY_SMALL_ORDER',
    problem: 'is a point of small order: signatures under it can be forged without the private key',
  },
};

/** Checked keys, so that verifying many bundles against one trust configuration checks each key once. */
const checked = new WeakMap<KeyObject, WeakKey | null>();

/** Why an Ed25519 key (public, or private: its public part) is weak, or undefined when it is sound. */
export function weakKey(key: KeyObject): WeakKey | undefined {
  let known = checked.get(key);
  if (known === undefined) {
    const publicKey = key.type === 'private' ? createPublicKey(key) : key;
    const x = publicKey.export({ format: 'jwk' }).x ?? '';
    const problem = pointProblem(Buffer.from(x, 'base64url'));
    known = problem === undefined ? null : WEAK_KEYS[problem];
    checked.set(key, known);
  }
  return known ?? undefined;
}
