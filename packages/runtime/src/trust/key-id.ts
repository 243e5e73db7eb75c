import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * A key id is the RFC 7638 JWK thumbprint of the public key: base64url (no padding) of the
 * sha256 of its canonical JWK `{"crv","kty","x"}`, members in that order, no whitespace. It
 * depends only on the key, so a PEM file and a JWK file holding the same key have the same
 * id, and a `kid` written in a JWK file is never trusted in its place.
 */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const { crv, kty, x } = publicKey.export({ format: 'jwk' });
  if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string') {
    throw new TypeError(`keyId: expected an Ed25519 key, got ${publicKey.asymmetricKeyType ?? publicKey.type}`);
  }
  const canonical = JSON.stringify({ crv, kty, x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** What a key id looks like: 32 bytes of sha256 in unpadded base64url. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;
