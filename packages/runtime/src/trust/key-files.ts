import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import { keyId } from './key-id.js';
import { KEY_FILE_MAX_BYTES, readRegularFile, type FileCode } from './regular-file.js';
import { decodeUtf8Exactly } from './utf8.js';
import { weakKey, type WeakKeyCode } from './weak-keys.js';
import { fieldText } from './field-text.js';

/**
 * Reading Ed25519 keys from ordinary PEM (PKCS#8 private, SPKI public) or JWK files. Only
 * Ed25519 is accepted: the algorithm of every signature adec checks follows from the trusted
 * key, so a key of any other type is refused here, where it is configured, with its type named;
 * so is a weak Ed25519 key (weak-keys.ts).
 */
export type KeyRead =
  | { readonly ok: true; readonly key: KeyObject; readonly keyId: string }
  | { readonly ok: false; readonly code: KeyCode; readonly message: string };

/**
 * Why a key file was refused: `KEY_INVALID` (not a usable Ed25519 key file), a weak key, or a
 * file that cannot be read as a regular file.
 */
export type KeyCode = 'KEY_INVALID' | WeakKeyCode | FileCode;

/** JWK `alg` values that mean Ed25519 signatures (RFC 8037 `EdDSA`, RFC 9864 `Ed25519`). */
const ED25519_ALGS = new Set(['EdDSA', 'Ed25519']);

/**
 * Parses the content of a key file holding an Ed25519 key, public or private. `name` is how
 * messages refer to the file.
 */
export function parseKey(content: Uint8Array | string, name: string): KeyRead {
  const text = typeof content === 'string' ? content : decodeUtf8Exactly(content);
  if (text === undefined) return refuse(name, 'is not valid UTF-8 text');
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return parsePem(trimmed, name);
  if (trimmed.startsWith('{')) return parseJwk(trimmed, name);
  return refuse(name, 'is neither a PEM key nor a JWK');
}

/**
 * Reads a key file (public or private key) of at most 64 KiB. `path` is resolved against `cwd`
 * and named as given. A symbolic link is followed: key files are named by the operator, and
 * secret stores (Kubernetes secrets, say) mount them as links.
 */
export async function readKeyFile(path: string, cwd: string = process.cwd()): Promise<KeyRead> {
  const read = await readRegularFile(resolve(cwd, path), { maxBytes: KEY_FILE_MAX_BYTES, followSymlinks: true });
  if (!read.ok) return refuse(path, read.problem, read.code);
  return parseKey(read.bytes, path);
}

/** Reads the private key a signer or approver signs with; a public key is refused. */
export async function readPrivateKeyFile(path: string, cwd: string = process.cwd()): Promise<KeyRead> {
  const read = await readKeyFile(path, cwd);
  if (read.ok && read.key.type !== 'private') {
    return refuse(path, 'holds a public key: signing needs the private key (`*.key.jwk` or `*.key.pem`)');
  }
  return read;
}

/**
 * Why `key` cannot be used by adec, or undefined when it is an Ed25519 public or private key.
 * For keys built in code (trustConfig) rather than read from a file.
 */
export function ed25519Problem(key: KeyObject): string | undefined {
  if (key.type === 'secret') return 'is a symmetric (secret) key: only Ed25519 keys are accepted';
  if (key.asymmetricKeyType !== 'ed25519') return `is a key of type ${describeKeyObject(key)}: only Ed25519 keys are accepted`;
  return undefined;
}

/** How error messages name a key's type, e.g. `RSA` or `EC P-256`. */
export function describeKeyObject(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === undefined) return 'secret';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === undefined ? 'EC' : `EC ${JOSE_CURVE_NAMES[curve] ?? curve}`;
  }
  return KEY_TYPE_NAMES[type] ?? type;
}

/** OpenSSL curve names as JWK (RFC 7518) names them, so PEM and JWK keys read the same. */
const JOSE_CURVE_NAMES: Readonly<Record<string, string>> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

const KEY_TYPE_NAMES: Readonly<Record<string, string>> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  dsa: 'DSA',
  dh: 'DH',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  x25519: 'X25519',
  x448: 'X448',
};

function parsePem(pem: string, name: string): KeyRead {
  // The PEM label says which kind it is; a private key also yields its public key.
  const isPrivate = /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem);
  let key: KeyObject;
  try {
    key = isPrivate ? createPrivateKey({ key: pem, format: 'pem' }) : createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    return refuse(name, `is not a usable PEM key: ${(error as Error).message}`);
  }
  return accept(key, name);
}

function parseJwk(text: string, name: string): KeyRead {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch (error) {
    return refuse(name, `is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return refuse(name, 'is not a JWK: expected a JSON object');
  const fields = jwk as Record<string, unknown>;
  if (Array.isArray(fields['keys'])) return refuse(name, 'is a JWK set: give a file holding a single key');
  const { kty, crv, alg, use } = fields;
  if (typeof kty !== 'string') return refuse(name, 'is not a JWK: it has no `kty`');
  if (kty !== 'OKP' || crv !== 'Ed25519') {
    return refuse(name, `holds a key of type ${describeJwkType(kty, crv)}: only Ed25519 keys are accepted`);
  }
  if (alg !== undefined && !(typeof alg === 'string' && ED25519_ALGS.has(alg))) {
    return refuse(name, `declares \`alg\` \`${fieldText(alg)}\`: an Ed25519 key signs only with EdDSA`);
  }
  if (use !== undefined && use !== 'sig') return refuse(name, `declares \`use\` \`${fieldText(use)}\`: a signing key must have \`use\` \`sig\``);
  let key: KeyObject;
  try {
    key = 'd' in fields ? createPrivateKey({ key: fields as never, format: 'jwk' }) : createPublicKey({ key: fields as never, format: 'jwk' });
  } catch (error) {
    return refuse(name, `is not a valid Ed25519 JWK: ${(error as Error).message}`);
  }
  return accept(key, name);
}

function describeJwkType(kty: string, crv: unknown): string {
  if (kty === 'oct') return 'oct (symmetric)';
  return typeof crv === 'string' ? (kty === 'OKP' ? crv : `${kty} ${crv}`) : kty;
}

function accept(key: KeyObject, name: string): KeyRead {
  if (key.asymmetricKeyType !== 'ed25519') {
    return refuse(name, `holds a key of type ${describeKeyObject(key)}: only Ed25519 keys are accepted`);
  }
  const weak = weakKey(key);
  if (weak !== undefined) return refuse(name, `holds a key that ${weak.problem}`, weak.code);
  return { ok: true, key, keyId: keyId(key) };
}

function refuse(name: string, problem: string, code: KeyCode = 'KEY_INVALID'): KeyRead {
  return { ok: false, code, message: `key file \`${name}\` ${problem}` };
}
