/**
 * Strict Ed25519 encodings (RFC 8032 §5.1.3, and "Taming the many EdDSAs", Chalkias et al.,
 * 2020). OpenSSL, under Node's `crypto.verify`, accepts a public key of small order: with the
 * identity as key, the signature R = identity, S = 0 verifies for every message. So adec checks
 * every key and every signature itself before OpenSSL sees them, and refuses
 *
 * * a point encoding that is not canonical: y >= p, or x = 0 with the sign bit set;
 * * a point encoding that is not on the curve;
 * * a point of small order (8·P is the identity): the 8 torsion points, whatever their encoding;
 * * a signature scalar S >= L.
 *
 * Arithmetic is BigInt on affine coordinates: a handful of operations per key or signature,
 * never on a hot path worth optimising (about a millisecond).
 */

/** Why a 32-byte point encoding is refused, or undefined when it is a canonical point of large order. */
export type PointProblem = 'non-canonical' | 'not-on-curve' | 'small-order';

const P = 2n ** 255n - 19n;
/** The order of the prime-order subgroup. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const D = mod(-121665n * inverse(121666n));
/** A square root of -1 mod p. */
const SQRT_M1 = power(2n, (P - 1n) / 4n);

interface Point {
  readonly x: bigint;
  readonly y: bigint;
}

export function pointProblem(encoding: Uint8Array): PointProblem | undefined {
  if (encoding.length !== 32) return 'non-canonical';
  const decoded = decodePoint(encoding);
  if (typeof decoded === 'string') return decoded;
  // The cofactor is 8: a point P has small order exactly when 8·P is the identity.
  const eightfold = double(double(double(decoded)));
  return eightfold.x === 0n && eightfold.y === 1n ? 'small-order' : undefined;
}

/**
 * Why a 64-byte signature R ‖ S is not in the form a strict verifier accepts, or undefined: R
 * must be a canonical point of large order, and S < L (RFC 8032 §5.1.7 step 1; without it,
 * S + L would be a second valid signature of the same message).
 */
export function signatureProblem(signature: Uint8Array): string | undefined {
  if (signature.length !== 64) return `it is ${signature.length} bytes, not 64`;
  if (littleEndian(signature.subarray(32)) >= L) return 'S is not below the group order L';
  const r = pointProblem(signature.subarray(0, 32));
  if (r === undefined) return undefined;
  return { 'non-canonical': 'R is not a canonical point encoding', 'not-on-curve': 'R is not a point of the curve', 'small-order': 'R is a point of small order' }[r];
}

function decodePoint(encoding: Uint8Array): Point | 'non-canonical' | 'not-on-curve' {
  const sign = encoding[31]! >> 7;
  const y = littleEndian(encoding) & ((1n << 255n) - 1n);
  if (y >= P) return 'non-canonical';
  const y2 = mod(y * y);
  const x = squareRoot(mod(y2 - 1n), mod(D * y2 + 1n));
  if (x === undefined) return 'not-on-curve';
  if (x === 0n && sign === 1) return 'non-canonical';
  return { x: Number(x & 1n) === sign ? x : P - x, y };
}

/** x with x² = u/v (mod p), or undefined when u/v has no square root (RFC 8032 §5.1.3 step 2–3). */
function squareRoot(u: bigint, v: bigint): bigint | undefined {
  const v3 = mod(v * v * v);
  const candidate = mod(u * v3 * power(mod(u * v3 * v3 * v), (P - 5n) / 8n));
  const check = mod(v * candidate * candidate);
  if (check === u) return candidate;
  if (check === mod(-u)) return mod(candidate * SQRT_M1);
  return undefined;
}

/** 2·Q on -x² + y² = 1 + d·x²·y² (the complete addition law with both operands Q). */
function double({ x, y }: Point): Point {
  const xy = mod(x * y);
  const dxxyy = mod(D * xy * xy);
  return { x: mod(2n * xy * inverse(1n + dxxyy)), y: mod((y * y + x * x) * inverse(mod(1n - dxxyy))) };
}

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index -= 1) value = (value << 8n) | BigInt(bytes[index]!);
  return value;
}

function mod(value: bigint): bigint {
  const reduced = value % P;
  return reduced < 0n ? reduced + P : reduced;
}

function inverse(value: bigint): bigint {
  return power(mod(value), P - 2n);
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let square = mod(base);
  for (let rest = exponent; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = mod(result * square);
    square = mod(square * square);
  }
  return result;
}
