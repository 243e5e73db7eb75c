/**
 * The service's signing keys (`--anchor-key`, `--trace-key`): Ed25519 private keys read and
 * checked as `adec sign` reads its key, with the key id (RFC 7638) that signatures name.
 */
import type { KeyObject } from 'node:crypto';
import { readPrivateKeyFile } from '@adec/runtime';

export interface SigningKey {
  readonly key: KeyObject;
  readonly keyId: string;
}

export async function readSigningKey(flag: string, path: string, cwd: string): Promise<{ readonly ok: true; readonly signer: SigningKey } | { readonly ok: false; readonly message: string }> {
  const read = await readPrivateKeyFile(path, cwd);
  return read.ok ? { ok: true, signer: { key: read.key, keyId: read.keyId } } : { ok: false, message: `--${flag}: ${read.code}: ${read.message}` };
}
