/**
 * Weak Ed25519 encodings, written out rather than computed, so the tests do not trust the code
 * they test. The small-order points are those of libsodium's blocklist and of "Taming the many
 * EdDSAs" (Chalkias et al., 2020, table 5); the non-canonical encodings are every y >= p (19
 * values, each with either sign bit) and the two points with x = 0 written with the sign bit set.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';

const P = 2n ** 255n - 19n;
/** The order of the prime-order subgroup. */
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The 8 points of small order (the torsion subgroup), canonically encoded, with their orders. */
export const SMALL_ORDER_POINTS: ReadonlyArray<readonly [hex: string, order: number]> = [
  ['0100000000000000000000000000000000000000000000000000000000000000', 1],
  ['ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 2],
  ['0000000000000000000000000000000000000000000000000000000000000000', 4],
  ['0000000000000000000000000000000000000000000000000000000000000080', 4],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 8],
  ['26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', 8],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 8],
  ['c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', 8],
];

/** Encodings that are not canonical: y = p … 2^255 - 1 with either sign bit, and x = 0 with the sign bit set. */
export const NON_CANONICAL_ENCODINGS: readonly string[] = [
  ...Array.from({ length: 19 }, (_, offset) => [encode(P + BigInt(offset), 0), encode(P + BigInt(offset), 1)]).flat(),
  '0100000000000000000000000000000000000000000000000000000000000080',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
];

/** y = 2: (y² - 1)/(d·y² + 1) has no square root mod p, so no point has this y. */
export const NOT_ON_CURVE_ENCODING = '0200000000000000000000000000000000000000000000000000000000000000';

/** The identity point: the R of the universal forgery under a key of small order. */
export const IDENTITY = SMALL_ORDER_POINTS[0]![0];

/** A public KeyObject holding exactly the 32 bytes `hex` (Node imports them without checking). */
export function keyFromEncoding(hex: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

/** The same 32 bytes as a public key file: JWK text, or PEM (SPKI). */
export function keyFileText(hex: string, format: 'jwk' | 'pem'): string {
  const raw = Buffer.from(hex, 'hex');
  if (format === 'jwk') return `${JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') })}\n`;
  // SPKI: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING { 0 unused bits, key } }
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
  return `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
}

/** A 64-byte signature R ‖ S from R's encoding and the scalar S. */
export function signatureOf(rHex: string, s: bigint): Buffer {
  return Buffer.concat([Buffer.from(rHex, 'hex'), littleEndian(s)]);
}

/** `signature` with S replaced by S + L: the same signature to a lax verifier, a second spelling of it. */
export function S_PLUS_L(signature: Uint8Array): Buffer {
  const s = [...signature.subarray(32)].reverse().reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
  return Buffer.concat([Buffer.from(signature.subarray(0, 32)), littleEndian(s + L)]);
}

function encode(y: bigint, sign: number): string {
  const bytes = littleEndian(y);
  bytes[31] = bytes[31]! | (sign << 7);
  return bytes.toString('hex');
}

function littleEndian(value: bigint): Buffer {
  const bytes = Buffer.alloc(32);
  let rest = value;
  for (let index = 0; index < 32; index += 1) {
    bytes[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}
