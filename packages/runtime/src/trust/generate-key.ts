import { generateKeyPairSync } from 'node:crypto';
import { keyId } from './key-id.js';

/** The file formats adec writes keys in. */
export type KeyFormat = 'jwk' | 'pem';

export const KEY_FORMATS: readonly KeyFormat[] = ['jwk', 'pem'];

/** A new Ed25519 key pair as the text of its two files. */
export interface GeneratedKey {
  readonly keyId: string;
  /** The private key file: keep it secret (write it with mode 0600). */
  readonly privateText: string;
  readonly publicText: string;
}

/** `<name>.key.<format>` (private) and `<name>.pub.<format>` (public). */
export function keyFileNames(name: string, format: KeyFormat): { readonly privateFile: string; readonly publicFile: string } {
  return { privateFile: `${name}.key.${format}`, publicFile: `${name}.pub.${format}` };
}

/**
 * Generates an Ed25519 key pair. As JWK, both files carry the key id (`kid`, the RFC 7638
 * thumbprint), `alg: "EdDSA"` and `use: "sig"`; as PEM, PKCS#8 (private) and SPKI (public),
 * whose id is computed the same way when they are read.
 */
export function generateKey(format: KeyFormat): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const kid = keyId(publicKey);
  if (format === 'pem') {
    return {
      keyId: kid,
      privateText: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      publicText: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    };
  }
  const { kty, crv, x, d } = privateKey.export({ format: 'jwk' });
  const jwkText = (fields: object) => `${JSON.stringify(fields, null, 2)}\n`;
  return {
    keyId: kid,
    privateText: jwkText({ kty, crv, x, d, kid, alg: 'EdDSA', use: 'sig' }),
    publicText: jwkText({ kty, crv, x, kid, alg: 'EdDSA', use: 'sig' }),
  };
}
