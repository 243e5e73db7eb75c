import { sign, type KeyObject } from 'node:crypto';
import { keyId } from './key-id.js';
import { ed25519Problem } from './key-files.js';
import { approvalMessage, manifestMessage } from './messages.js';
import { MODULE_HASH_PATTERN } from './module-hash.js';
import { encodeSignature, type ApprovalFile, type SignatureFile } from './signature-files.js';

/**
 * Signing and approving, as pure functions from bytes and a private key to the JSON to write.
 * Checking that the bundle is whole before signing it is the caller's job
 * (`checkModuleBinding`); a key that is not an Ed25519 private key is a programming error here,
 * because key files are checked when they are read (`readPrivateKeyFile`).
 */

/** signature.json for a manifest: Ed25519 over `adec.manifest.v1\n` + the manifest bytes. */
export function signManifest(manifest: Uint8Array, privateKey: KeyObject): SignatureFile {
  assertPrivateEd25519(privateKey);
  return {
    key_id: keyId(privateKey),
    signature: encodeSignature(sign(null, manifestMessage(manifest), privateKey)),
  };
}

/** approval.json for a module hash: Ed25519 over `adec.approval.v1\n` + the module hash. */
export function approveModule(moduleHash: string, privateKey: KeyObject): ApprovalFile {
  assertPrivateEd25519(privateKey);
  if (!MODULE_HASH_PATTERN.test(moduleHash)) throw new TypeError(`approveModule: \`${moduleHash}\` is not a module hash`);
  return {
    key_id: keyId(privateKey),
    module_hash: moduleHash,
    signature: encodeSignature(sign(null, approvalMessage(moduleHash), privateKey)),
  };
}

function assertPrivateEd25519(key: KeyObject): void {
  const problem = ed25519Problem(key);
  if (problem !== undefined) throw new TypeError(`the signing key ${problem}`);
  if (key.type !== 'private') throw new TypeError('the signing key is a public key: signing needs the private key');
}
